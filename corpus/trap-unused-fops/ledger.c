// SPDX-License-Identifier: GPL-2.0-only
/*
 * ledger: an append-only in-memory log behind /dev/ledger.
 *
 * ledger_fops is registered and sets .owner. ledger_raw_fops, the old
 * interface, has no owner but nothing refers to it any more, so it can
 * never be reached from user space: nothing to report.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>

#define LEDGER_SIZE	8192

struct ledger {
	struct mutex lock;
	size_t used;
	char log[LEDGER_SIZE];
};

static struct ledger ledger = {
	.lock = __MUTEX_INITIALIZER(ledger.lock),
};

static ssize_t ledger_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&ledger.lock);
	ret = simple_read_from_buffer(buf, count, ppos, ledger.log, ledger.used);
	mutex_unlock(&ledger.lock);
	return ret;
}

static ssize_t ledger_append(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	ssize_t ret = count;

	mutex_lock(&ledger.lock);
	if (count > LEDGER_SIZE - ledger.used) {
		ret = -ENOSPC;
		goto out;
	}
	if (copy_from_user(ledger.log + ledger.used, buf, count)) {
		ret = -EFAULT;
		goto out;
	}
	ledger.used += count;
out:
	mutex_unlock(&ledger.lock);
	return ret;
}

static const struct file_operations ledger_fops = {
	.owner	= THIS_MODULE,
	.read	= ledger_read,
	.write	= ledger_append,
	.llseek	= default_llseek,
};

/* Old read-only /dev/ledger-raw node, no longer registered. */
static ssize_t ledger_raw_read(struct file *file, char __user *buf,
			       size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, ledger.log, LEDGER_SIZE);
}

static const struct file_operations ledger_raw_fops __maybe_unused = {
	.read	= ledger_raw_read,
	.llseek	= default_llseek,
};

static struct miscdevice ledger_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "ledger",
	.fops	= &ledger_fops,
	.mode	= 0600,
};

static int __init ledger_init(void)
{
	return misc_register(&ledger_misc);
}

static void __exit ledger_exit(void)
{
	misc_deregister(&ledger_misc);
}

module_init(ledger_init);
module_exit(ledger_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Append-only log device (unused legacy fops without owner)");
