// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: per-port devices allocated in a helper with sizeof(struct T),
 * a release that only declares the container and logs, and the module's
 * kfree() after put_device() in the teardown helper.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/err.h>

#define BAR_PORTS	2

struct bar_port {
	int index;
	struct device dev;
};

static struct bar_port *bar_ports[BAR_PORTS];

static void bar_port_release(struct device *dev)
{
	struct bar_port *port = container_of(dev, struct bar_port, dev);

	dev_dbg(dev, "port %d released\n", port->index);
}

static struct bar_port *bar_port_create(int index)
{
	struct bar_port *port;
	int err;

	port = kzalloc(sizeof(struct bar_port), GFP_KERNEL);
	if (!port)
		return ERR_PTR(-ENOMEM);

	port->index = index;
	device_initialize(&port->dev);
	port->dev.release = bar_port_release;
	err = dev_set_name(&port->dev, "bar-port%d", index);
	if (!err)
		err = device_add(&port->dev);
	if (err) {
		put_device(&port->dev);
		kfree(port);
		return ERR_PTR(err);
	}
	return port;
}

static void bar_port_destroy(struct bar_port *port)
{
	device_del(&port->dev);
	put_device(&port->dev);
	kfree(port);
}

static int __init bar_init(void)
{
	int i;

	for (i = 0; i < BAR_PORTS; i++) {
		bar_ports[i] = bar_port_create(i);
		if (IS_ERR(bar_ports[i])) {
			int err = PTR_ERR(bar_ports[i]);

			while (--i >= 0)
				bar_port_destroy(bar_ports[i]);
			return err;
		}
	}
	return 0;
}

static void __exit bar_exit(void)
{
	int i;

	for (i = 0; i < BAR_PORTS; i++)
		bar_port_destroy(bar_ports[i]);
}

module_init(bar_init);
module_exit(bar_exit);
MODULE_LICENSE("GPL");
