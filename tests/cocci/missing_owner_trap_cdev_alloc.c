// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: cdev_alloc() pattern.  The file_operations have no .owner, but the
 * dynamically allocated cdev that uses them has owner = THIS_MODULE.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/cdev.h>

#define FROB_MAJOR	221

static struct cdev *frob_cdev;

static const struct file_operations frob_fops = {
	.read		= frob_read,
	.write		= frob_write,
	.llseek		= frob_llseek,
};

static int __init frob_init(void)
{
	int err;

	err = register_chrdev_region(MKDEV(FROB_MAJOR, 0), 4, "frob");
	if (err)
		return err;

	frob_cdev = cdev_alloc();
	if (!frob_cdev) {
		err = -ENOMEM;
		goto err_region;
	}
	frob_cdev->ops = &frob_fops;
	frob_cdev->owner = THIS_MODULE;
	err = cdev_add(frob_cdev, MKDEV(FROB_MAJOR, 0), 4);
	if (err)
		goto err_cdev;
	return 0;

err_cdev:
	cdev_del(frob_cdev);
err_region:
	unregister_chrdev_region(MKDEV(FROB_MAJOR, 0), 4);
	return err;
}

static void __exit frob_exit(void)
{
	cdev_del(frob_cdev);
	unregister_chrdev_region(MKDEV(FROB_MAJOR, 0), 4);
}

module_init(frob_init);
module_exit(frob_exit);
