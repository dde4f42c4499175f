// SPDX-License-Identifier: GPL-2.0-only
/*
 * vbeep: a virtual beeper; user space queues tones (Hz) through /dev/vbeep.
 *
 * Its option is tristate, but no distribution's .config enables it: a
 * scan that only checks what one .config builds as =m never sees it. The
 * file_operations have no .owner: nothing pins the module while
 * /dev/vbeep is open.
 */
#include <linux/fs.h>
#include <linux/kfifo.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>

#define VBEEP_QUEUE	64

static DEFINE_MUTEX(vbeep_lock);
static DEFINE_KFIFO(vbeep_tones, u32, VBEEP_QUEUE);

static ssize_t vbeep_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	u32 hz;

	if (count != sizeof(hz))
		return -EINVAL;
	if (copy_from_user(&hz, ubuf, sizeof(hz)))
		return -EFAULT;
	if (hz < 20 || hz > 20000)
		return -ERANGE;
	mutex_lock(&vbeep_lock);
	if (!kfifo_put(&vbeep_tones, hz)) {
		mutex_unlock(&vbeep_lock);
		return -ENOSPC;
	}
	mutex_unlock(&vbeep_lock);
	return count;
}

static ssize_t vbeep_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	unsigned int copied;
	int ret;

	mutex_lock(&vbeep_lock);
	ret = kfifo_to_user(&vbeep_tones, ubuf, count, &copied);
	mutex_unlock(&vbeep_lock);
	return ret ? ret : copied;
}

static const struct file_operations vbeep_fops = {
	.read	= vbeep_read,
	.write	= vbeep_write,
	.llseek	= noop_llseek,
};

static struct miscdevice vbeep_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "vbeep",
	.fops	= &vbeep_fops,
	.mode	= 0600,
};

static int __init vbeep_init(void)
{
	return misc_register(&vbeep_misc);
}

static void __exit vbeep_exit(void)
{
	misc_deregister(&vbeep_misc);
}

module_init(vbeep_init);
module_exit(vbeep_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Virtual beeper behind an option no distribution enables (missing fops owner)");
