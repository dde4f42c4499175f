// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsensor: a platform driver for a fake sensor, with a sysfs interface.
 *
 * The driver is registered with a plain driver_register() on the embedded
 * device_driver, which (unlike platform_driver_register()) never sets
 * .driver.owner, and the initializer does not set it either. But no core
 * code pins a driver's owner on this way in: unregistering the driver at
 * exit unbinds its devices and removes their attributes first. Nothing to
 * report (only bus- and subsystem-specific code reads a driver's owner).
 */
#include <linux/device.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

struct fsensor {
	spinlock_t lock;
	int threshold;
};

static ssize_t threshold_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	struct fsensor *fs = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", READ_ONCE(fs->threshold));
}

static ssize_t threshold_store(struct device *dev, struct device_attribute *attr,
			       const char *buf, size_t count)
{
	struct fsensor *fs = dev_get_drvdata(dev);
	int val, ret;

	ret = kstrtoint(buf, 0, &val);
	if (ret)
		return ret;
	spin_lock(&fs->lock);
	fs->threshold = val;
	spin_unlock(&fs->lock);
	return count;
}
static DEVICE_ATTR_RW(threshold);

static struct attribute *fsensor_attrs[] = {
	&dev_attr_threshold.attr,
	NULL
};
ATTRIBUTE_GROUPS(fsensor);

static int fsensor_probe(struct platform_device *pdev)
{
	struct fsensor *fs;

	fs = devm_kzalloc(&pdev->dev, sizeof(*fs), GFP_KERNEL);
	if (!fs)
		return -ENOMEM;
	spin_lock_init(&fs->lock);
	fs->threshold = 100;
	platform_set_drvdata(pdev, fs);
	dev_info(&pdev->dev, "fake sensor bound\n");
	return 0;
}

static int fsensor_remove(struct platform_device *pdev)
{
	dev_info(&pdev->dev, "fake sensor unbound\n");
	return 0;
}

static struct platform_driver fsensor_driver = {
	.probe		= fsensor_probe,
	.remove		= fsensor_remove,
	.driver		= {
		.name		= "fsensor",
		.bus		= &platform_bus_type,
		.dev_groups	= fsensor_groups,
	},
};

static struct platform_device *fsensor_pdev;

static int __init fsensor_init(void)
{
	int ret;

	ret = driver_register(&fsensor_driver.driver);
	if (ret)
		return ret;

	fsensor_pdev = platform_device_register_simple("fsensor", PLATFORM_DEVID_NONE,
						       NULL, 0);
	if (IS_ERR(fsensor_pdev)) {
		driver_unregister(&fsensor_driver.driver);
		return PTR_ERR(fsensor_pdev);
	}
	return 0;
}

static void __exit fsensor_exit(void)
{
	platform_device_unregister(fsensor_pdev);
	driver_unregister(&fsensor_driver.driver);
}

module_init(fsensor_init);
module_exit(fsensor_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Fake sensor platform driver (driver_register without owner)");
