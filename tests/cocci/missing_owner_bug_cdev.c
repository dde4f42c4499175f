// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: two cdevs; the first one pins the module through its owner, the
 * second cdev has no owner and its file_operations have none either.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/cdev.h>

struct corge_dev {
	struct cdev data_cdev;
	struct cdev ctl_cdev;
	dev_t devt;
};

static struct corge_dev corge;

static const struct file_operations corge_data_fops = {
	.read		= corge_read,
	.write		= corge_write,
};

static const struct file_operations corge_ctl_fops = {
	.unlocked_ioctl	= corge_ioctl,
	.llseek		= noop_llseek,
};

static int __init corge_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&corge.devt, 0, 2, "corge");
	if (ret)
		return ret;

	cdev_init(&corge.data_cdev, &corge_data_fops);
	corge.data_cdev.owner = THIS_MODULE;
	ret = cdev_add(&corge.data_cdev, corge.devt, 1);
	if (ret)
		goto err_region;

	cdev_init(&corge.ctl_cdev, &corge_ctl_fops);
	ret = cdev_add(&corge.ctl_cdev, corge.devt + 1, 1);
	if (ret)
		goto err_data;
	return 0;

err_data:
	cdev_del(&corge.data_cdev);
err_region:
	unregister_chrdev_region(corge.devt, 2);
	return ret;
}

static void __exit corge_exit(void)
{
	cdev_del(&corge.ctl_cdev);
	cdev_del(&corge.data_cdev);
	unregister_chrdev_region(corge.devt, 2);
}

module_init(corge_init);
module_exit(corge_exit);
