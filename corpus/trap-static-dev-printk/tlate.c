// SPDX-License-Identifier: GPL-2.0-only
/*
 * tlate: timer lateness monitor. A periodic timer measures how late it
 * fires and warns when the delay exceeds a threshold.
 *
 * A static struct device serves only as the dev_printk() context, so the
 * messages carry a "tlate" prefix. It is never registered: no reference
 * to it can outlive the module.
 */
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/timer.h>

#define TLATE_PERIOD_MS	1000

static unsigned int threshold_ms = 50;
module_param(threshold_ms, uint, 0644);
MODULE_PARM_DESC(threshold_ms, "Lateness that triggers a warning (ms)");

static struct device tlate_dev = {
	.init_name = "tlate",
};

static struct timer_list tlate_timer;
static unsigned long tlate_expected;
static unsigned long tlate_worst;
static unsigned long tlate_warnings;

static void tlate_fire(struct timer_list *t)
{
	unsigned long late = 0;

	if (time_after(jiffies, tlate_expected))
		late = jiffies_to_msecs(jiffies - tlate_expected);

	if (late > tlate_worst)
		tlate_worst = late;
	if (late > READ_ONCE(threshold_ms)) {
		tlate_warnings++;
		dev_warn_ratelimited(&tlate_dev, "timer %lu ms late\n", late);
	}

	tlate_expected = jiffies + msecs_to_jiffies(TLATE_PERIOD_MS);
	mod_timer(&tlate_timer, tlate_expected);
}

static int __init tlate_init(void)
{
	timer_setup(&tlate_timer, tlate_fire, 0);
	tlate_expected = jiffies + msecs_to_jiffies(TLATE_PERIOD_MS);
	mod_timer(&tlate_timer, tlate_expected);
	dev_info(&tlate_dev, "monitoring, threshold %u ms\n", threshold_ms);
	return 0;
}

static void __exit tlate_exit(void)
{
	del_timer_sync(&tlate_timer);
	dev_info(&tlate_dev, "worst lateness %lu ms, %lu warnings\n",
		 tlate_worst, tlate_warnings);
}

module_init(tlate_init);
module_exit(tlate_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Timer lateness monitor (static device as printk context)");
