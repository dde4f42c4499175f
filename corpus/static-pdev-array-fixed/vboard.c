// SPDX-License-Identifier: GPL-2.0-only
/*
 * vboard: a board-support module that declares the devices of a virtual
 * board (a status LED controller and a key matrix).
 *
 * The driver core allocates both devices (platform_device_register_simple())
 * and frees each in its own release, whenever the last reference goes:
 * the module keeps only pointers to them.
 */
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/platform_device.h>

static const char * const vboard_names[] = { "vboard-led", "vboard-keys" };

static struct platform_device *vboard_devices[ARRAY_SIZE(vboard_names)];

static void vboard_remove_devices(int n)
{
	while (n-- > 0)
		platform_device_unregister(vboard_devices[n]);
}

static int __init vboard_init(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(vboard_names); i++) {
		vboard_devices[i] =
			platform_device_register_simple(vboard_names[i],
							PLATFORM_DEVID_NONE,
							NULL, 0);
		if (IS_ERR(vboard_devices[i])) {
			int ret = PTR_ERR(vboard_devices[i]);

			vboard_remove_devices(i);
			return ret;
		}
	}
	pr_info("vboard: %s and %s registered\n", vboard_names[0],
		vboard_names[1]);
	return 0;
}

static void __exit vboard_exit(void)
{
	vboard_remove_devices(ARRAY_SIZE(vboard_devices));
}

module_init(vboard_init);
module_exit(vboard_exit);
MODULE_DESCRIPTION("Devices of a virtual board");
MODULE_LICENSE("GPL");
