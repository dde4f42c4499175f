// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: an empty release in code that is never unloaded (no
 * module_exit(): built in, or a module rmmod refuses to remove).  Still
 * poor style, but not a module-unload bug.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/device.h>
#include <linux/slab.h>

struct corz_dev {
	struct device dev;
};

static struct corz_dev *corz;

static void corz_release(struct device *dev)
{
}

static int __init corz_init(void)
{
	int err;

	corz = kzalloc(sizeof(*corz), GFP_KERNEL);
	if (!corz)
		return -ENOMEM;
	corz->dev.release = corz_release;
	dev_set_name(&corz->dev, "corz");
	err = device_register(&corz->dev);
	if (err)
		put_device(&corz->dev);
	return err;
}
device_initcall(corz_init);
MODULE_LICENSE("GPL");
