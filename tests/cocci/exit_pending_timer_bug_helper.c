// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: the exit function stops its timers in a helper, with
 * timer_delete(), a del_timer() whose result is used, and an
 * hrtimer_try_to_cancel() whose result is ignored.  None of them waits
 * for a running callback.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/timer.h>

struct bar {
	struct timer_list poll;
	struct timer_list watchdog;
	struct hrtimer sample;
	unsigned long polls;
	unsigned long samples;
};

static struct bar bar;

static void bar_poll(struct timer_list *t)
{
	struct bar *b = from_timer(b, t, poll);

	b->polls++;
	mod_timer(&b->poll, jiffies + msecs_to_jiffies(100));
}

static void bar_watchdog(struct timer_list *t)
{
	pr_warn("bar: watchdog expired\n");
}

static enum hrtimer_restart bar_sample(struct hrtimer *t)
{
	struct bar *b = container_of(t, struct bar, sample);

	b->samples++;
	hrtimer_forward_now(t, ms_to_ktime(10));
	return HRTIMER_RESTART;
}

static int __init bar_init(void)
{
	timer_setup(&bar.poll, bar_poll, 0);
	timer_setup(&bar.watchdog, bar_watchdog, 0);
	hrtimer_init(&bar.sample, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	bar.sample.function = bar_sample;

	mod_timer(&bar.poll, jiffies + msecs_to_jiffies(100));
	mod_timer(&bar.watchdog, jiffies + 10 * HZ);
	hrtimer_start(&bar.sample, ms_to_ktime(10), HRTIMER_MODE_REL);
	return 0;
}

static void bar_stop_timers(struct bar *b)
{
	timer_delete(&b->poll);
	if (del_timer(&b->watchdog))
		pr_debug("bar: watchdog was pending\n");
	hrtimer_try_to_cancel(&b->sample);
}

static void __exit bar_exit(void)
{
	bar_stop_timers(&bar);
	pr_info("bar: %lu polls, %lu samples\n", bar.polls, bar.samples);
}

module_init(bar_init);
module_exit(bar_exit);
MODULE_LICENSE("GPL");
