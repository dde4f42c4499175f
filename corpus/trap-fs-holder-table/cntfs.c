// SPDX-License-Identifier: GPL-2.0-only
/*
 * cntfs: a tiny pseudo filesystem with counter files whose operations
 * come from a flavor table: the filesystem type and its file operations
 * are held together by 'cntfs_flavor', with an owner (nfsv4 hands nfs its
 * file operations the same way: nfs_v4 = { .owner, .nfs_fs, .rpc_ops },
 * rpc_ops->file_ops becoming i_fop).
 *
 * The counter files' file_operations have no owner. They are only reachable
 * through a mounted cntfs superblock, and mounting pins the module through
 * cntfs_type.owner until the superblock is killed.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/module.h>

#define CNTFS_MAGIC	0x636e7466

static atomic64_t cntfs_events = ATOMIC64_INIT(0);
static atomic64_t cntfs_errors = ATOMIC64_INIT(0);

static int cntfs_open(struct inode *inode, struct file *file)
{
	file->private_data = inode->i_private;
	return 0;
}

static ssize_t cntfs_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	atomic64_t *ctr = file->private_data;
	char tmp[24];
	int len;

	len = scnprintf(tmp, sizeof(tmp), "%lld\n", (long long)atomic64_read(ctr));
	return simple_read_from_buffer(buf, count, ppos, tmp, len);
}

static ssize_t cntfs_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	atomic64_t *ctr = file->private_data;
	s64 val;
	int ret;

	ret = kstrtos64_from_user(buf, count, 0, &val);
	if (ret)
		return ret;
	atomic64_add(val, ctr);
	return count;
}

static const struct file_operations cntfs_data_fops = {
	.open	= cntfs_open,
	.read	= cntfs_read,
	.write	= cntfs_write,
	.llseek	= generic_file_llseek,
};

struct cntfs_flavor {
	struct module *owner;
	struct file_system_type *fs;
	const struct file_operations *file_ops;
};

static struct file_system_type cntfs_type;

static const struct cntfs_flavor cntfs_flavor = {
	.owner		= THIS_MODULE,
	.fs		= &cntfs_type,
	.file_ops	= &cntfs_data_fops,
};

static struct inode *cntfs_make_inode(struct super_block *sb, umode_t mode)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = get_next_ino();
	inode->i_mode = mode;
	inode->i_atime = inode->i_mtime = inode->i_ctime = current_time(inode);
	return inode;
}

static struct dentry *cntfs_create_file(struct dentry *parent, const char *name,
					void *data, umode_t mode)
{
	struct dentry *dentry;
	struct inode *inode;

	dentry = d_alloc_name(parent, name);
	if (!dentry)
		return NULL;

	inode = cntfs_make_inode(parent->d_sb, S_IFREG | mode);
	if (!inode) {
		dput(dentry);
		return NULL;
	}
	inode->i_fop = cntfs_flavor.file_ops;
	inode->i_private = data;
	d_add(dentry, inode);
	return dentry;
}

static const struct super_operations cntfs_s_ops = {
	.statfs		= simple_statfs,
	.drop_inode	= generic_delete_inode,
};

static int cntfs_fill_super(struct super_block *sb, void *data, int silent)
{
	struct inode *root;

	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_magic = CNTFS_MAGIC;
	sb->s_op = &cntfs_s_ops;

	root = cntfs_make_inode(sb, S_IFDIR | 0755);
	if (!root)
		return -ENOMEM;
	root->i_op = &simple_dir_inode_operations;
	root->i_fop = &simple_dir_operations;

	sb->s_root = d_make_root(root);
	if (!sb->s_root)
		return -ENOMEM;
	if (!cntfs_create_file(sb->s_root, "events", &cntfs_events, 0644) ||
	    !cntfs_create_file(sb->s_root, "errors", &cntfs_errors, 0644))
		return -ENOMEM;
	return 0;
}

static struct dentry *cntfs_mount(struct file_system_type *fst, int flags,
				  const char *name, void *data)
{
	return mount_single(fst, flags, data, cntfs_fill_super);
}

static struct file_system_type cntfs_type = {
	.owner		= THIS_MODULE,
	.name		= "cntfs",
	.mount		= cntfs_mount,
	.kill_sb	= kill_litter_super,
};
MODULE_ALIAS_FS("cntfs");

static int __init cntfs_init(void)
{
	return register_filesystem(cntfs_flavor.fs);
}
module_init(cntfs_init);

static void __exit cntfs_exit(void)
{
	unregister_filesystem(cntfs_flavor.fs);
}
module_exit(cntfs_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Counter pseudo filesystem (file fops held by a flavor table with the fs type)");
