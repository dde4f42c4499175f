// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: the docs example.  A kzalloc()ed device whose release only
 * logs; the module frees the object itself after device_unregister(),
 * while a sysfs reader may still hold the device.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/device.h>
#include <linux/slab.h>

struct foo_dev {
	struct device dev;
	int channel;
};

static struct foo_dev *foo;

static void foo_dev_release(struct device *dev)
{
	pr_debug("foo: release\n");
}

static int __init foo_init(void)
{
	int err;

	foo = kzalloc(sizeof(*foo), GFP_KERNEL);
	if (!foo)
		return -ENOMEM;

	foo->channel = 1;
	foo->dev.release = foo_dev_release;
	dev_set_name(&foo->dev, "foo%d", foo->channel);
	err = device_register(&foo->dev);
	if (err) {
		put_device(&foo->dev);
		kfree(foo);
		return err;
	}
	return 0;
}

static void __exit foo_exit(void)
{
	device_unregister(&foo->dev);
	kfree(foo);
}

module_init(foo_init);
module_exit(foo_exit);
MODULE_LICENSE("GPL");
