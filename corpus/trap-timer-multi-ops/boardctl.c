// SPDX-License-Identifier: GPL-2.0-only
/*
 * boardctl: a board-control module made of sub-drivers (fan, beeper), each
 * with its own init and exit, run from a table like thinkpad_acpi's.
 *
 * The fan sub-driver polls with a timer that its exit stops with
 * del_timer_sync(). The module's exit calls every sub-driver's ->exit()
 * through the table; with two implementations of that member the call
 * cannot be resolved to one function, but it does reach the fan's.
 */
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/timer.h>

struct boardctl_sub {
	const char *name;
	int (*init)(void);
	void (*exit)(void);
};

static struct timer_list fan_timer;
static unsigned int fan_rpm;
static bool beeper_on;

static void fan_poll(struct timer_list *t)
{
	fan_rpm = (fan_rpm + 100) % 5000;	/* read the tachometer */
	mod_timer(&fan_timer, jiffies + HZ);
}

static int fan_init(void)
{
	timer_setup(&fan_timer, fan_poll, 0);
	mod_timer(&fan_timer, jiffies + HZ);
	return 0;
}

static void fan_exit(void)
{
	del_timer_sync(&fan_timer);
}

static int beeper_init(void)
{
	beeper_on = false;
	return 0;
}

static void beeper_exit(void)
{
	beeper_on = false;
}

static const struct boardctl_sub subs[] = {
	{ .name = "fan", .init = fan_init, .exit = fan_exit },
	{ .name = "beeper", .init = beeper_init, .exit = beeper_exit },
};

static int __init boardctl_init(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(subs); i++) {
		ret = subs[i].init();
		if (ret)
			goto undo;
	}
	return 0;
undo:
	while (--i >= 0)
		subs[i].exit();
	return ret;
}

static void __exit boardctl_exit(void)
{
	int i;

	for (i = ARRAY_SIZE(subs) - 1; i >= 0; i--)
		subs[i].exit();
}

module_init(boardctl_init);
module_exit(boardctl_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Board control sub-drivers run from a table");
