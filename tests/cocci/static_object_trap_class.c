// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: a static struct class registered with class_register().  The
 * class is not itself a kobject (the core allocates its subsys_private),
 * and its devices come from device_create(): nothing to report.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kdev_t.h>

static struct class thud_class = {
	.name	= "thud",
	.owner	= THIS_MODULE,
};

static struct device *thud_dev;

static int __init thud_init(void)
{
	int ret;

	ret = class_register(&thud_class);
	if (ret)
		return ret;

	thud_dev = device_create(&thud_class, NULL, MKDEV(0, 0), NULL, "thud0");
	if (IS_ERR(thud_dev)) {
		class_unregister(&thud_class);
		return PTR_ERR(thud_dev);
	}
	return 0;
}

static void __exit thud_exit(void)
{
	device_destroy(&thud_class, MKDEV(0, 0));
	class_unregister(&thud_class);
}

module_init(thud_init);
module_exit(thud_exit);
MODULE_LICENSE("GPL");
