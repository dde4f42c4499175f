// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: the owner is assigned right after cdev_init(), in both the embedded
 * and the pointer form, and once on a later path only.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/cdev.h>

struct fred_dev {
	struct cdev cdev;
	struct cdev *aux;
	dev_t devt;
	bool has_aux;
};

static struct fred_dev fred;

static const struct file_operations fred_fops = {
	.owner		= THIS_MODULE,
	.read		= fred_read,
};

static int fred_setup(struct fred_dev *fd)
{
	int ret;

	cdev_init(&fd->cdev, &fred_fops);
	fd->cdev.owner = THIS_MODULE;
	ret = cdev_add(&fd->cdev, fd->devt, 1);
	if (ret || !fd->has_aux)
		return ret;

	cdev_init(fd->aux, &fred_fops);
	if (fd->has_aux)
		fd->aux->owner = THIS_MODULE;
	return cdev_add(fd->aux, fd->devt + 1, 1);
}

static int __init fred_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&fred.devt, 0, 2, "fred");
	if (ret)
		return ret;
	return fred_setup(&fred);
}

static void __exit fred_exit(void)
{
	cdev_del(&fred.cdev);
	unregister_chrdev_region(fred.devt, 2);
}

module_init(fred_init);
module_exit(fred_exit);
