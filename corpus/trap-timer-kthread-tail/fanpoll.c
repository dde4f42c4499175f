// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanpoll: a polling thread samples a fan and arms a watchdog timer that
 * warns when no sample came in time. The thread stops the watchdog
 * itself once it is told to stop; kthread_stop() in the exit function
 * waits until the thread function has returned, so the watchdog is
 * stopped before the module goes.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/timer.h>

struct fanpoll {
	struct task_struct *thread;
	struct timer_list watchdog;
	unsigned long samples;
};

static struct fanpoll fanpoll;

static void fanpoll_watchdog(struct timer_list *t)
{
	struct fanpoll *fp = from_timer(fp, t, watchdog);

	pr_warn("fanpoll: no sample after %lu\n", fp->samples);
}

static void fanpoll_sample(struct fanpoll *fp)
{
	fp->samples++;
	mod_timer(&fp->watchdog, jiffies + 2 * HZ);
}

static int fanpoll_thread(void *data)
{
	struct fanpoll *fp = data;

	while (!kthread_should_stop()) {
		fanpoll_sample(fp);
		msleep_interruptible(500);
	}
	del_timer_sync(&fp->watchdog);
	return 0;
}

static int __init fanpoll_init(void)
{
	timer_setup(&fanpoll.watchdog, fanpoll_watchdog, 0);
	fanpoll.thread = kthread_run(fanpoll_thread, &fanpoll, "fanpoll");
	return PTR_ERR_OR_ZERO(fanpoll.thread);
}

static void __exit fanpoll_exit(void)
{
	kthread_stop(fanpoll.thread);
}

module_init(fanpoll_init);
module_exit(fanpoll_exit);
MODULE_DESCRIPTION("Fan polling thread that stops its own watchdog timer");
MODULE_LICENSE("GPL");
