// SPDX-License-Identifier: GPL-2.0
/* Trap: built-in only (no module_exit()), the code can never go away. */
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/cdev.h>

static struct cdev xyzzy_cdev;
static dev_t xyzzy_devt;

static const struct file_operations xyzzy_fops = {
	.read		= xyzzy_read,
};

static int __init xyzzy_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&xyzzy_devt, 0, 1, "xyzzy");
	if (ret)
		return ret;
	cdev_init(&xyzzy_cdev, &xyzzy_fops);
	return cdev_add(&xyzzy_cdev, xyzzy_devt, 1);
}
device_initcall(xyzzy_init);
