// SPDX-License-Identifier: GPL-2.0-only
/*
 * vsmbus: a virtual SMBus adapter whose one client, at 0x50, is a 256-byte
 * EEPROM in memory, for testing i2c user space (i2c-dev, i2cdump).
 *
 * The adapter is a static object registered through i2c_add_adapter(),
 * which device_add()s its embedded struct device: a static registered
 * object, but the i2c core holds it. i2c_del_adapter() waits until the
 * adapter's release has run (its release completes adap->dev_released),
 * and i2c-dev pins the module through .owner while a client has the bus
 * open. Nothing to report.
 */
#include <linux/module.h>
#include <linux/i2c.h>

#define VSMBUS_ADDR 0x50

static u8 vsmbus_mem[256];

static s32 vsmbus_xfer(struct i2c_adapter *adap, u16 addr,
		       unsigned short flags, char read_write, u8 command,
		       int size, union i2c_smbus_data *data)
{
	if (addr != VSMBUS_ADDR)
		return -ENXIO;
	switch (size) {
	case I2C_SMBUS_QUICK:
		return 0;
	case I2C_SMBUS_BYTE_DATA:
		if (read_write == I2C_SMBUS_READ)
			data->byte = vsmbus_mem[command];
		else
			vsmbus_mem[command] = data->byte;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static u32 vsmbus_func(struct i2c_adapter *adap)
{
	return I2C_FUNC_SMBUS_QUICK | I2C_FUNC_SMBUS_BYTE_DATA;
}

static const struct i2c_algorithm vsmbus_algo = {
	.smbus_xfer	= vsmbus_xfer,
	.functionality	= vsmbus_func,
};

static struct i2c_adapter vsmbus_adapter = {
	.owner	= THIS_MODULE,
	.class	= I2C_CLASS_HWMON,
	.algo	= &vsmbus_algo,
	.name	= "Virtual SMBus",
};

static int __init vsmbus_init(void)
{
	return i2c_add_adapter(&vsmbus_adapter);
}

static void __exit vsmbus_exit(void)
{
	i2c_del_adapter(&vsmbus_adapter);
}

module_init(vsmbus_init);
module_exit(vsmbus_exit);
MODULE_DESCRIPTION("Virtual SMBus adapter with an in-memory EEPROM");
MODULE_LICENSE("GPL");
