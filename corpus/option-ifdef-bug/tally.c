// SPDX-License-Identifier: GPL-2.0-only
/*
 * tally: named event counters, readable through a character device when
 * CONFIG_MODLIFE_TALLY_CDEV is enabled.
 *
 * The bug is under #if IS_ENABLED(CONFIG_MODLIFE_TALLY_CDEV): the
 * file_operations have no .owner, and register_chrdev() takes the
 * cdev's owner from them. A parse under a .config that leaves the option
 * off does not see that code at all.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>

#define TALLY_SLOTS	8

static atomic_long_t tally_count[TALLY_SLOTS];

void tally_bump(unsigned int slot)
{
	if (slot < TALLY_SLOTS)
		atomic_long_inc(&tally_count[slot]);
}
EXPORT_SYMBOL_GPL(tally_bump);

#if IS_ENABLED(CONFIG_MODLIFE_TALLY_CDEV)
static int tally_major;

static ssize_t tally_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	char buf[TALLY_SLOTS * 24];
	int i, len = 0;

	for (i = 0; i < TALLY_SLOTS; i++)
		len += scnprintf(buf + len, sizeof(buf) - len, "%ld\n",
				 atomic_long_read(&tally_count[i]));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations tally_fops = {
	.read	= tally_read,
	.llseek	= default_llseek,
};

static int tally_cdev_init(void)
{
	tally_major = register_chrdev(0, "tally", &tally_fops);
	return tally_major < 0 ? tally_major : 0;
}

static void tally_cdev_exit(void)
{
	unregister_chrdev(tally_major, "tally");
}
#else
static inline int tally_cdev_init(void) { return 0; }
static inline void tally_cdev_exit(void) { }
#endif

static int __init tally_init(void)
{
	return tally_cdev_init();
}

static void __exit tally_exit(void)
{
	tally_cdev_exit();
}

module_init(tally_init);
module_exit(tally_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Event counters; the char device part is behind its own tristate option (missing fops owner)");
