// SPDX-License-Identifier: GPL-2.0-only
/*
 * dbgstat: allocation statistics of a small object cache in debugfs,
 * /sys/kernel/debug/dbgstat/{stats,reset}.
 *
 * Fixed form: both file_operations carry .owner = THIS_MODULE, so a file
 * left open pins the module, and full_proxy_release() never reads freed
 * module data.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

struct dbgstat_counters {
	spinlock_t lock;
	unsigned long allocs;
	unsigned long frees;
	unsigned long failures;
};

static struct dbgstat_counters dbgstat = {
	.lock = __SPIN_LOCK_UNLOCKED(dbgstat.lock),
};
static struct dentry *dbgstat_dir;

static int dbgstat_stats_show(struct seq_file *m, void *v)
{
	struct dbgstat_counters *c = m->private;
	unsigned long allocs, frees, failures;

	spin_lock(&c->lock);
	allocs = c->allocs;
	frees = c->frees;
	failures = c->failures;
	spin_unlock(&c->lock);

	seq_printf(m, "allocs:   %lu\n", allocs);
	seq_printf(m, "frees:    %lu\n", frees);
	seq_printf(m, "live:     %lu\n", allocs - frees);
	seq_printf(m, "failures: %lu\n", failures);
	return 0;
}

static int dbgstat_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, dbgstat_stats_show, inode->i_private);
}

static const struct file_operations dbgstat_stats_fops = {
	.owner		= THIS_MODULE,
	.open		= dbgstat_stats_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static ssize_t dbgstat_reset_write(struct file *file, const char __user *buf,
				   size_t count, loff_t *ppos)
{
	struct dbgstat_counters *c = file_inode(file)->i_private;
	bool reset;
	int ret;

	ret = kstrtobool_from_user(buf, count, &reset);
	if (ret)
		return ret;
	if (reset) {
		spin_lock(&c->lock);
		c->allocs = 0;
		c->frees = 0;
		c->failures = 0;
		spin_unlock(&c->lock);
	}
	return count;
}

static const struct file_operations dbgstat_reset_fops = {
	.owner		= THIS_MODULE,
	.write		= dbgstat_reset_write,
	.llseek		= noop_llseek,
};

static void dbgstat_account(bool ok)
{
	spin_lock(&dbgstat.lock);
	if (ok) {
		dbgstat.allocs++;
		dbgstat.frees++;
	} else {
		dbgstat.failures++;
	}
	spin_unlock(&dbgstat.lock);
}

static int __init dbgstat_init(void)
{
	void *probe;

	dbgstat_dir = debugfs_create_dir("dbgstat", NULL);
	debugfs_create_file("stats", 0444, dbgstat_dir, &dbgstat,
			    &dbgstat_stats_fops);
	debugfs_create_file("reset", 0200, dbgstat_dir, &dbgstat,
			    &dbgstat_reset_fops);

	/* self-test: one allocation round trip */
	probe = kmalloc(64, GFP_KERNEL);
	dbgstat_account(probe != NULL);
	kfree(probe);
	return 0;
}

static void __exit dbgstat_exit(void)
{
	debugfs_remove_recursive(dbgstat_dir);
}

module_init(dbgstat_init);
module_exit(dbgstat_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Object cache statistics in debugfs (proxied fops without owner)");
