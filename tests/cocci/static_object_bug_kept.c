// SPDX-License-Identifier: GPL-2.0-only
/*
 * A static platform_device registered at init that nothing unregisters:
 * reported as outliving the module; patch mode leaves it to a person.
 *
 * vthermal: a virtual temperature sensor. The module registers the
 * platform device that its driver binds to, and the driver exposes the
 * reading in sysfs.
 *
 * The device is an object of the module's data, registered at init, and
 * the exit function only unregisters the driver: the device stays in the
 * driver core after rmmod, its name and sysfs directory still there, in
 * memory that is gone. The next insmod registers it again.
 */
#include <linux/device.h>
#include <linux/module.h>
#include <linux/platform_device.h>

static struct platform_device vthermal_dev = {
	.name	= "vthermal",
	.id	= PLATFORM_DEVID_NONE,
};

static ssize_t temp_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%d\n", 42000);
}
static DEVICE_ATTR_RO(temp);

static struct attribute *vthermal_attrs[] = {
	&dev_attr_temp.attr,
	NULL
};
ATTRIBUTE_GROUPS(vthermal);

static int vthermal_probe(struct platform_device *pdev)
{
	dev_info(&pdev->dev, "virtual sensor ready\n");
	return 0;
}

static struct platform_driver vthermal_driver = {
	.probe	= vthermal_probe,
	.driver	= {
		.name		= "vthermal",
		.dev_groups	= vthermal_groups,
	},
};

static int __init vthermal_init(void)
{
	int ret;

	ret = platform_device_register(&vthermal_dev);
	if (ret)
		return ret;
	return platform_driver_register(&vthermal_driver);
}

static void __exit vthermal_exit(void)
{
	platform_driver_unregister(&vthermal_driver);
}

module_init(vthermal_init);
module_exit(vthermal_exit);
MODULE_DESCRIPTION("Virtual temperature sensor");
MODULE_LICENSE("GPL");
