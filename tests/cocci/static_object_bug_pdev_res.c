// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: two static platform devices on matching machines, one with
 * MMIO resources and registered on request, one registered unchecked.
 * Both live in module data that is freed at unload.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/ioport.h>
#include <linux/dmi.h>
#include <linux/platform_device.h>

#define WALDO_BASE	0xfed40000
#define WALDO_SIZE	0x1000

static struct resource waldo_resources[] = {
	DEFINE_RES_MEM(WALDO_BASE, WALDO_SIZE),
	DEFINE_RES_IRQ(9),
};

static struct platform_device waldo_pdev = {
	.name		= "waldo-mmio",
	.id		= -1,
	.resource	= waldo_resources,
	.num_resources	= ARRAY_SIZE(waldo_resources),
};

static struct platform_device waldo_leds = {
	.name		= "waldo-leds",
	.id		= 0,
};

static const struct dmi_system_id waldo_dmi_table[] = {
	{
		.matches = {
			DMI_MATCH(DMI_SYS_VENDOR, "Waldo Inc."),
		},
	},
	{ }
};

static bool mmio = true;
module_param(mmio, bool, 0444);
MODULE_PARM_DESC(mmio, "Register the MMIO function");

static int __init waldo_init(void)
{
	if (!dmi_check_system(waldo_dmi_table))
		return -ENODEV;

	/* The LEDs are optional: nothing fails without them. */
	platform_device_register(&waldo_leds);

	if (mmio)
		return platform_device_register(&waldo_pdev);
	return 0;
}

static void __exit waldo_exit(void)
{
	if (mmio)
		platform_device_unregister(&waldo_pdev);
	platform_device_unregister(&waldo_leds);
}

module_init(waldo_init);
module_exit(waldo_exit);
MODULE_LICENSE("GPL");
