// SPDX-License-Identifier: GPL-2.0-only
/*
 * clkstat: jiffies and boot-time statistics through /dev/clkstat.
 *
 * Its option is bool, so this is never a module: file_operations without
 * .owner are fine here (THIS_MODULE would be NULL anyway), and the exit
 * function is discarded by the build. A scan must skip the file, with
 * the reason.
 */
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/timekeeping.h>

static ssize_t clkstat_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[64];
	int len;

	len = scnprintf(buf, sizeof(buf), "%lu %llu\n", jiffies,
			ktime_get_boottime_ns());
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations clkstat_fops = {
	.read	= clkstat_read,
	.llseek	= default_llseek,
};

static struct miscdevice clkstat_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "clkstat",
	.fops	= &clkstat_fops,
	.mode	= 0444,
};

static int __init clkstat_init(void)
{
	return misc_register(&clkstat_misc);
}

static void __exit clkstat_exit(void)
{
	misc_deregister(&clkstat_misc);
}

module_init(clkstat_init);
module_exit(clkstat_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Clock statistics device behind a bool option (never a module)");
