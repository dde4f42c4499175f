// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: the owner is assigned *before* cdev_init(), which memsets the
 * cdev and wipes it out again.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/cdev.h>

static struct cdev waldo_cdev;
static dev_t waldo_devt;

static const struct file_operations waldo_fops = {
	.read		= waldo_read,
};

static int __init waldo_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&waldo_devt, 0, 1, "waldo");
	if (ret)
		return ret;

	waldo_cdev.owner = THIS_MODULE;
	cdev_init(&waldo_cdev, &waldo_fops);
	ret = cdev_add(&waldo_cdev, waldo_devt, 1);
	if (ret)
		unregister_chrdev_region(waldo_devt, 1);
	return ret;
}

static void __exit waldo_exit(void)
{
	cdev_del(&waldo_cdev);
	unregister_chrdev_region(waldo_devt, 1);
}

module_init(waldo_init);
module_exit(waldo_exit);
