// SPDX-License-Identifier: GPL-2.0-only
/*
 * relarr: two LED controller instances as platform devices of a static
 * array. The release is installed by assignment in a loop (not by an
 * initializer), and it does nothing: the devices live in module data,
 * so a reference held past rmmod (a child, another subsystem's
 * get_device()) reaches freed memory and calls a release that is gone.
 */
#include <linux/module.h>
#include <linux/platform_device.h>

#define RELARR_N	2

static struct platform_device relarr_devs[RELARR_N];

static void relarr_release(struct device *dev)
{
}

static int __init relarr_init(void)
{
	int i, ret;

	for (i = 0; i < RELARR_N; i++) {
		relarr_devs[i].name = "relarr-led";
		relarr_devs[i].id = i;
		relarr_devs[i].dev.release = relarr_release;
		ret = platform_device_register(&relarr_devs[i]);
		if (ret)
			goto err;
	}
	return 0;

err:
	while (--i >= 0)
		platform_device_unregister(&relarr_devs[i]);
	return ret;
}

static void __exit relarr_exit(void)
{
	int i;

	for (i = RELARR_N - 1; i >= 0; i--)
		platform_device_unregister(&relarr_devs[i]);
}

module_init(relarr_init);
module_exit(relarr_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Static platform devices with a release assigned in a loop");
