// SPDX-License-Identifier: GPL-2.0-only
/*
 * keepalive: liveness register for a userspace supervisor. KA_IOC_PING
 * records a heartbeat, read() reports the seconds since the last one.
 * KA_IOC_NOWAYOUT makes the monitor permanent, like a watchdog's nowayout:
 * the ioctl takes a module reference that is never dropped.
 *
 * __module_get() is safe here: the ioctl runs on an open file, and open
 * already pinned the module through keepalive_fops.owner.
 */
#include <linux/bitops.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/ioctl.h>
#include <linux/jiffies.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

#define KA_IOC_PING		_IO('K', 0x01)
#define KA_IOC_NOWAYOUT		_IO('K', 0x02)

#define KA_NOWAYOUT		0
#define KA_PINGED		1

static unsigned long ka_flags;
static unsigned long ka_last_ping;	/* jiffies */

static long keepalive_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	switch (cmd) {
	case KA_IOC_PING:
		WRITE_ONCE(ka_last_ping, jiffies);
		set_bit(KA_PINGED, &ka_flags);
		return 0;
	case KA_IOC_NOWAYOUT:
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		if (!test_and_set_bit(KA_NOWAYOUT, &ka_flags)) {
			__module_get(THIS_MODULE);
			pr_info("keepalive: nowayout set, module pinned\n");
		}
		return 0;
	default:
		return -ENOTTY;
	}
}

static ssize_t keepalive_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char tmp[24];
	int len;

	if (!test_bit(KA_PINGED, &ka_flags))
		len = scnprintf(tmp, sizeof(tmp), "never\n");
	else
		len = scnprintf(tmp, sizeof(tmp), "%u\n",
				jiffies_to_msecs(jiffies - READ_ONCE(ka_last_ping)) / 1000);
	return simple_read_from_buffer(ubuf, count, ppos, tmp, len);
}

static const struct file_operations keepalive_fops = {
	.owner		= THIS_MODULE,
	.read		= keepalive_read,
	.unlocked_ioctl	= keepalive_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= no_llseek,
};

static struct miscdevice keepalive_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "keepalive",
	.fops	= &keepalive_fops,
};

static int __init keepalive_init(void)
{
	return misc_register(&keepalive_misc);
}

static void __exit keepalive_exit(void)
{
	misc_deregister(&keepalive_misc);
}

module_init(keepalive_init);
module_exit(keepalive_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Userspace liveness register (ioctl pins the module, fops owner set)");
