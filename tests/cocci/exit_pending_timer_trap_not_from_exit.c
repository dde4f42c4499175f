// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: del_timer() in code the exit function never reaches: the init
 * error path, and a character device write handler that restarts the
 * timer.  The exit function itself uses del_timer_sync().  Nothing to
 * report.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/miscdevice.h>
#include <linux/timer.h>

static struct timer_list qux_timer;
static unsigned int qux_period_ms = 500;

static void qux_tick(struct timer_list *t)
{
	mod_timer(&qux_timer, jiffies + msecs_to_jiffies(qux_period_ms));
}

static void qux_restart(void)
{
	del_timer(&qux_timer);
	mod_timer(&qux_timer, jiffies + msecs_to_jiffies(qux_period_ms));
}

static ssize_t qux_write(struct file *file, const char __user *buf,
			 size_t count, loff_t *ppos)
{
	qux_restart();
	return count;
}

static const struct file_operations qux_fops = {
	.owner	= THIS_MODULE,
	.write	= qux_write,
};

static struct miscdevice qux_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "qux",
	.fops	= &qux_fops,
};

static int __init qux_init(void)
{
	int err;

	timer_setup(&qux_timer, qux_tick, 0);
	mod_timer(&qux_timer, jiffies + msecs_to_jiffies(qux_period_ms));

	err = misc_register(&qux_misc);
	if (err)
		del_timer(&qux_timer);
	return err;
}

static void __exit qux_exit(void)
{
	misc_deregister(&qux_misc);
	del_timer_sync(&qux_timer);
}

module_init(qux_init);
module_exit(qux_exit);
MODULE_LICENSE("GPL");
