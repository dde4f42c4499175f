// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpstore: describes a reserved memory window to a pstore back end. Init
 * creates the back end's platform device (the core allocates it) and
 * binds a one-shot driver to a firmware node with platform_driver_probe().
 *
 * platform_driver_probe() keeps the driver registered once a device has
 * bound (and unregisters it itself when none did), so the exit function
 * unregisters the driver when it was kept, before the device.
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/platform_device.h>

static struct platform_device *vpstore_backend;
static unsigned long vpstore_base;
static bool vpstore_fw_bound;

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
	else
		vpstore_fw_bound = true;
	vpstore_backend = platform_device_register_data(NULL, "ramoops", 0,
							&vpstore_base,
							sizeof(vpstore_base));
	return PTR_ERR_OR_ZERO(vpstore_backend);
}

static void __exit vpstore_exit(void)
{
	if (vpstore_fw_bound)
		platform_driver_unregister(&vpstore_fw_driver);
	platform_device_unregister(vpstore_backend);
}

module_init(vpstore_init);
module_exit(vpstore_exit);
MODULE_DESCRIPTION("Reserved memory window for a pstore back end");
MODULE_LICENSE("GPL");
