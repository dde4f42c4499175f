// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: a static platform device that is never registered (a template
 * whose name and id are copied into a device the core allocates) and a
 * static kobject that is never added.  Nothing to report.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/platform_device.h>

static struct platform_device xyzzy_template = {
	.name	= "xyzzy",
	.id	= 3,
};

static struct kobject xyzzy_scratch;

static struct platform_device *xyzzy_pdev;

static int __init xyzzy_init(void)
{
	pr_debug("xyzzy: %s\n", kobject_name(&xyzzy_scratch) ?: "(none)");
	xyzzy_pdev = platform_device_register_simple(xyzzy_template.name,
						     xyzzy_template.id,
						     NULL, 0);
	return PTR_ERR_OR_ZERO(xyzzy_pdev);
}

static void __exit xyzzy_exit(void)
{
	platform_device_unregister(xyzzy_pdev);
}

module_init(xyzzy_init);
module_exit(xyzzy_exit);
MODULE_LICENSE("GPL");
