// SPDX-License-Identifier: GPL-2.0-only
/*
 * vbus: a virtual event bus. Writers post an event number to /dev/vbus,
 * and the module's own notifier chain tells its listeners, one of which
 * is the module's counter.
 *
 * The counter's notifier block is registered on the module's own chain
 * and never taken off: both the chain and the block are module data and
 * go together at rmmod, and nothing outside the module can reach the
 * chain. Not a lifetime bug.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/uaccess.h>

static BLOCKING_NOTIFIER_HEAD(vbus_chain);
static atomic_t vbus_events = ATOMIC_INIT(0);

static int vbus_count(struct notifier_block *nb, unsigned long event,
		      void *data)
{
	atomic_inc(&vbus_events);
	return NOTIFY_OK;
}

static struct notifier_block vbus_counter_nb = {
	.notifier_call	= vbus_count,
};

static ssize_t vbus_write(struct file *file, const char __user *buf,
			  size_t len, loff_t *ppos)
{
	unsigned long event;
	int ret;

	ret = kstrtoul_from_user(buf, len, 0, &event);
	if (ret)
		return ret;
	blocking_notifier_call_chain(&vbus_chain, event, NULL);
	return len;
}

static const struct file_operations vbus_fops = {
	.owner	= THIS_MODULE,
	.write	= vbus_write,
	.llseek	= noop_llseek,
};

static struct miscdevice vbus_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "vbus",
	.fops	= &vbus_fops,
};

static int __init vbus_init(void)
{
	blocking_notifier_chain_register(&vbus_chain, &vbus_counter_nb);
	return misc_register(&vbus_misc);
}

static void __exit vbus_exit(void)
{
	misc_deregister(&vbus_misc);
	pr_info("vbus: %d events\n", atomic_read(&vbus_events));
}

module_init(vbus_init);
module_exit(vbus_exit);
MODULE_DESCRIPTION("Virtual event bus");
MODULE_LICENSE("GPL");
