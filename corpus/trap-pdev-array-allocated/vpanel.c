// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpanel: the devices of a virtual front panel (a backlight and a
 * buzzer), handed to the driver core in one call with
 * platform_add_devices().
 *
 * Not a static-object finding: the array is the module's, but its
 * elements are pointers that platform_device_alloc() filled in; the core
 * owns each device and frees it in its own release.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/platform_device.h>

static const char * const vpanel_names[] = { "vpanel-bl", "vpanel-buzz" };

static struct platform_device *vpanel_devices[ARRAY_SIZE(vpanel_names)];

static void vpanel_put_all(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(vpanel_devices); i++)
		platform_device_put(vpanel_devices[i]);
}

static int __init vpanel_init(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(vpanel_names); i++) {
		vpanel_devices[i] = platform_device_alloc(vpanel_names[i],
							  PLATFORM_DEVID_NONE);
		if (!vpanel_devices[i]) {
			vpanel_put_all();
			return -ENOMEM;
		}
	}
	ret = platform_add_devices(vpanel_devices,
				   ARRAY_SIZE(vpanel_devices));
	if (ret)
		vpanel_put_all();
	return ret;
}

static void __exit vpanel_exit(void)
{
	int i;

	for (i = ARRAY_SIZE(vpanel_devices) - 1; i >= 0; i--)
		platform_device_unregister(vpanel_devices[i]);
}

module_init(vpanel_init);
module_exit(vpanel_exit);
MODULE_DESCRIPTION("Devices of a virtual front panel");
MODULE_LICENSE("GPL");
