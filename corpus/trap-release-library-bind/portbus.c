// SPDX-License-Identifier: GPL-2.0-only
/*
 * portbus: a bus library for serial-like ports (usbserial in small). Its
 * own platform driver binds to port hosts and puts a port device on the
 * bus for each; port drivers (other modules) register with the exported
 * portbus_driver_register().
 *
 * The port's release is library text, and the port is made at a bind,
 * not by an exported function. But the library exports functions: its
 * users depend on it, and every port exists for a port driver that pins
 * the library. A library owns only what its init registers. Nothing to
 * report.
 */
#include <linux/device.h>
#include <linux/export.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

struct portbus_port {
	struct device dev;
};

static struct bus_type portbus_type = {
	.name = "portbus",
};

int portbus_driver_register(struct device_driver *drv)
{
	drv->bus = &portbus_type;
	return driver_register(drv);
}
EXPORT_SYMBOL_GPL(portbus_driver_register);

void portbus_driver_unregister(struct device_driver *drv)
{
	driver_unregister(drv);
}
EXPORT_SYMBOL_GPL(portbus_driver_unregister);

static void portbus_port_release(struct device *dev)
{
	kfree(container_of(dev, struct portbus_port, dev));
}

static int portbus_host_probe(struct platform_device *pdev)
{
	struct portbus_port *port;
	int ret;

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	port->dev.bus = &portbus_type;
	port->dev.parent = &pdev->dev;
	port->dev.release = portbus_port_release;
	dev_set_name(&port->dev, "port-%s", dev_name(&pdev->dev));
	ret = device_register(&port->dev);
	if (ret) {
		put_device(&port->dev);
		return ret;
	}
	platform_set_drvdata(pdev, port);
	return 0;
}

static int portbus_host_remove(struct platform_device *pdev)
{
	struct portbus_port *port = platform_get_drvdata(pdev);

	device_unregister(&port->dev);
	return 0;
}

static struct platform_driver portbus_host_driver = {
	.probe	= portbus_host_probe,
	.remove	= portbus_host_remove,
	.driver	= {
		.name = "portbus-host",
	},
};

static int __init portbus_init(void)
{
	int ret;

	ret = bus_register(&portbus_type);
	if (ret)
		return ret;
	ret = platform_driver_register(&portbus_host_driver);
	if (ret)
		bus_unregister(&portbus_type);
	return ret;
}

static void __exit portbus_exit(void)
{
	platform_driver_unregister(&portbus_host_driver);
	bus_unregister(&portbus_type);
}

module_init(portbus_init);
module_exit(portbus_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Port bus library: ports made at a bind, for port drivers");
