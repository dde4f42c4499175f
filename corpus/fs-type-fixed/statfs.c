// SPDX-License-Identifier: GPL-2.0-only
/*
 * statfs: a tiny pseudo filesystem ("modstat") with one read-only file
 * that reports how often it was read.
 *
 * mount -t modstat reaches get_fs_type(), which pins modstat_fs_type.owner
 * for as long as the superblock lives: rmmod fails while it is mounted.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/module.h>

#define MODSTAT_MAGIC	0x6d737461

static atomic_t modstat_reads = ATOMIC_INIT(0);

static ssize_t count_read(struct file *file, char __user *buf, size_t len,
			  loff_t *ppos)
{
	char tmp[16];
	int n = snprintf(tmp, sizeof(tmp), "%d\n",
			 atomic_inc_return(&modstat_reads));

	return simple_read_from_buffer(buf, len, ppos, tmp, n);
}

static const struct file_operations count_fops = {
	.owner	= THIS_MODULE,
	.read	= count_read,
	.llseek	= default_llseek,
};

static int modstat_fill_super(struct super_block *sb, struct fs_context *fc)
{
	static const struct tree_descr files[] = {
		[2] = { "count", &count_fops, 0444 },
		{ "" }
	};

	return simple_fill_super(sb, MODSTAT_MAGIC, files);
}

static int modstat_get_tree(struct fs_context *fc)
{
	return get_tree_single(fc, modstat_fill_super);
}

static const struct fs_context_operations modstat_context_ops = {
	.get_tree	= modstat_get_tree,
};

static int modstat_init_fs_context(struct fs_context *fc)
{
	fc->ops = &modstat_context_ops;
	return 0;
}

static struct file_system_type modstat_fs_type = {
	.owner			= THIS_MODULE,
	.name			= "modstat",
	.init_fs_context	= modstat_init_fs_context,
	.kill_sb		= kill_litter_super,
};

static int __init modstat_init(void)
{
	return register_filesystem(&modstat_fs_type);
}

static void __exit modstat_exit(void)
{
	unregister_filesystem(&modstat_fs_type);
}

module_init(modstat_init);
module_exit(modstat_exit);
MODULE_DESCRIPTION("pseudo filesystem counting reads");
MODULE_LICENSE("GPL");
