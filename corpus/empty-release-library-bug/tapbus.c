// SPDX-License-Identifier: GPL-2.0-only
/*
 * tapbus: a small bus library. Tap drivers (other modules) call the
 * exported tapbus_add_tap() to put a device on the bus and
 * tapbus_del_tap() to take it away again.
 *
 * The release only logs, and tapbus_del_tap() frees the tap right after
 * device_unregister(): a reference still held then (an open sysfs
 * attribute, a child, another subsystem's get_device()) is a use after
 * free, and the core's "does not have a release() function" warning is
 * silenced. That the devices are made for dependent modules does not help.
 */
#include <linux/device.h>
#include <linux/export.h>
#include <linux/module.h>
#include <linux/slab.h>

struct tapbus_tap {
	struct device dev;
	unsigned int id;
};

static struct bus_type tapbus_type = {
	.name = "tapbus",
};

static void tapbus_tap_release(struct device *dev)
{
	dev_dbg(dev, "released\n");
}

struct tapbus_tap *tapbus_add_tap(struct device *parent, unsigned int id)
{
	struct tapbus_tap *t;
	int ret;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	t->id = id;
	t->dev.bus = &tapbus_type;
	t->dev.parent = parent;
	t->dev.release = tapbus_tap_release;
	dev_set_name(&t->dev, "tap%u", id);
	ret = device_register(&t->dev);
	if (ret) {
		put_device(&t->dev);
		kfree(t);
		return ERR_PTR(ret);
	}
	return t;
}
EXPORT_SYMBOL_GPL(tapbus_add_tap);

void tapbus_del_tap(struct tapbus_tap *t)
{
	device_unregister(&t->dev);
	kfree(t);
}
EXPORT_SYMBOL_GPL(tapbus_del_tap);

static int __init tapbus_init(void)
{
	return bus_register(&tapbus_type);
}

static void __exit tapbus_exit(void)
{
	bus_unregister(&tapbus_type);
}

module_init(tapbus_init);
module_exit(tapbus_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Tap bus library: an empty release for dependents' devices");
