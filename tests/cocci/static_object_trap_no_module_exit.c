// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: board code without a module_exit().  Built in, or built as a
 * module that cannot be unloaded (no exit function: rmmod refuses), its
 * code and data are never freed, so a static platform device and a static
 * kobject are fine.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/platform_device.h>

static struct platform_device eggs_pdev = {
	.name	= "eggs",
	.id	= -1,
};

static void eggs_kobj_release(struct kobject *kobj)
{
}

static struct kobj_type eggs_ktype = {
	.release	= eggs_kobj_release,
	.sysfs_ops	= &kobj_sysfs_ops,
};

static struct kobject eggs_kobj;

static int __init eggs_init(void)
{
	int ret;

	ret = platform_device_register(&eggs_pdev);
	if (ret)
		return ret;
	return kobject_init_and_add(&eggs_kobj, &eggs_ktype, firmware_kobj,
				    "eggs");
}
device_initcall(eggs_init);
MODULE_LICENSE("GPL");
