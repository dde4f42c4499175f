// SPDX-License-Identifier: GPL-2.0-only
/*
 * selfref: a misc device whose file operations take and drop the module
 * themselves: open does try_module_get(THIS_MODULE), release puts it.
 *
 * The fops have no owner, but the module keeps its own count for every
 * open file (an old idiom, as net/atm's mpc does for its ops), and an
 * owner added now would make the core put a reference the release
 * already dropped. Nothing to report.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

static atomic_t selfref_opens = ATOMIC_INIT(0);

static int selfref_open(struct inode *inode, struct file *file)
{
	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	atomic_inc(&selfref_opens);
	return 0;
}

static int selfref_release(struct inode *inode, struct file *file)
{
	atomic_dec(&selfref_opens);
	module_put(THIS_MODULE);
	return 0;
}

static ssize_t selfref_read(struct file *file, char __user *buf,
			    size_t count, loff_t *ppos)
{
	char text[16];
	int n = scnprintf(text, sizeof(text), "%d\n",
			  atomic_read(&selfref_opens));

	return simple_read_from_buffer(buf, count, ppos, text, n);
}

static const struct file_operations selfref_fops = {
	.open		= selfref_open,
	.release	= selfref_release,
	.read		= selfref_read,
	.llseek		= noop_llseek,
};

static struct miscdevice selfref_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "selfref",
	.fops	= &selfref_fops,
};

module_misc_device(selfref_dev);

MODULE_DESCRIPTION("Misc device that pins its module itself");
MODULE_LICENSE("GPL");
