// SPDX-License-Identifier: GPL-2.0-only
/*
 * vfan: a fan control node (/dev/vfan) that sets the duty cycle, and a
 * reboot notifier that spins the fan up to full before the machine goes
 * down.
 *
 * The exit function removes the device node but forgets the notifier:
 * the reboot chain keeps pointing at vfan_reboot_nb, module data that is
 * freed at rmmod, and the next reboot calls through it into freed module
 * text.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/reboot.h>
#include <linux/uaccess.h>

static unsigned int vfan_duty = 40;

static ssize_t vfan_write(struct file *file, const char __user *buf,
			  size_t len, loff_t *ppos)
{
	unsigned int duty;
	int ret;

	ret = kstrtouint_from_user(buf, len, 10, &duty);
	if (ret)
		return ret;
	if (duty > 100)
		return -EINVAL;
	WRITE_ONCE(vfan_duty, duty);
	return len;
}

static const struct file_operations vfan_fops = {
	.owner	= THIS_MODULE,
	.write	= vfan_write,
	.llseek	= noop_llseek,
};

static struct miscdevice vfan_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "vfan",
	.fops	= &vfan_fops,
};

static int vfan_reboot(struct notifier_block *nb, unsigned long action,
		       void *data)
{
	WRITE_ONCE(vfan_duty, 100);
	return NOTIFY_DONE;
}

static struct notifier_block vfan_reboot_nb = {
	.notifier_call	= vfan_reboot,
};

static int __init vfan_init(void)
{
	int ret;

	ret = register_reboot_notifier(&vfan_reboot_nb);
	if (ret)
		return ret;
	ret = misc_register(&vfan_misc);
	if (ret)
		unregister_reboot_notifier(&vfan_reboot_nb);
	return ret;
}

static void __exit vfan_exit(void)
{
	misc_deregister(&vfan_misc);
}

module_init(vfan_init);
module_exit(vfan_exit);
MODULE_DESCRIPTION("Virtual fan control");
MODULE_LICENSE("GPL");
