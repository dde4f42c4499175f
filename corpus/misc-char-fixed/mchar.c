// SPDX-License-Identifier: GPL-2.0-only
/*
 * mchar: a misc character device holding a small message buffer.
 *
 * The file_operations set .owner = THIS_MODULE: chrdev_open() takes a
 * module reference through fops_get(), so rmmod fails while it is open.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define MCHAR_BUFSZ	4096
#define MCHAR_IOC_CLEAR	_IO('m', 1)

struct mchar_priv {
	struct mutex lock;
	size_t len;
	char *buf;
};

static struct mchar_priv *mchar;

static int mchar_open(struct inode *inode, struct file *file)
{
	file->private_data = mchar;
	return 0;
}

static ssize_t mchar_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct mchar_priv *priv = file->private_data;
	ssize_t ret;

	mutex_lock(&priv->lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, priv->buf, priv->len);
	mutex_unlock(&priv->lock);
	return ret;
}

static ssize_t mchar_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct mchar_priv *priv = file->private_data;
	ssize_t ret;

	mutex_lock(&priv->lock);
	ret = simple_write_to_buffer(priv->buf, MCHAR_BUFSZ, ppos, ubuf, count);
	if (ret > 0 && *ppos > priv->len)
		priv->len = *ppos;
	mutex_unlock(&priv->lock);
	return ret;
}

static long mchar_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct mchar_priv *priv = file->private_data;

	switch (cmd) {
	case MCHAR_IOC_CLEAR:
		mutex_lock(&priv->lock);
		priv->len = 0;
		mutex_unlock(&priv->lock);
		return 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations mchar_fops = {
	.owner		= THIS_MODULE,
	.open		= mchar_open,
	.read		= mchar_read,
	.write		= mchar_write,
	.unlocked_ioctl	= mchar_ioctl,
	.llseek		= default_llseek,
};

static struct miscdevice mchar_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "mchar",
	.fops	= &mchar_fops,
	.mode	= 0600,
};

static int __init mchar_init(void)
{
	int ret;

	mchar = kzalloc(sizeof(*mchar), GFP_KERNEL);
	if (!mchar)
		return -ENOMEM;
	mchar->buf = kzalloc(MCHAR_BUFSZ, GFP_KERNEL);
	if (!mchar->buf) {
		ret = -ENOMEM;
		goto err_free_priv;
	}
	mutex_init(&mchar->lock);

	ret = misc_register(&mchar_misc);
	if (ret)
		goto err_free_buf;
	return 0;

err_free_buf:
	kfree(mchar->buf);
err_free_priv:
	kfree(mchar);
	return ret;
}

static void __exit mchar_exit(void)
{
	misc_deregister(&mchar_misc);
	kfree(mchar->buf);
	kfree(mchar);
}

module_init(mchar_init);
module_exit(mchar_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Misc character device with a message buffer (fops owner set)");
