// SPDX-License-Identifier: GPL-2.0-only
/*
 * vkeys: a virtual keypad that user space drives through a module
 * parameter, for testing input handling without hardware.
 *
 * The net_device pattern: input_allocate_device() makes the object and
 * the input core's release frees it, whoever drops the last reference.
 */
#include <linux/module.h>
#include <linux/input.h>

static struct input_dev *vkeys_dev;

static int vkeys_press_set(const char *val, const struct kernel_param *kp)
{
	unsigned int code;
	int ret = kstrtouint(val, 0, &code);

	if (ret)
		return ret;
	if (code > KEY_MAX || !vkeys_dev)
		return -EINVAL;
	input_report_key(vkeys_dev, code, 1);
	input_report_key(vkeys_dev, code, 0);
	input_sync(vkeys_dev);
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
	int ret;

	vkeys_dev = input_allocate_device();
	if (!vkeys_dev)
		return -ENOMEM;
	vkeys_dev->name = "Virtual keypad";
	vkeys_dev->phys = "vkeys/input0";
	vkeys_dev->id.bustype = BUS_VIRTUAL;
	vkeys_dev->id.vendor = 0x0001;
	vkeys_dev->id.product = 0x0001;
	vkeys_dev->id.version = 0x0100;
	__set_bit(EV_KEY, vkeys_dev->evbit);
	for (code = KEY_ESC; code <= KEY_SLASH; code++)
		__set_bit(code, vkeys_dev->keybit);
	ret = input_register_device(vkeys_dev);
	if (ret)
		input_free_device(vkeys_dev);
	return ret;
}

static void __exit vkeys_exit(void)
{
	input_unregister_device(vkeys_dev);
}

module_init(vkeys_init);
module_exit(vkeys_exit);
MODULE_DESCRIPTION("Virtual keypad driven by a module parameter");
MODULE_LICENSE("GPL");
