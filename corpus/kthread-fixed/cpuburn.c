// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpuburn: a load generator for thermal testing. One kernel thread keeps a
 * CPU busy for duty_pct percent of every 100 ms period.
 *
 * Exit calls kthread_stop(), which wakes the thread and waits until it has
 * returned from cpuburn_thread(), so no module code runs after exit.
 */
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/processor.h>
#include <linux/sched.h>

#define CPUBURN_PERIOD_MS	100

static unsigned int duty_pct = 50;
module_param(duty_pct, uint, 0444);
MODULE_PARM_DESC(duty_pct, "Busy share of each period in percent (1-99)");

static struct task_struct *cpuburn_task;
static unsigned long cpuburn_periods;

static int cpuburn_thread(void *data)
{
	unsigned long busy = msecs_to_jiffies(CPUBURN_PERIOD_MS * duty_pct / 100);
	unsigned long idle = msecs_to_jiffies(CPUBURN_PERIOD_MS) - busy;
	unsigned long end;

	while (!kthread_should_stop()) {
		end = jiffies + busy;
		while (time_before(jiffies, end) && !kthread_should_stop())
			cpu_relax();

		cpuburn_periods++;
		schedule_timeout_interruptible(idle);
	}
	pr_info("cpuburn: stopped after %lu periods\n", cpuburn_periods);
	return 0;
}

static int __init cpuburn_init(void)
{
	if (!duty_pct || duty_pct > 99)
		return -EINVAL;

	cpuburn_task = kthread_run(cpuburn_thread, NULL, "cpuburn");
	if (IS_ERR(cpuburn_task))
		return PTR_ERR(cpuburn_task);

	pr_info("cpuburn: %u%% load started\n", duty_pct);
	return 0;
}

static void __exit cpuburn_exit(void)
{
	kthread_stop(cpuburn_task);
}

module_init(cpuburn_init);
module_exit(cpuburn_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("CPU load generator thread (thread stopped with kthread_stop())");
