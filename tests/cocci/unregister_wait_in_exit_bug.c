// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: the exit path unregisters the device and then waits for its
 * release in a helper.  A process holding a sysfs attribute of the device
 * open (possibly the one running rmmod) blocks the exit forever.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/slab.h>

struct foo {
	struct device dev;
	int level;
};

static struct foo *foo;
static DECLARE_COMPLETION(foo_released);

static void foo_release(struct device *dev)
{
	kfree(container_of(dev, struct foo, dev));
	complete(&foo_released);
}

static int __init foo_init(void)
{
	int err;

	foo = kzalloc(sizeof(*foo), GFP_KERNEL);
	if (!foo)
		return -ENOMEM;

	foo->dev.release = foo_release;
	dev_set_name(&foo->dev, "foo");
	err = device_register(&foo->dev);
	if (err)
		put_device(&foo->dev);
	return err;
}

static void foo_teardown(void)
{
	device_unregister(&foo->dev);
	wait_for_completion(&foo_released);
	foo = NULL;
}

static void __exit foo_exit(void)
{
	foo_teardown();
}

module_init(foo_init);
module_exit(foo_exit);
MODULE_LICENSE("GPL");
