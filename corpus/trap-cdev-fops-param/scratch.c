// SPDX-License-Identifier: GPL-2.0-only
/*
 * scratch: a character device on its own major, backed by a page of memory.
 *
 * The cdev carries no owner, but the file_operations a helper receives
 * and passes to cdev_init() do (the caller hands in &scratch_fops, as
 * cxl_memdev_alloc() gets its fops): chrdev_open() takes fops_get() on them for as long as the file is
 * open, and __fput() drops the cdev before the fops, so an open file pins
 * the module all the same. Nothing to report.
 */
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define SCRATCH_SIZE	PAGE_SIZE

struct scratch_dev {
	struct cdev cdev;
	struct device *dev;
	struct mutex lock;
	char data[SCRATCH_SIZE];
};

static dev_t scratch_devt;
static struct class *scratch_class;
static struct scratch_dev *scratch;

static int scratch_open(struct inode *inode, struct file *file)
{
	file->private_data = container_of(inode->i_cdev, struct scratch_dev, cdev);
	return 0;
}

static ssize_t scratch_read(struct file *file, char __user *buf, size_t count,
			    loff_t *ppos)
{
	struct scratch_dev *sd = file->private_data;
	ssize_t ret;

	mutex_lock(&sd->lock);
	ret = simple_read_from_buffer(buf, count, ppos, sd->data, SCRATCH_SIZE);
	mutex_unlock(&sd->lock);
	return ret;
}

static ssize_t scratch_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	struct scratch_dev *sd = file->private_data;
	ssize_t ret;

	mutex_lock(&sd->lock);
	ret = simple_write_to_buffer(sd->data, SCRATCH_SIZE, ppos, buf, count);
	mutex_unlock(&sd->lock);
	return ret;
}

static const struct file_operations scratch_fops = {
	.owner	= THIS_MODULE,
	.open	= scratch_open,
	.read	= scratch_read,
	.write	= scratch_write,
	.llseek	= default_llseek,
};

static int scratch_add_cdev(struct scratch_dev *s,
			    const struct file_operations *fops)
{
	cdev_init(&s->cdev, fops);
	return cdev_add(&s->cdev, scratch_devt, 1);
}

static int __init scratch_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&scratch_devt, 0, 1, "scratch");
	if (ret)
		return ret;

	scratch_class = class_create(THIS_MODULE, "scratch");
	if (IS_ERR(scratch_class)) {
		ret = PTR_ERR(scratch_class);
		goto err_region;
	}

	scratch = kzalloc(sizeof(*scratch), GFP_KERNEL);
	if (!scratch) {
		ret = -ENOMEM;
		goto err_class;
	}
	mutex_init(&scratch->lock);

	ret = scratch_add_cdev(scratch, &scratch_fops);
	if (ret)
		goto err_free;

	scratch->dev = device_create(scratch_class, NULL, scratch_devt, scratch,
				     "scratch0");
	if (IS_ERR(scratch->dev)) {
		ret = PTR_ERR(scratch->dev);
		goto err_cdev;
	}
	return 0;

err_cdev:
	cdev_del(&scratch->cdev);
err_free:
	kfree(scratch);
err_class:
	class_destroy(scratch_class);
err_region:
	unregister_chrdev_region(scratch_devt, 1);
	return ret;
}

static void __exit scratch_exit(void)
{
	device_destroy(scratch_class, scratch_devt);
	cdev_del(&scratch->cdev);
	kfree(scratch);
	class_destroy(scratch_class);
	unregister_chrdev_region(scratch_devt, 1);
}

module_init(scratch_init);
module_exit(scratch_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Scratch-page character device (owner on the fops a helper gets)");
