// SPDX-License-Identifier: GPL-2.0-only
/*
 * hbwatch: a heartbeat watchdog. User space writes to /dev/hbwatch at
 * least every timeout; a missed heartbeat is logged by a timer.
 *
 * Each write restarts the timer: del_timer_sync() and then mod_timer()
 * in the same function. The stop comes before the arm, so it does not
 * make the timer idle when write() returns, and exit never stops it: a
 * timer armed by the last write fires in freed module text.
 */
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/timer.h>

static unsigned int timeout_s = 10;
module_param(timeout_s, uint, 0444);
MODULE_PARM_DESC(timeout_s, "Heartbeat timeout in seconds");

static struct timer_list hb_timer;

static void hbwatch_missed(struct timer_list *t)
{
	pr_warn("hbwatch: no heartbeat for %u s\n", timeout_s);
}

static ssize_t hbwatch_write(struct file *file, const char __user *buf,
			     size_t len, loff_t *ppos)
{
	del_timer_sync(&hb_timer);
	mod_timer(&hb_timer, jiffies + timeout_s * HZ);
	return len;
}

static const struct file_operations hbwatch_fops = {
	.owner = THIS_MODULE,
	.write = hbwatch_write,
	.llseek = noop_llseek,
};

static struct miscdevice hbwatch_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "hbwatch",
	.fops = &hbwatch_fops,
};

static int __init hbwatch_init(void)
{
	timer_setup(&hb_timer, hbwatch_missed, 0);
	return misc_register(&hbwatch_misc);
}

static void __exit hbwatch_exit(void)
{
	misc_deregister(&hbwatch_misc);
}

module_init(hbwatch_init);
module_exit(hbwatch_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Heartbeat watchdog restarted on every write");
