// SPDX-License-Identifier: GPL-2.0-only
/*
 * xcode: /dev/xcode transforms what is written to it with a selectable
 * codec and hands back the result on read.
 *
 * struct xcode_codec has a struct module *owner (meant for codecs in other
 * modules), and the built-in codecs leave it unset. No core kernel code
 * ever reads that field, so it pins nothing and there is nothing to report.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>

#define XCODE_BUFSZ		1024
#define XCODE_IOC_SELECT	_IOW('x', 0, int)

struct xcode_codec {
	const char *name;
	struct module *owner;
	void (*apply)(u8 *buf, size_t len);
};

static void xcode_rot13(u8 *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		u8 c = buf[i], base = (c >= 'a' && c <= 'z') ? 'a' : 'A';

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			buf[i] = base + (c - base + 13) % 26;
	}
}

static void xcode_invert(u8 *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = ~buf[i];
}

static struct xcode_codec xcode_rot13_codec = {
	.name	= "rot13",
	.apply	= xcode_rot13,
};

static struct xcode_codec xcode_invert_codec = {
	.name	= "invert",
	.apply	= xcode_invert,
};

static struct xcode_codec *const xcode_codecs[] = {
	&xcode_rot13_codec,
	&xcode_invert_codec,
};

static struct {
	struct mutex lock;
	const struct xcode_codec *codec;
	size_t len;
	u8 buf[XCODE_BUFSZ];
} xcode = {
	.lock	= __MUTEX_INITIALIZER(xcode.lock),
	.codec	= &xcode_rot13_codec,
};

static ssize_t xcode_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&xcode.lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, xcode.buf, xcode.len);
	mutex_unlock(&xcode.lock);
	return ret;
}

static ssize_t xcode_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	if (count > XCODE_BUFSZ)
		return -EFBIG;

	mutex_lock(&xcode.lock);
	if (copy_from_user(xcode.buf, ubuf, count)) {
		mutex_unlock(&xcode.lock);
		return -EFAULT;
	}
	xcode.codec->apply(xcode.buf, count);
	xcode.len = count;
	mutex_unlock(&xcode.lock);
	return count;
}

static long xcode_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int idx;

	if (cmd != XCODE_IOC_SELECT)
		return -ENOTTY;
	if (get_user(idx, (int __user *)arg))
		return -EFAULT;
	if (idx < 0 || idx >= ARRAY_SIZE(xcode_codecs))
		return -EINVAL;

	mutex_lock(&xcode.lock);
	xcode.codec = xcode_codecs[idx];
	xcode.len = 0;
	mutex_unlock(&xcode.lock);
	pr_debug("xcode: codec %s\n", xcode_codecs[idx]->name);
	return 0;
}

static const struct file_operations xcode_fops = {
	.owner		= THIS_MODULE,
	.read		= xcode_read,
	.write		= xcode_write,
	.unlocked_ioctl	= xcode_ioctl,
	.llseek		= default_llseek,
};

static struct miscdevice xcode_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "xcode",
	.fops	= &xcode_fops,
};

static int __init xcode_init(void)
{
	return misc_register(&xcode_misc);
}

static void __exit xcode_exit(void)
{
	misc_deregister(&xcode_misc);
}

module_init(xcode_init);
module_exit(xcode_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Selectable-codec transform device (private struct with an owner member)");
