// SPDX-License-Identifier: GPL-2.0-only
/*
 * blinkled: blinks a status LED through one of two back ends, chosen at
 * load time; the module keeps a static pointer to the back end's ops.
 * The GPIO back end toggles the LED from a self-rearming timer, which its
 * .park operation stops; exit calls it through the ops pointer
 * (cur_ops->park()), an ops call with a single implementation, not a
 * table of function pointers.
 */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/timer.h>

struct blinkled_ops {
	int (*start)(void);
	void (*park)(void);
};

static bool use_timer = true;
module_param(use_timer, bool, 0444);
MODULE_PARM_DESC(use_timer, "blink from a timer (default) or not at all");

static struct timer_list blinkled_timer;
static bool blinkled_on;

static void blinkled_tick(struct timer_list *t)
{
	blinkled_on = !blinkled_on;
	pr_debug("blinkled: %s\n", blinkled_on ? "on" : "off");
	mod_timer(&blinkled_timer, jiffies + HZ / 2);
}

static int blinkled_timer_start(void)
{
	timer_setup(&blinkled_timer, blinkled_tick, 0);
	mod_timer(&blinkled_timer, jiffies + HZ / 2);
	return 0;
}

static void blinkled_timer_park(void)
{
	del_timer_sync(&blinkled_timer);
}

static const struct blinkled_ops blinkled_timer_ops = {
	.start = blinkled_timer_start,
	.park = blinkled_timer_park,
};

static const struct blinkled_ops *cur_ops = &blinkled_timer_ops;

static int __init blinkled_init(void)
{
	if (!use_timer)
		return -ENODEV;
	return cur_ops->start();
}

static void __exit blinkled_exit(void)
{
	cur_ops->park();
}

module_init(blinkled_init);
module_exit(blinkled_exit);
MODULE_DESCRIPTION("Status LED blinker behind an ops pointer");
MODULE_LICENSE("GPL");
