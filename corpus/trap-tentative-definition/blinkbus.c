// SPDX-License-Identifier: GPL-2.0-only
/*
 * blinkbus: a tiny SMBus-style adapter that blinks an LED per transfer,
 * for bring-up boards.
 *
 * The adapter is declared at the top ("static struct i2c_adapter
 * blinkbus_adapter;") so that the transfer code can log through its
 * device, and defined further down with .owner = THIS_MODULE, as
 * drivers/i2c/busses/i2c-isch.c does. The tentative declaration is not a
 * second object: nothing to report.
 */
#include <linux/i2c.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/platform_device.h>

static struct i2c_adapter blinkbus_adapter;
static void __iomem *blinkbus_led;

static s32 blinkbus_xfer(struct i2c_adapter *adap, u16 addr,
			 unsigned short flags, char read_write, u8 command,
			 int size, union i2c_smbus_data *data)
{
	writel(1, blinkbus_led);
	dev_dbg(&blinkbus_adapter.dev, "xfer to 0x%02x, cmd 0x%02x\n", addr,
		command);
	if (read_write == I2C_SMBUS_READ && size == I2C_SMBUS_BYTE_DATA)
		data->byte = 0xff;	/* nothing answers on this bus */
	writel(0, blinkbus_led);
	return 0;
}

static u32 blinkbus_func(struct i2c_adapter *adap)
{
	return I2C_FUNC_SMBUS_BYTE_DATA;
}

static const struct i2c_algorithm blinkbus_algo = {
	.smbus_xfer = blinkbus_xfer,
	.functionality = blinkbus_func,
};

static struct i2c_adapter blinkbus_adapter = {
	.owner = THIS_MODULE,
	.class = I2C_CLASS_HWMON,
	.algo = &blinkbus_algo,
	.name = "blinkbus",
};

static int blinkbus_probe(struct platform_device *pdev)
{
	blinkbus_led = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(blinkbus_led))
		return PTR_ERR(blinkbus_led);
	blinkbus_adapter.dev.parent = &pdev->dev;
	return i2c_add_adapter(&blinkbus_adapter);
}

static int blinkbus_remove(struct platform_device *pdev)
{
	i2c_del_adapter(&blinkbus_adapter);
	return 0;
}

static struct platform_driver blinkbus_driver = {
	.driver.name = "blinkbus",
	.probe = blinkbus_probe,
	.remove = blinkbus_remove,
};
module_platform_driver(blinkbus_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("SMBus-style adapter that blinks an LED per transfer");
