// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: a character device whose cdev never gets an owner: chrdev_open()
 * pins nothing and the module can be unloaded while /dev/grault is open.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/cdev.h>
#include <linux/device.h>

struct grault_dev {
	struct cdev cdev;
	struct device *dev;
	dev_t devt;
};

static struct grault_dev *grault;
static struct class *grault_class;

static const struct file_operations grault_fops = {
	.open		= grault_open,
	.read		= grault_read,
	.release	= grault_release,
};

static int grault_create(struct grault_dev *gd)
{
	int ret;

	cdev_init(&gd->cdev, &grault_fops);
	ret = cdev_add(&gd->cdev, gd->devt, 1);
	if (ret)
		return ret;

	gd->dev = device_create(grault_class, NULL, gd->devt, gd, "grault");
	if (IS_ERR(gd->dev)) {
		cdev_del(&gd->cdev);
		return PTR_ERR(gd->dev);
	}
	return 0;
}

static int __init grault_init(void)
{
	int ret;

	grault = kzalloc(sizeof(*grault), GFP_KERNEL);
	if (!grault)
		return -ENOMEM;
	ret = alloc_chrdev_region(&grault->devt, 0, 1, "grault");
	if (ret)
		goto err_free;
	ret = grault_create(grault);
	if (ret)
		goto err_region;
	return 0;

err_region:
	unregister_chrdev_region(grault->devt, 1);
err_free:
	kfree(grault);
	return ret;
}

static void __exit grault_exit(void)
{
	device_destroy(grault_class, grault->devt);
	cdev_del(&grault->cdev);
	unregister_chrdev_region(grault->devt, 1);
	kfree(grault);
}

module_init(grault_init);
module_exit(grault_exit);
MODULE_LICENSE("GPL");
