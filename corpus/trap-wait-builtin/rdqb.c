// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdqb: a read queue exposed as a misc device.
 *
 * Each open counts a user, each close drops it and wakes the exit, which
 * waits until no file is open. The option that builds it is bool: the
 * code is built in or not at all, its exit never runs, and nothing waits.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/wait.h>

struct rdqb_dev {
	struct miscdevice misc;
	atomic_t users;
	wait_queue_head_t idle;
	u32 head;
};

static struct rdqb_dev *rdqb;

static int rdqb_open(struct inode *inode, struct file *file)
{
	atomic_inc(&rdqb->users);
	file->private_data = rdqb;
	return 0;
}

static int rdqb_release(struct inode *inode, struct file *file)
{
	struct rdqb_dev *d = file->private_data;

	if (atomic_dec_and_test(&d->users))
		wake_up(&d->idle);
	return 0;
}

static ssize_t rdqb_read(struct file *file, char __user *buf, size_t len,
			loff_t *ppos)
{
	struct rdqb_dev *d = file->private_data;

	return simple_read_from_buffer(buf, len, ppos, &d->head,
				       sizeof(d->head));
}

static const struct file_operations rdqb_fops = {
	.open		= rdqb_open,
	.release	= rdqb_release,
	.read		= rdqb_read,
	.llseek		= default_llseek,
};

static int __init rdqb_init(void)
{
	int ret;

	rdqb = kzalloc(sizeof(*rdqb), GFP_KERNEL);
	if (!rdqb)
		return -ENOMEM;
	atomic_set(&rdqb->users, 0);
	init_waitqueue_head(&rdqb->idle);
	rdqb->misc.minor = MISC_DYNAMIC_MINOR;
	rdqb->misc.name = "rdqb";
	rdqb->misc.fops = &rdqb_fops;
	ret = misc_register(&rdqb->misc);
	if (ret)
		kfree(rdqb);
	return ret;
}

static void __exit rdqb_exit(void)
{
	misc_deregister(&rdqb->misc);
	wait_event(rdqb->idle, !atomic_read(&rdqb->users));
	kfree(rdqb);
}

module_init(rdqb_init);
module_exit(rdqb_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Read queue whose exit waits for the last close");
