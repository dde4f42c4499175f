// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpoll: polls a virtual sensor. A timer fires every second and hands the
 * slow part of the poll to a work item, which logs the value.
 *
 * The exit function cancels the work and then stops the timer. Between
 * the two, the timer can fire and queue the work again: the work then
 * runs after the module is gone. The timer has to be stopped first.
 */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

static struct timer_list vpoll_timer;
static struct work_struct vpoll_work;
static unsigned int vpoll_count;

static void vpoll_read(struct work_struct *work)
{
	pr_info("vpoll: reading %u\n", vpoll_count++);
}

static void vpoll_tick(struct timer_list *t)
{
	schedule_work(&vpoll_work);
	mod_timer(&vpoll_timer, jiffies + HZ);
}

static int __init vpoll_init(void)
{
	INIT_WORK(&vpoll_work, vpoll_read);
	timer_setup(&vpoll_timer, vpoll_tick, 0);
	mod_timer(&vpoll_timer, jiffies + HZ);
	return 0;
}

static void __exit vpoll_exit(void)
{
	cancel_work_sync(&vpoll_work);
	del_timer_sync(&vpoll_timer);
}

module_init(vpoll_init);
module_exit(vpoll_exit);
MODULE_DESCRIPTION("Virtual sensor poller");
MODULE_LICENSE("GPL");
