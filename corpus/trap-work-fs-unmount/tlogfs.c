// SPDX-License-Identifier: GPL-2.0-only
/*
 * tlogfs: an in-memory filesystem that keeps a small transaction log per
 * mount. Marking the superblock dirty queues three things: a commit on
 * the mount's own ordered workqueue, a write-buffer flush after five
 * seconds and a master directory block update after one.
 *
 * Nothing of this is stopped by the module's exit function, and it need
 * not be: a mounted filesystem pins its module (file_system_type.owner),
 * and unmounting runs .kill_sb, .sync_fs and .put_super, which stop each
 * of them before the module can go.
 */
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#define TLOGFS_MAGIC	0x746c6f67

struct tlogfs_sb_info {
	struct super_block *sb;
	struct workqueue_struct *wq;
	struct work_struct commit_work;
	struct delayed_work wbuf_dwork;
	struct delayed_work mdb_work;
	unsigned long commits;
	spinlock_t lock;
	bool mdb_dirty;
};

/* the accessor the filesystem uses everywhere: a cast of s_fs_info */
#define TLOGFS_SB(sb)	((struct tlogfs_sb_info *)(sb)->s_fs_info)

static void tlogfs_commit(struct work_struct *work)
{
	struct tlogfs_sb_info *sbi = container_of(work, struct tlogfs_sb_info,
						  commit_work);

	spin_lock(&sbi->lock);
	sbi->commits++;
	spin_unlock(&sbi->lock);
}

static void tlogfs_wbuf_timeout(struct work_struct *work)
{
	struct tlogfs_sb_info *sbi = container_of(to_delayed_work(work),
						  struct tlogfs_sb_info,
						  wbuf_dwork);

	queue_work(sbi->wq, &sbi->commit_work);
}

static void tlogfs_write_mdb(struct work_struct *work)
{
	struct tlogfs_sb_info *sbi = container_of(to_delayed_work(work),
						  struct tlogfs_sb_info,
						  mdb_work);

	spin_lock(&sbi->lock);
	sbi->mdb_dirty = false;
	spin_unlock(&sbi->lock);
}

static void tlogfs_mark_dirty(struct super_block *sb)
{
	struct tlogfs_sb_info *sbi = TLOGFS_SB(sb);

	queue_work(sbi->wq, &sbi->commit_work);
	queue_delayed_work(system_long_wq, &sbi->wbuf_dwork, 5 * HZ);
	spin_lock(&sbi->lock);
	if (!sbi->mdb_dirty) {
		sbi->mdb_dirty = true;
		queue_delayed_work(system_long_wq, &sbi->mdb_work, HZ);
	}
	spin_unlock(&sbi->lock);
}

static int tlogfs_sync_fs(struct super_block *sb, int wait)
{
	struct tlogfs_sb_info *sbi = TLOGFS_SB(sb);

	/* generic_shutdown_super() syncs before .put_super */
	cancel_delayed_work_sync(&sbi->wbuf_dwork);
	if (wait)
		flush_work(&sbi->commit_work);
	return 0;
}

static void tlogfs_put_super(struct super_block *sb)
{
	cancel_delayed_work_sync(&TLOGFS_SB(sb)->mdb_work);
}

static const struct super_operations tlogfs_sops = {
	.statfs		= simple_statfs,
	.sync_fs	= tlogfs_sync_fs,
	.put_super	= tlogfs_put_super,
};

static int tlogfs_fill_super(struct super_block *sb, void *data, int silent)
{
	static const struct tree_descr files[] = { { "" } };
	struct tlogfs_sb_info *sbi;
	int err;

	sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);
	if (!sbi)
		return -ENOMEM;
	sbi->wq = alloc_ordered_workqueue("tlogfs-commit", 0);
	if (!sbi->wq) {
		kfree(sbi);
		return -ENOMEM;
	}
	sbi->sb = sb;
	spin_lock_init(&sbi->lock);
	INIT_WORK(&sbi->commit_work, tlogfs_commit);
	INIT_DELAYED_WORK(&sbi->wbuf_dwork, tlogfs_wbuf_timeout);
	INIT_DELAYED_WORK(&sbi->mdb_work, tlogfs_write_mdb);
	sb->s_fs_info = sbi;

	err = simple_fill_super(sb, TLOGFS_MAGIC, files);
	if (err)
		return err;	/* .kill_sb frees sbi */
	sb->s_op = &tlogfs_sops;
	tlogfs_mark_dirty(sb);
	return 0;
}

static struct dentry *tlogfs_mount(struct file_system_type *fs_type,
				   int flags, const char *dev_name, void *data)
{
	return mount_nodev(fs_type, flags, data, tlogfs_fill_super);
}

static void tlogfs_kill_sb(struct super_block *sb)
{
	struct tlogfs_sb_info *sbi = TLOGFS_SB(sb);

	kill_litter_super(sb);
	if (sbi) {
		destroy_workqueue(sbi->wq);
		kfree(sbi);
	}
}

static struct file_system_type tlogfs_type = {
	.owner		= THIS_MODULE,
	.name		= "tlogfs",
	.mount		= tlogfs_mount,
	.kill_sb	= tlogfs_kill_sb,
};
MODULE_ALIAS_FS("tlogfs");

static int __init tlogfs_init(void)
{
	return register_filesystem(&tlogfs_type);
}

static void __exit tlogfs_exit(void)
{
	unregister_filesystem(&tlogfs_type);
}

module_init(tlogfs_init);
module_exit(tlogfs_exit);
MODULE_DESCRIPTION("In-memory filesystem with a per-mount transaction log");
MODULE_LICENSE("GPL");
