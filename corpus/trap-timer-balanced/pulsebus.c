// SPDX-License-Identifier: GPL-2.0-only
/*
 * pulsebus: a one-wire style bus bit-banged from a character device.
 *
 * Every transfer arms a watchdog timer, waits for the transfer to finish
 * (or the watchdog to give up) and stops the timer with del_timer_sync()
 * before returning: the timer is never pending once the write returns, so
 * the exit path has nothing to stop.
 */
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#define PULSEBUS_TIMEOUT_MS	20

struct pulsebus {
	struct mutex lock;
	struct timer_list watchdog;
	wait_queue_head_t done_wq;
	bool done, timed_out;
	u8 last;
};

static struct pulsebus bus;

static void pulsebus_watchdog(struct timer_list *t)
{
	struct pulsebus *pb = from_timer(pb, t, watchdog);

	pb->timed_out = true;
	wake_up(&pb->done_wq);
}

static int pulsebus_xfer(struct pulsebus *pb, u8 byte)
{
	int ret;

	pb->done = false;
	pb->timed_out = false;
	mod_timer(&pb->watchdog, jiffies + msecs_to_jiffies(PULSEBUS_TIMEOUT_MS));
	pb->last = byte;		/* the "hardware" answers at once */
	pb->done = true;
	ret = wait_event_interruptible(pb->done_wq, pb->done || pb->timed_out);
	del_timer_sync(&pb->watchdog);
	if (ret)
		return ret;
	return pb->timed_out ? -ETIMEDOUT : 0;
}

static ssize_t pulsebus_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	size_t i;
	u8 byte;
	int ret = 0;

	mutex_lock(&bus.lock);
	for (i = 0; i < len; i++) {
		if (get_user(byte, ubuf + i)) {
			ret = -EFAULT;
			break;
		}
		ret = pulsebus_xfer(&bus, byte);
		if (ret)
			break;
	}
	mutex_unlock(&bus.lock);
	return i ? i : ret;
}

static const struct file_operations pulsebus_fops = {
	.owner = THIS_MODULE,
	.write = pulsebus_write,
	.llseek = noop_llseek,
};

static struct miscdevice pulsebus_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "pulsebus",
	.fops = &pulsebus_fops,
};

static int __init pulsebus_init(void)
{
	mutex_init(&bus.lock);
	init_waitqueue_head(&bus.done_wq);
	timer_setup(&bus.watchdog, pulsebus_watchdog, 0);
	return misc_register(&pulsebus_misc);
}

static void __exit pulsebus_exit(void)
{
	misc_deregister(&pulsebus_misc);
}

module_init(pulsebus_init);
module_exit(pulsebus_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Bit-banged bus with a per-transfer watchdog timer");
