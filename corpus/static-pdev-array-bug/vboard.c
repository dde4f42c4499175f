// SPDX-License-Identifier: GPL-2.0-only
/*
 * vboard: a board-support module that declares the devices of a virtual
 * board (a status LED controller and a key matrix) and hands them to the
 * driver core in one call, platform_add_devices(), as board files do.
 *
 * Both devices are objects of the module's data. platform_add_devices()
 * registers each element of the array it is given; a reference that
 * outlives rmmod (a child device, a sysfs file held open, a late
 * put_device() of another subsystem) then touches freed module memory.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/platform_device.h>

static const char * const vboard_names[] = { "vboard-led", "vboard-keys" };

static struct platform_device vboard_led = {
	.name	= "vboard-led",
	.id	= PLATFORM_DEVID_NONE,
};

static struct platform_device vboard_keys = {
	.name	= "vboard-keys",
	.id	= PLATFORM_DEVID_NONE,
};

static struct platform_device *vboard_devices[] = {
	&vboard_led,
	&vboard_keys,
};

static int __init vboard_init(void)
{
	int ret;

	ret = platform_add_devices(vboard_devices,
				   ARRAY_SIZE(vboard_devices));
	if (ret)
		return ret;
	pr_info("vboard: %s and %s registered\n", vboard_names[0],
		vboard_names[1]);
	return 0;
}

static void __exit vboard_exit(void)
{
	int i;

	for (i = ARRAY_SIZE(vboard_devices) - 1; i >= 0; i--)
		platform_device_unregister(vboard_devices[i]);
}

module_init(vboard_init);
module_exit(vboard_exit);
MODULE_DESCRIPTION("Devices of a virtual board");
MODULE_LICENSE("GPL");
