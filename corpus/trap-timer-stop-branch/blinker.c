// SPDX-License-Identifier: GPL-2.0-only
/*
 * blinker: one function switches a periodic tick on and off, as many
 * drivers' watchdog helpers do: "off" stops the timer with
 * del_timer_sync() and returns, "on" arms it. The stop is followed by an
 * arm in the same function, but not on the same path: exit's
 * blinker_set(false) stops the tick.
 */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/timer.h>

static struct timer_list blinker_timer;
static bool blinker_active;
static unsigned long blinker_ticks;

static void blinker_set(bool on)
{
	if (!on) {
		if (blinker_active)
			del_timer_sync(&blinker_timer);
		blinker_active = false;
		return;
	}
	blinker_active = true;
	mod_timer(&blinker_timer, jiffies + HZ / 2);
}

static void blinker_tick(struct timer_list *t)
{
	blinker_ticks++;
	if (blinker_active)
		mod_timer(&blinker_timer, jiffies + HZ / 2);
}

static int __init blinker_init(void)
{
	timer_setup(&blinker_timer, blinker_tick, 0);
	blinker_set(true);
	return 0;
}

static void __exit blinker_exit(void)
{
	blinker_set(false);
	pr_info("blinker: %lu ticks\n", blinker_ticks);
}

module_init(blinker_init);
module_exit(blinker_exit);
MODULE_DESCRIPTION("Tick switched on and off by one function");
MODULE_LICENSE("GPL");
