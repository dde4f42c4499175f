// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdqt: a read queue exposed as a misc device, whose exit waits for its
 * users only for a while.
 *
 * The exit gives the last close five seconds (wait_event_timeout()), and
 * then waits for the queue to go quiet, which the last close signals but
 * also a watchdog timer, a second after the exit arms it. Both waits end
 * without user space. (The file_operations have no owner: that is a
 * missing-owner finding of its own.)
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/wait.h>

struct rdqt_dev {
	struct miscdevice misc;
	atomic_t users;
	wait_queue_head_t idle;
	struct completion quiet;
	struct timer_list watchdog;
	u32 head;
};

static struct rdqt_dev *rdqt;

static int rdqt_open(struct inode *inode, struct file *file)
{
	atomic_inc(&rdqt->users);
	file->private_data = rdqt;
	return 0;
}

static int rdqt_release(struct inode *inode, struct file *file)
{
	struct rdqt_dev *d = file->private_data;

	if (atomic_dec_and_test(&d->users)) {
		wake_up(&d->idle);
		complete(&d->quiet);
	}
	return 0;
}

static ssize_t rdqt_read(struct file *file, char __user *buf, size_t len,
			 loff_t *ppos)
{
	struct rdqt_dev *d = file->private_data;

	return simple_read_from_buffer(buf, len, ppos, &d->head,
				       sizeof(d->head));
}

static const struct file_operations rdqt_fops = {
	.open		= rdqt_open,
	.release	= rdqt_release,
	.read		= rdqt_read,
	.llseek		= default_llseek,
};

static void rdqt_watchdog(struct timer_list *t)
{
	struct rdqt_dev *d = from_timer(d, t, watchdog);

	complete(&d->quiet);
}

static int __init rdqt_init(void)
{
	int ret;

	rdqt = kzalloc(sizeof(*rdqt), GFP_KERNEL);
	if (!rdqt)
		return -ENOMEM;
	init_waitqueue_head(&rdqt->idle);
	init_completion(&rdqt->quiet);
	timer_setup(&rdqt->watchdog, rdqt_watchdog, 0);
	rdqt->misc.minor = MISC_DYNAMIC_MINOR;
	rdqt->misc.name = "rdqt";
	rdqt->misc.fops = &rdqt_fops;
	ret = misc_register(&rdqt->misc);
	if (ret)
		kfree(rdqt);
	return ret;
}

static void __exit rdqt_exit(void)
{
	misc_deregister(&rdqt->misc);
	if (!wait_event_timeout(rdqt->idle, !atomic_read(&rdqt->users), 5 * HZ))
		pr_warn("rdqt: a file is still open\n");
	mod_timer(&rdqt->watchdog, jiffies + HZ);
	wait_for_completion(&rdqt->quiet);
	del_timer_sync(&rdqt->watchdog);
	kfree(rdqt);
}

module_init(rdqt_init);
module_exit(rdqt_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Read queue whose exit waits for its users with a time limit");
