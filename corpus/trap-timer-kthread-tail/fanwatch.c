// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanwatch: a polling thread samples a fan and arms a watchdog timer that
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

struct fanwatch {
	struct task_struct *thread;
	struct timer_list watchdog;
	unsigned long samples;
};

static struct fanwatch fanwatch;

static void fanwatch_watchdog(struct timer_list *t)
{
	struct fanwatch *fp = from_timer(fp, t, watchdog);

	pr_warn("fanwatch: no sample after %lu\n", fp->samples);
}

static void fanwatch_sample(struct fanwatch *fp)
{
	fp->samples++;
	mod_timer(&fp->watchdog, jiffies + 2 * HZ);
}

static int fanwatch_thread(void *data)
{
	struct fanwatch *fp = data;

	while (!kthread_should_stop()) {
		fanwatch_sample(fp);
		msleep_interruptible(500);
	}
	del_timer_sync(&fp->watchdog);
	return 0;
}

static int __init fanwatch_init(void)
{
	timer_setup(&fanwatch.watchdog, fanwatch_watchdog, 0);
	fanwatch.thread = kthread_run(fanwatch_thread, &fanwatch, "fanwatch");
	return PTR_ERR_OR_ZERO(fanwatch.thread);
}

static void __exit fanwatch_exit(void)
{
	kthread_stop(fanwatch.thread);
}

module_init(fanwatch_init);
module_exit(fanwatch_exit);
MODULE_DESCRIPTION("Fan polling thread that stops its own watchdog timer");
MODULE_LICENSE("GPL");
