// SPDX-License-Identifier: GPL-2.0-only
/*
 * evq file operations: blocking reads of fixed-size event records.
 */
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include "evq.h"

static ssize_t evq_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	struct evq_event ev;
	bool got;
	int ret;

	if (count < sizeof(ev))
		return -EINVAL;

	for (;;) {
		spin_lock_irq(&evq.lock);
		got = kfifo_get(&evq.fifo, &ev);
		spin_unlock_irq(&evq.lock);
		if (got)
			break;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(evq.wait, !kfifo_is_empty(&evq.fifo));
		if (ret)
			return ret;
	}

	if (copy_to_user(buf, &ev, sizeof(ev)))
		return -EFAULT;
	return sizeof(ev);
}

static __poll_t evq_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &evq.wait, wait);
	return kfifo_is_empty(&evq.fifo) ? 0 : EPOLLIN | EPOLLRDNORM;
}

struct file_operations evq_fops = {
	.open	= nonseekable_open,
	.read	= evq_read,
	.poll	= evq_poll,
	.llseek	= no_llseek,
};
