// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlepm: a character device whose (simulated) engine powers down one
 * second after its last use. Every open and every release notes a use:
 * cancel_delayed_work_sync() on the idle work, then schedule it again,
 * as GPU video engines do. That cancel is a restart, not a stop: the
 * last release leaves the idle work queued, and exit never cancels it,
 * so it can run in freed module text.
 */
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/workqueue.h>

static bool idlepm_powered;

static void idlepm_idle(struct work_struct *work)
{
	idlepm_powered = false;
	pr_debug("idlepm: engine off\n");
}

static DECLARE_DELAYED_WORK(idlepm_idle_work, idlepm_idle);

static void idlepm_note_use(void)
{
	cancel_delayed_work_sync(&idlepm_idle_work);
	idlepm_powered = true;
	schedule_delayed_work(&idlepm_idle_work, HZ);
}

static int idlepm_open(struct inode *inode, struct file *file)
{
	idlepm_note_use();
	return 0;
}

static int idlepm_release(struct inode *inode, struct file *file)
{
	idlepm_note_use();
	return 0;
}

static const struct file_operations idlepm_fops = {
	.owner = THIS_MODULE,
	.open = idlepm_open,
	.release = idlepm_release,
	.llseek = noop_llseek,
};

static struct miscdevice idlepm_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "idlepm",
	.fops = &idlepm_fops,
};

static int __init idlepm_init(void)
{
	return misc_register(&idlepm_misc);
}

static void __exit idlepm_exit(void)
{
	misc_deregister(&idlepm_misc);
}

module_init(idlepm_init);
module_exit(idlepm_exit);
MODULE_DESCRIPTION("Engine powered down by an idle work restarted on every use");
MODULE_LICENSE("GPL");
