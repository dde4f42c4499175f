// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: a periodic timer stopped with del_timer() in the exit function.
 * del_timer() does not wait for a callback that is running on another
 * CPU, which then executes module text that is freed under it.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/timer.h>

static struct timer_list foo_timer;
static unsigned long foo_ticks;

static void foo_tick(struct timer_list *t)
{
	foo_ticks++;
	mod_timer(&foo_timer, jiffies + HZ);
}

static int __init foo_init(void)
{
	timer_setup(&foo_timer, foo_tick, 0);
	mod_timer(&foo_timer, jiffies + HZ);
	return 0;
}

static void __exit foo_exit(void)
{
	del_timer(&foo_timer);
	pr_info("foo: %lu ticks\n", foo_ticks);
}

module_init(foo_init);
module_exit(foo_exit);
MODULE_LICENSE("GPL");
