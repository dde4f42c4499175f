// SPDX-License-Identifier: GPL-2.0-only
/*
 * portpoll: a controller with ports kept in an IDR; each port polls its
 * link from a self-rearming delayed work. .remove stops every port with
 * idr_for_each(), handing it the per-port park function, which cancels
 * the port's work: a callback that the call runs before it returns.
 */
#include <linux/idr.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

struct portpoll_port {
	struct delayed_work poll;
	unsigned int id;
	bool link_up;
};

struct portpoll {
	struct idr ports;
};

static void portpoll_poll(struct work_struct *work)
{
	struct portpoll_port *port = container_of(to_delayed_work(work),
						  struct portpoll_port, poll);

	port->link_up = !port->link_up;
	schedule_delayed_work(&port->poll, HZ);
}

static int portpoll_port_park(int id, void *p, void *data)
{
	struct portpoll_port *port = p;

	cancel_delayed_work_sync(&port->poll);
	kfree(port);
	return 0;
}

static int portpoll_probe(struct platform_device *pdev)
{
	struct portpoll *pp;
	int i, id;

	pp = devm_kzalloc(&pdev->dev, sizeof(*pp), GFP_KERNEL);
	if (!pp)
		return -ENOMEM;
	idr_init(&pp->ports);
	platform_set_drvdata(pdev, pp);
	for (i = 0; i < 4; i++) {
		struct portpoll_port *port = kzalloc(sizeof(*port), GFP_KERNEL);

		if (!port)
			return -ENOMEM;
		id = idr_alloc(&pp->ports, port, 0, 0, GFP_KERNEL);
		if (id < 0) {
			kfree(port);
			return id;
		}
		port->id = id;
		INIT_DELAYED_WORK(&port->poll, portpoll_poll);
		schedule_delayed_work(&port->poll, HZ);
	}
	return 0;
}

static int portpoll_remove(struct platform_device *pdev)
{
	struct portpoll *pp = platform_get_drvdata(pdev);

	idr_for_each(&pp->ports, portpoll_port_park, NULL);
	idr_destroy(&pp->ports);
	return 0;
}

static struct platform_driver portpoll_driver = {
	.probe = portpoll_probe,
	.remove = portpoll_remove,
	.driver = {
		.name = "portpoll",
	},
};
module_platform_driver(portpoll_driver);

MODULE_DESCRIPTION("Port controller stopping its ports through idr_for_each()");
MODULE_LICENSE("GPL");
