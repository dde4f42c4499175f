// SPDX-License-Identifier: GPL-2.0-only
/*
 * xprtclass: a transport class library (scsi_transport_iscsi in small).
 * Its init registers the class, whose dev_release is library text;
 * transport modules call the exported xprt_register() to add a class
 * device for themselves.
 *
 * class_register() adds the class, not a device: dev_release runs only for
 * devices registered with the class, and those are made for the
 * transport modules, which pin the library. Nothing to report.
 */
#include <linux/device.h>
#include <linux/export.h>
#include <linux/module.h>
#include <linux/slab.h>

struct xprt_dev {
	struct device dev;
	const char *name;
};

static void xprt_dev_release(struct device *dev)
{
	kfree(container_of(dev, struct xprt_dev, dev));
}

static struct class xprt_class = {
	.name		= "xprt",
	.dev_release	= xprt_dev_release,
};

struct xprt_dev *xprt_register(const char *name)
{
	struct xprt_dev *x;
	int ret;

	x = kzalloc(sizeof(*x), GFP_KERNEL);
	if (!x)
		return ERR_PTR(-ENOMEM);
	x->name = name;
	x->dev.class = &xprt_class;
	dev_set_name(&x->dev, "%s", name);
	ret = device_register(&x->dev);
	if (ret) {
		put_device(&x->dev);
		return ERR_PTR(ret);
	}
	return x;
}
EXPORT_SYMBOL_GPL(xprt_register);

void xprt_unregister(struct xprt_dev *x)
{
	device_unregister(&x->dev);
}
EXPORT_SYMBOL_GPL(xprt_unregister);

static int __init xprtclass_init(void)
{
	return class_register(&xprt_class);
}

static void __exit xprtclass_exit(void)
{
	class_unregister(&xprt_class);
}

module_init(xprtclass_init);
module_exit(xprtclass_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Transport class library: class devices made for transports");
