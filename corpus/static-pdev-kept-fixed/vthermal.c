// SPDX-License-Identifier: GPL-2.0-only
/*
 * vthermal: a virtual temperature sensor. The module registers the
 * platform device that its driver binds to, and the driver exposes the
 * reading in sysfs.
 *
 * The driver core allocates the device (platform_device_register_simple())
 * and frees it in its own release; the exit function unregisters it, so
 * nothing of the module stays behind.
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/platform_device.h>

static struct platform_device *vthermal_dev;

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

	vthermal_dev = platform_device_register_simple("vthermal",
						       PLATFORM_DEVID_NONE,
						       NULL, 0);
	if (IS_ERR(vthermal_dev))
		return PTR_ERR(vthermal_dev);
	ret = platform_driver_register(&vthermal_driver);
	if (ret)
		platform_device_unregister(vthermal_dev);
	return ret;
}

static void __exit vthermal_exit(void)
{
	platform_driver_unregister(&vthermal_driver);
	platform_device_unregister(vthermal_dev);
}

module_init(vthermal_init);
module_exit(vthermal_exit);
MODULE_DESCRIPTION("Virtual temperature sensor");
MODULE_LICENSE("GPL");
