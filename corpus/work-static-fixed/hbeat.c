// SPDX-License-Identifier: GPL-2.0-only
/*
 * hbeat: logs a heartbeat counter once a second from a statically
 * declared delayed work that queues itself again, and pokes a static
 * work item when a threshold is reached. The exit function cancels the
 * heartbeat first (it queues the alarm), then the alarm: nothing of the
 * module's is left queued.
 */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/workqueue.h>

static unsigned long hbeat_count;

static void hbeat_alarm(struct work_struct *work)
{
	pr_warn("hbeat: %lu beats\n", hbeat_count);
}

static DECLARE_WORK(hbeat_alarm_work, hbeat_alarm);

static void hbeat_tick(struct work_struct *work);
static DECLARE_DELAYED_WORK(hbeat_work, hbeat_tick);

static void hbeat_tick(struct work_struct *work)
{
	if (++hbeat_count % 60 == 0)
		schedule_work(&hbeat_alarm_work);
	schedule_delayed_work(&hbeat_work, HZ);
}

static int __init hbeat_init(void)
{
	schedule_delayed_work(&hbeat_work, HZ);
	return 0;
}

static void __exit hbeat_exit(void)
{
	cancel_delayed_work_sync(&hbeat_work);
	cancel_work_sync(&hbeat_alarm_work);
	pr_info("hbeat: stopped after %lu beats\n", hbeat_count);
}

module_init(hbeat_init);
module_exit(hbeat_exit);
MODULE_DESCRIPTION("Heartbeat from a statically declared delayed work");
MODULE_LICENSE("GPL");
