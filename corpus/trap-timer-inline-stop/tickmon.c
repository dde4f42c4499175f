// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickmon: measures timer latency. A periodic timer records how late each
 * expiry ran compared with its deadline; the worst case and the number of
 * late ticks are read-only module parameters.
 *
 * Exit stops the timer through a static inline helper, tickmon_stop(),
 * that calls del_timer_sync(): the stop is on the exit path even though
 * the compiler (and sparse) inline the helper's body into the caller.
 */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/spinlock.h>
#include <linux/timer.h>

static unsigned int period_ms = 100;
module_param(period_ms, uint, 0444);
MODULE_PARM_DESC(period_ms, "Sampling period in milliseconds (10-10000)");

static struct tickmon {
	struct timer_list timer;
	spinlock_t lock;
	unsigned long deadline;
	unsigned long period;
	unsigned long ticks;
	unsigned long late_ticks;
	unsigned int max_late_ms;
} tickmon = {
	.lock = __SPIN_LOCK_UNLOCKED(tickmon.lock),
};

module_param_named(ticks, tickmon.ticks, ulong, 0444);
module_param_named(late_ticks, tickmon.late_ticks, ulong, 0444);
module_param_named(max_late_ms, tickmon.max_late_ms, uint, 0444);

static void tickmon_arm(struct tickmon *tm, unsigned long now)
{
	tm->deadline = now + tm->period;
	mod_timer(&tm->timer, tm->deadline);
}

static void tickmon_tick(struct timer_list *t)
{
	struct tickmon *tm = from_timer(tm, t, timer);
	unsigned long now = jiffies;
	unsigned int late_ms;

	spin_lock(&tm->lock);
	tm->ticks++;
	if (time_after(now, tm->deadline)) {
		late_ms = jiffies_to_msecs(now - tm->deadline);
		tm->late_ticks++;
		if (late_ms > tm->max_late_ms)
			tm->max_late_ms = late_ms;
	}
	spin_unlock(&tm->lock);

	tickmon_arm(tm, now);
}

static inline void tickmon_stop(struct tickmon *tm)
{
	del_timer_sync(&tm->timer);
}

static int __init tickmon_init(void)
{
	if (period_ms < 10 || period_ms > 10000)
		return -EINVAL;

	tickmon.period = msecs_to_jiffies(period_ms);
	timer_setup(&tickmon.timer, tickmon_tick, 0);
	tickmon_arm(&tickmon, jiffies);

	pr_info("tickmon: sampling every %u ms\n", period_ms);
	return 0;
}

static void __exit tickmon_exit(void)
{
	tickmon_stop(&tickmon);
	pr_info("tickmon: %lu ticks, %lu late, worst %u ms\n",
		tickmon.ticks, tickmon.late_ticks, tickmon.max_late_ms);
}

module_init(tickmon_init);
module_exit(tickmon_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Timer latency monitor (stopped by an inline helper)");
