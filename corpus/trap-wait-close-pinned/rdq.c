// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdq: a read queue exposed as a misc device.
 *
 * Each open counts a user, each close drops it and wakes the exit, which
 * waits until no file is open. The file_operations pin the module
 * (.owner = THIS_MODULE): rmmod refuses while a file is open, so the wait
 * never waits for user space.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/wait.h>

struct rdq_dev {
	struct miscdevice misc;
	atomic_t users;
	wait_queue_head_t idle;
	u32 head;
};

static struct rdq_dev *rdq;

static int rdq_open(struct inode *inode, struct file *file)
{
	atomic_inc(&rdq->users);
	file->private_data = rdq;
	return 0;
}

static int rdq_release(struct inode *inode, struct file *file)
{
	struct rdq_dev *d = file->private_data;

	if (atomic_dec_and_test(&d->users))
		wake_up(&d->idle);
	return 0;
}

static ssize_t rdq_read(struct file *file, char __user *buf, size_t len,
			loff_t *ppos)
{
	struct rdq_dev *d = file->private_data;

	return simple_read_from_buffer(buf, len, ppos, &d->head,
				       sizeof(d->head));
}

static const struct file_operations rdq_fops = {
	.owner		= THIS_MODULE,
	.open		= rdq_open,
	.release	= rdq_release,
	.read		= rdq_read,
	.llseek		= default_llseek,
};

static int __init rdq_init(void)
{
	int ret;

	rdq = kzalloc(sizeof(*rdq), GFP_KERNEL);
	if (!rdq)
		return -ENOMEM;
	atomic_set(&rdq->users, 0);
	init_waitqueue_head(&rdq->idle);
	rdq->misc.minor = MISC_DYNAMIC_MINOR;
	rdq->misc.name = "rdq";
	rdq->misc.fops = &rdq_fops;
	ret = misc_register(&rdq->misc);
	if (ret)
		kfree(rdq);
	return ret;
}

static void __exit rdq_exit(void)
{
	misc_deregister(&rdq->misc);
	wait_event(rdq->idle, !atomic_read(&rdq->users));
	kfree(rdq);
}

module_init(rdq_init);
module_exit(rdq_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Read queue pinned by its open files, exit still waits");
