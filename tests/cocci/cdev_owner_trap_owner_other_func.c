// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: the owner is assigned by a helper that the caller runs after
 * cdev_init(); the order across functions is not checked.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/cdev.h>

struct plugh_dev {
	struct cdev cdev;
	dev_t devt;
};

static struct plugh_dev plugh;

static const struct file_operations plugh_fops = {
	.owner		= THIS_MODULE,
	.read		= plugh_read,
};

static void plugh_cdev_prepare(struct module *owner)
{
	plugh.cdev.owner = owner;
}

static int __init plugh_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&plugh.devt, 0, 1, "plugh");
	if (ret)
		return ret;
	cdev_init(&plugh.cdev, &plugh_fops);
	plugh_cdev_prepare(THIS_MODULE);
	return cdev_add(&plugh.cdev, plugh.devt, 1);
}

static void __exit plugh_exit(void)
{
	cdev_del(&plugh.cdev);
	unregister_chrdev_region(plugh.devt, 1);
}

module_init(plugh_init);
module_exit(plugh_exit);
