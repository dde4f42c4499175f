// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpstore: describes a reserved memory window to a pstore back end. Init
 * creates the back end's platform device (the core allocates it) and
 * binds a one-shot driver to a firmware node with platform_driver_probe().
 *
 * platform_driver_probe() keeps the driver registered once a device has
 * bound, and the exit function only unregisters the device: the driver,
 * in module data, stays on the platform bus after rmmod. Its sysfs
 * directory, the bus's driver list and the next match or unbind all
 * reach freed memory.
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/platform_device.h>

static struct platform_device *vpstore_backend;
static unsigned long vpstore_base;

static int __init vpstore_probe(struct platform_device *pdev)
{
	struct resource *res;

	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	if (!res)
		return -ENODEV;
	vpstore_base = res->start;
	return 0;
}

static struct platform_driver vpstore_fw_driver = {
	.driver = {
		.name	= "vpstore-fw",
	},
};

static int __init vpstore_init(void)
{
	if (platform_driver_probe(&vpstore_fw_driver, vpstore_probe))
		vpstore_base = 0x10000000;
	vpstore_backend = platform_device_register_data(NULL, "ramoops", 0,
							&vpstore_base,
							sizeof(vpstore_base));
	return PTR_ERR_OR_ZERO(vpstore_backend);
}

static void __exit vpstore_exit(void)
{
	platform_device_unregister(vpstore_backend);
}

module_init(vpstore_init);
module_exit(vpstore_exit);
MODULE_DESCRIPTION("Reserved memory window for a pstore back end");
MODULE_LICENSE("GPL");
