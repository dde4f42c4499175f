// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: a static struct device, a static struct that embeds a
 * registered struct device, and a static kset.  There is no mechanical
 * rewrite for these: they are only reported.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/device.h>
#include <linux/kobject.h>

struct plugh_priv {
	struct device dev;
	int mode;
};

static void plugh_dev_release(struct device *dev)
{
	dev_dbg(dev, "release\n");
}

static struct device plugh_root = {
	.init_name	= "plugh",
	.release	= plugh_dev_release,
};

static struct plugh_priv plugh;

static struct kset plugh_kset;

static int __init plugh_init(void)
{
	int ret;

	ret = device_register(&plugh_root);
	if (ret) {
		put_device(&plugh_root);
		return ret;
	}

	plugh.mode = 1;
	plugh.dev.parent = &plugh_root;
	plugh.dev.release = plugh_dev_release;
	dev_set_name(&plugh.dev, "plugh%d", plugh.mode);
	ret = device_register(&plugh.dev);
	if (ret) {
		put_device(&plugh.dev);
		goto err_root;
	}

	kobject_set_name(&plugh_kset.kobj, "plugh");
	plugh_kset.kobj.parent = kernel_kobj;
	ret = kset_register(&plugh_kset);
	if (ret)
		goto err_dev;
	return 0;

err_dev:
	device_unregister(&plugh.dev);
err_root:
	device_unregister(&plugh_root);
	return ret;
}

static void __exit plugh_exit(void)
{
	kset_unregister(&plugh_kset);
	device_unregister(&plugh.dev);
	device_unregister(&plugh_root);
}

module_init(plugh_init);
module_exit(plugh_exit);
MODULE_LICENSE("GPL");
