// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: *_unregister_wait() look-alikes called from a helper of the
 * exit function (renamed by the patch) and from the init error path
 * (not an exit path: left alone).
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/slab.h>

#define GRAULT_PORTS	2

struct grault_port {
	struct device dev;
	struct completion released;
};

static struct grault_port *grault_ports[GRAULT_PORTS];

static void grault_port_release(struct device *dev)
{
	struct grault_port *port = container_of(dev, struct grault_port, dev);

	complete(&port->released);
}

/* Vendor-tree copies of the API proposed in 2004. */
static void grault_port_unregister(struct grault_port *port)
{
	device_unregister(&port->dev);
}

static void grault_port_sync_release(struct grault_port *port)
{
	wait_for_completion(&port->released);
	kfree(port);
}

static void grault_port_unregister_wait(struct grault_port *port)
{
	grault_port_unregister(port);
	grault_port_sync_release(port);
}

static int grault_add_port(int i)
{
	struct grault_port *port;
	int err;

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	init_completion(&port->released);
	port->dev.release = grault_port_release;
	dev_set_name(&port->dev, "grault%d", i);
	err = device_register(&port->dev);
	if (err) {
		put_device(&port->dev);
		grault_port_sync_release(port);
		return err;
	}
	grault_ports[i] = port;
	return 0;
}

static void grault_remove_ports(void)
{
	int i;

	for (i = 0; i < GRAULT_PORTS; i++)
		if (grault_ports[i])
			grault_port_unregister_wait(grault_ports[i]);
}

static int __init grault_init(void)
{
	int i, err;

	for (i = 0; i < GRAULT_PORTS; i++) {
		err = grault_add_port(i);
		if (err) {
			while (--i >= 0)
				grault_port_unregister_wait(grault_ports[i]);
			return err;
		}
	}
	return 0;
}

static void __exit grault_exit(void)
{
	grault_remove_ports();
}

module_init(grault_init);
module_exit(grault_exit);
MODULE_LICENSE("GPL");
