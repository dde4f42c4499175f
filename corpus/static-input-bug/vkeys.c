// SPDX-License-Identifier: GPL-2.0-only
/*
 * vkeys: a virtual keypad that user space drives through a module
 * parameter, for testing input handling without hardware.
 *
 * The input device is a static object of the module, registered through
 * input_register_device(), an exported helper of the input core that
 * device_add()s its embedded struct device. Anyone holding that device
 * past unload (an evdev client's reference, a get_device() elsewhere)
 * touches module data that is gone. The input core has an allocator whose
 * release frees the object: input_allocate_device().
 */
#include <linux/module.h>
#include <linux/input.h>

static struct input_dev vkeys_dev = {
	.name = "Virtual keypad",
	.phys = "vkeys/input0",
	.id = {
		.bustype = BUS_VIRTUAL,
		.vendor = 0x0001,
		.product = 0x0001,
		.version = 0x0100,
	},
};

static int vkeys_press_set(const char *val, const struct kernel_param *kp)
{
	unsigned int code;
	int ret = kstrtouint(val, 0, &code);

	if (ret)
		return ret;
	if (code > KEY_MAX)
		return -EINVAL;
	input_report_key(&vkeys_dev, code, 1);
	input_report_key(&vkeys_dev, code, 0);
	input_sync(&vkeys_dev);
	return 0;
}

static const struct kernel_param_ops vkeys_press_ops = {
	.set = vkeys_press_set,
};
module_param_cb(press, &vkeys_press_ops, NULL, 0200);
MODULE_PARM_DESC(press, "key code to press and release");

static int __init vkeys_init(void)
{
	unsigned int code;

	__set_bit(EV_KEY, vkeys_dev.evbit);
	for (code = KEY_ESC; code <= KEY_SLASH; code++)
		__set_bit(code, vkeys_dev.keybit);
	return input_register_device(&vkeys_dev);
}

static void __exit vkeys_exit(void)
{
	input_unregister_device(&vkeys_dev);
}

module_init(vkeys_init);
module_exit(vkeys_exit);
MODULE_DESCRIPTION("Virtual keypad driven by a module parameter");
MODULE_LICENSE("GPL");
