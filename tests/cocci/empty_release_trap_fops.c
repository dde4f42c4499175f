// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: empty functions installed as .release that are not device or
 * kobject releases: a file_operations .release (called on close(), with
 * the module pinned by .owner) and a kref release passed to kref_put().
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>

static struct kref quuz_users;

static int quuz_open(struct inode *inode, struct file *file)
{
	kref_get(&quuz_users);
	return 0;
}

static void quuz_last_user(struct kref *kref)
{
}

static int quuz_release(struct inode *inode, struct file *file)
{
	kref_put(&quuz_users, quuz_last_user);
	return 0;
}

static const struct file_operations quuz_fops = {
	.owner		= THIS_MODULE,
	.open		= quuz_open,
	.release	= quuz_release,
};

static struct miscdevice quuz_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "quuz",
	.fops	= &quuz_fops,
};

static int __init quuz_init(void)
{
	kref_init(&quuz_users);
	return misc_register(&quuz_misc);
}

static void __exit quuz_exit(void)
{
	misc_deregister(&quuz_misc);
}

module_init(quuz_init);
module_exit(quuz_exit);
MODULE_LICENSE("GPL");
