// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: cdev pattern.  The file_operations have no .owner, but they are
 * only reached through a cdev whose owner is THIS_MODULE, and the cdev
 * pins the module.  Both the embedded (&X / X.owner) and the pointer
 * (X / X->owner) forms, with the owner set in another function.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/cdev.h>

struct quux_dev {
	struct cdev cdev;
	struct cdev *ctl;
	dev_t devt;
};

static struct quux_dev quux;

static const struct file_operations quux_fops = {
	.open		= quux_open,
	.read		= quux_read,
	.release	= quux_release,
};

static const struct file_operations quux_ctl_fops = {
	.unlocked_ioctl	= quux_ioctl,
};

static void quux_set_owner(struct quux_dev *qd)
{
	qd->ctl->owner = THIS_MODULE;
}

static int quux_setup(struct quux_dev *qd)
{
	int ret;

	cdev_init(&qd->cdev, &quux_fops);
	qd->cdev.owner = THIS_MODULE;
	ret = cdev_add(&qd->cdev, qd->devt, 1);
	if (ret)
		return ret;

	cdev_init(qd->ctl, &quux_ctl_fops);
	quux_set_owner(qd);
	return cdev_add(qd->ctl, qd->devt + 1, 1);
}

static int __init quux_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&quux.devt, 0, 2, "quux");
	if (ret)
		return ret;
	return quux_setup(&quux);
}

static void __exit quux_exit(void)
{
	cdev_del(&quux.cdev);
	cdev_del(quux.ctl);
	unregister_chrdev_region(quux.devt, 2);
}

module_init(quux_init);
module_exit(quux_exit);
