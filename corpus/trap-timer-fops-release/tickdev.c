// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickdev: a character device that counts timer ticks while it is open.
 *
 * open() arms the timer, release() stops it with del_timer_sync(). The
 * fops carry .owner = THIS_MODULE, so the module cannot be unloaded while
 * the file is open, and with the file closed the timer is stopped.
 */
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/timer.h>
#include <linux/uaccess.h>

struct tickdev {
	struct timer_list timer;
	atomic_t users;
	unsigned long ticks;
};

static struct tickdev tick;

static void tickdev_tick(struct timer_list *t)
{
	struct tickdev *td = from_timer(td, t, timer);

	WRITE_ONCE(td->ticks, td->ticks + 1);
	mod_timer(&td->timer, jiffies + HZ / 10);
}

static int tickdev_open(struct inode *inode, struct file *file)
{
	if (atomic_inc_return(&tick.users) == 1)
		mod_timer(&tick.timer, jiffies + HZ / 10);
	return 0;
}

static int tickdev_release(struct inode *inode, struct file *file)
{
	if (atomic_dec_and_test(&tick.users))
		del_timer_sync(&tick.timer);
	return 0;
}

static ssize_t tickdev_read(struct file *file, char __user *ubuf, size_t len,
			    loff_t *ppos)
{
	unsigned long t = READ_ONCE(tick.ticks);

	if (len < sizeof(t))
		return -EINVAL;
	if (copy_to_user(ubuf, &t, sizeof(t)))
		return -EFAULT;
	return sizeof(t);
}

static const struct file_operations tickdev_fops = {
	.owner = THIS_MODULE,
	.open = tickdev_open,
	.release = tickdev_release,
	.read = tickdev_read,
	.llseek = noop_llseek,
};

static struct miscdevice tickdev_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "tickdev",
	.fops = &tickdev_fops,
};

static int __init tickdev_init(void)
{
	timer_setup(&tick.timer, tickdev_tick, 0);
	return misc_register(&tickdev_misc);
}

static void __exit tickdev_exit(void)
{
	misc_deregister(&tickdev_misc);
}

module_init(tickdev_init);
module_exit(tickdev_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Counts timer ticks while the device is open");
