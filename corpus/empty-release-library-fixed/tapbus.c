// SPDX-License-Identifier: GPL-2.0-only
/*
 * tapbus: a small bus library. Tap drivers (other modules) call the
 * exported tapbus_add_tap() to put a device on the bus and
 * tapbus_del_tap() to take it away again.
 *
 * The release frees the tap: the last reference, whenever it goes, frees
 * the memory. The release is library text, and the library cannot be
 * unloaded before the dependents that made the devices: nothing to report.
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
	kfree(container_of(dev, struct tapbus_tap, dev));
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
		return ERR_PTR(ret);
	}
	return t;
}
EXPORT_SYMBOL_GPL(tapbus_add_tap);

void tapbus_del_tap(struct tapbus_tap *t)
{
	device_unregister(&t->dev);
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
MODULE_DESCRIPTION("Tap bus library: a release that frees dependents' devices");
