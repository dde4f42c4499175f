// SPDX-License-Identifier: GPL-2.0-only
/*
 * slotfs: each open of /dev/slots gets an inode of its own, on an
 * internal filesystem that nobody can mount by name (it is never
 * registered), the way dax keeps the inodes of its devices.
 *
 * Only the module's own init mounts it, and kern_mount() pins the owner
 * of the filesystem type then and there, until kern_unmount() in the
 * exit. With .owner = THIS_MODULE the module would hold a reference on
 * itself that only its exit drops, and rmmod never gets there. No owner
 * is right here: what users hold open is pinned by slots_fops.owner.
 */
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/pseudo_fs.h>

#define SLOTFS_MAGIC	0x736c6f74

static struct vfsmount *slotfs_mnt;

static int slotfs_init_fs_context(struct fs_context *fc)
{
	return init_pseudo(fc, SLOTFS_MAGIC) ? 0 : -ENOMEM;
}

static struct file_system_type slotfs_type = {
	.name			= "slotfs",
	.init_fs_context	= slotfs_init_fs_context,
	.kill_sb		= kill_anon_super,
};

static int slots_open(struct inode *inode, struct file *file)
{
	struct inode *slot = alloc_anon_inode(slotfs_mnt->mnt_sb);

	if (IS_ERR(slot))
		return PTR_ERR(slot);
	file->private_data = slot;
	return 0;
}

static int slots_release(struct inode *inode, struct file *file)
{
	iput(file->private_data);
	return 0;
}

static ssize_t slots_read(struct file *file, char __user *buf, size_t len,
			  loff_t *ppos)
{
	struct inode *slot = file->private_data;
	char tmp[24];
	int n = scnprintf(tmp, sizeof(tmp), "%lu\n", slot->i_ino);

	return simple_read_from_buffer(buf, len, ppos, tmp, n);
}

static const struct file_operations slots_fops = {
	.owner		= THIS_MODULE,
	.open		= slots_open,
	.release	= slots_release,
	.read		= slots_read,
	.llseek		= default_llseek,
};

static struct miscdevice slots_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "slots",
	.fops	= &slots_fops,
};

static int __init slotfs_mount(void)
{
	slotfs_mnt = kern_mount(&slotfs_type);
	return PTR_ERR_OR_ZERO(slotfs_mnt);
}

static int __init slots_init(void)
{
	int ret = slotfs_mount();

	if (ret)
		return ret;
	ret = misc_register(&slots_misc);
	if (ret)
		kern_unmount(slotfs_mnt);
	return ret;
}

static void __exit slots_exit(void)
{
	misc_deregister(&slots_misc);
	kern_unmount(slotfs_mnt);
}

module_init(slots_init);
module_exit(slots_exit);
MODULE_DESCRIPTION("an inode per open, on an internal filesystem");
MODULE_LICENSE("GPL");
