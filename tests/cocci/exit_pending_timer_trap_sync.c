// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: every timer is stopped with a waiting call on the exit path
 * (del_timer_sync(), timer_shutdown_sync(), hrtimer_cancel()), and an
 * hrtimer_try_to_cancel() whose result is checked is retried until the
 * callback is done.  Nothing to report.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/processor.h>
#include <linux/timer.h>

static struct timer_list quux_poll;
static struct timer_list quux_blink;
static struct hrtimer quux_sample;
static struct hrtimer quux_burst;

static void quux_poll_fn(struct timer_list *t)
{
	mod_timer(&quux_poll, jiffies + HZ);
}

static void quux_blink_fn(struct timer_list *t)
{
	mod_timer(&quux_blink, jiffies + HZ / 2);
}

static enum hrtimer_restart quux_sample_fn(struct hrtimer *t)
{
	hrtimer_forward_now(t, ms_to_ktime(10));
	return HRTIMER_RESTART;
}

static int __init quux_init(void)
{
	timer_setup(&quux_poll, quux_poll_fn, 0);
	timer_setup(&quux_blink, quux_blink_fn, 0);
	hrtimer_init(&quux_sample, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	quux_sample.function = quux_sample_fn;
	hrtimer_init(&quux_burst, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	quux_burst.function = quux_sample_fn;

	mod_timer(&quux_poll, jiffies + HZ);
	mod_timer(&quux_blink, jiffies + HZ / 2);
	hrtimer_start(&quux_sample, ms_to_ktime(10), HRTIMER_MODE_REL);
	hrtimer_start(&quux_burst, ms_to_ktime(1), HRTIMER_MODE_REL);
	return 0;
}

static void quux_stop(void)
{
	timer_shutdown_sync(&quux_blink);
	hrtimer_cancel(&quux_sample);
	while (hrtimer_try_to_cancel(&quux_burst) < 0)
		cpu_relax();
}

static void __exit quux_exit(void)
{
	del_timer_sync(&quux_poll);
	quux_stop();
}

module_init(quux_init);
module_exit(quux_exit);
MODULE_LICENSE("GPL");
