// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: built-in only code (no module_exit()): it can never be unloaded,
 * so a missing .owner is harmless.
 */
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

static const struct file_operations baz_fops = {
	.open		= baz_open,
	.read		= baz_read,
	.llseek		= noop_llseek,
};

static struct miscdevice baz_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "baz",
	.fops	= &baz_fops,
};

static int __init baz_init(void)
{
	return misc_register(&baz_misc);
}
device_initcall(baz_init);
