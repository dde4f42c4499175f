// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: a misc character driver whose file_operations lack .owner.
 * The module can be unloaded while /dev/foo is open.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/uaccess.h>

static char foo_buf[64];

static int foo_open(struct inode *inode, struct file *file)
{
	return 0;
}

static ssize_t foo_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, foo_buf,
				       sizeof(foo_buf));
}

static const struct file_operations foo_fops = {
	.open		= foo_open,
	.read		= foo_read,
	.llseek		= default_llseek,
};

static struct miscdevice foo_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "foo",
	.fops	= &foo_fops,
};

static const struct file_operations foo_ctl_fops = {
	.unlocked_ioctl	= foo_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

static int foo_major;

static int __init foo_init(void)
{
	int ret;

	foo_major = register_chrdev(0, "foo_ctl", &foo_ctl_fops);
	if (foo_major < 0)
		return foo_major;

	ret = misc_register(&foo_misc);
	if (ret)
		unregister_chrdev(foo_major, "foo_ctl");
	return ret;
}

static void __exit foo_exit(void)
{
	misc_deregister(&foo_misc);
	unregister_chrdev(foo_major, "foo_ctl");
}

module_init(foo_init);
module_exit(foo_exit);
MODULE_LICENSE("GPL");
