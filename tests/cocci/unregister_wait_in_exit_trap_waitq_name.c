// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: names that merely contain "unregister_wait": a wait queue
 * (qux_unregister_waitq), a flag and a helper whose name does not end in
 * _unregister_wait.  The exit function waits on the queue for its own
 * users, not for a release.  Nothing to report.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/atomic.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/wait.h>

static DECLARE_WAIT_QUEUE_HEAD(qux_unregister_waitq);
static atomic_t qux_users = ATOMIC_INIT(0);
static bool qux_unregister_waiting;

static int qux_open(struct inode *inode, struct file *file)
{
	atomic_inc(&qux_users);
	return 0;
}

static int qux_release(struct inode *inode, struct file *file)
{
	if (atomic_dec_and_test(&qux_users))
		wake_up(&qux_unregister_waitq);
	return 0;
}

static const struct file_operations qux_fops = {
	.owner		= THIS_MODULE,
	.open		= qux_open,
	.release	= qux_release,
};

static struct miscdevice qux_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "qux",
	.fops	= &qux_fops,
};

static void qux_unregister_waitq_drain(void)
{
	qux_unregister_waiting = true;
	wait_event(qux_unregister_waitq, atomic_read(&qux_users) == 0);
}

static int __init qux_init(void)
{
	return misc_register(&qux_misc);
}

static void __exit qux_exit(void)
{
	misc_deregister(&qux_misc);
	qux_unregister_waitq_drain();
}

module_init(qux_init);
module_exit(qux_exit);
MODULE_LICENSE("GPL");
