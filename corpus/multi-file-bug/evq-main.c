// SPDX-License-Identifier: GPL-2.0-only
/*
 * evq: a character device that delivers a timestamped event every
 * 100 ms. The fops are defined in evq-fops.c without an owner and
 * registered here with register_chrdev(), which passes no THIS_MODULE: the
 * cdev it builds takes fops->owner (NULL), so nothing pins the module while
 * a reader sleeps in evq_read().
 */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include "evq.h"

#define EVQ_PERIOD	msecs_to_jiffies(100)

struct evq evq;
static struct timer_list evq_timer;
static int evq_major;

static void evq_tick(struct timer_list *t)
{
	struct evq_event ev;
	unsigned long flags;

	spin_lock_irqsave(&evq.lock, flags);
	ev.seq = evq.seq++;
	ev.time_ns = ktime_get_ns();
	if (!kfifo_put(&evq.fifo, ev))
		evq.dropped++;
	spin_unlock_irqrestore(&evq.lock, flags);

	wake_up_interruptible(&evq.wait);
	mod_timer(&evq_timer, jiffies + EVQ_PERIOD);
}

static int __init evq_init(void)
{
	spin_lock_init(&evq.lock);
	init_waitqueue_head(&evq.wait);
	INIT_KFIFO(evq.fifo);

	evq_major = register_chrdev(0, "evq", &evq_fops);
	if (evq_major < 0)
		return evq_major;

	timer_setup(&evq_timer, evq_tick, 0);
	mod_timer(&evq_timer, jiffies + EVQ_PERIOD);
	pr_info("evq: major %d\n", evq_major);
	return 0;
}

static void __exit evq_exit(void)
{
	unregister_chrdev(evq_major, "evq");
	del_timer_sync(&evq_timer);
	pr_info("evq: %lu events dropped\n", evq.dropped);
}

module_init(evq_init);
module_exit(evq_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Periodic event queue device (fops without owner, registered from another file)");
