// SPDX-License-Identifier: GPL-2.0-only
/*
 * bootstamp: /dev/bootstamp reports when this module was loaded and how
 * many times the device has been read since.
 *
 * The fops have no .owner, but there is no module_exit(): the module can
 * never be unloaded, so there is no unload race to report.
 */
#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#define BOOTSTAMP_IOC_RESET	_IO('b', 0)

static u64 bootstamp_loaded_ns;
static atomic_t bootstamp_reads = ATOMIC_INIT(0);

static int bootstamp_open(struct inode *inode, struct file *file)
{
	if (file->f_mode & FMODE_WRITE)
		return -EPERM;
	return 0;
}

static ssize_t bootstamp_read(struct file *file, char __user *buf,
			      size_t count, loff_t *ppos)
{
	char line[96];
	int len;

	if (*ppos == 0)
		atomic_inc(&bootstamp_reads);
	len = scnprintf(line, sizeof(line), "loaded_ns=%llu uptime_ms=%u reads=%d\n",
			bootstamp_loaded_ns, jiffies_to_msecs(jiffies - INITIAL_JIFFIES),
			atomic_read(&bootstamp_reads));
	return simple_read_from_buffer(buf, count, ppos, line, len);
}

static long bootstamp_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	if (cmd != BOOTSTAMP_IOC_RESET)
		return -ENOTTY;
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	atomic_set(&bootstamp_reads, 0);
	return 0;
}

static const struct file_operations bootstamp_fops = {
	.open		= bootstamp_open,
	.read		= bootstamp_read,
	.unlocked_ioctl	= bootstamp_ioctl,
	.llseek		= default_llseek,
};

static struct miscdevice bootstamp_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "bootstamp",
	.fops	= &bootstamp_fops,
	.mode	= 0444,
};

static int __init bootstamp_init(void)
{
	bootstamp_loaded_ns = ktime_get_boottime_ns();
	return misc_register(&bootstamp_misc);
}
module_init(bootstamp_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Load timestamp device; permanent module (no module_exit)");
