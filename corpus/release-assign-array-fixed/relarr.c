// SPDX-License-Identifier: GPL-2.0-only
/*
 * relarr: two LED controller instances as platform devices. The driver
 * core allocates them (platform_device_register_simple()) and owns their
 * release: nothing of theirs is left in module data or text.
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#define RELARR_N	2

static struct platform_device *relarr_devs[RELARR_N];

static int __init relarr_init(void)
{
	int i;

	for (i = 0; i < RELARR_N; i++) {
		relarr_devs[i] = platform_device_register_simple("relarr-led", i,
								 NULL, 0);
		if (IS_ERR(relarr_devs[i])) {
			int ret = PTR_ERR(relarr_devs[i]);

			while (--i >= 0)
				platform_device_unregister(relarr_devs[i]);
			return ret;
		}
	}
	return 0;
}

static void __exit relarr_exit(void)
{
	int i;

	for (i = RELARR_N - 1; i >= 0; i--)
		platform_device_unregister(relarr_devs[i]);
}

module_init(relarr_init);
module_exit(relarr_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Platform devices the driver core allocates");
