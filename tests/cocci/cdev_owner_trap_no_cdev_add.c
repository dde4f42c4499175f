// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: cdev_init() on a cdev that this file never registers (it is handed
 * to a subsystem helper that sets the owner and adds it).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/cdev.h>

struct thud_dev {
	struct cdev cdev;
	dev_t devt;
};

static struct thud_dev thud;

static const struct file_operations thud_fops = {
	.owner		= THIS_MODULE,
	.read		= thud_read,
};

static int __init thud_init(void)
{
	cdev_init(&thud.cdev, &thud_fops);
	return thud_subsys_register(&thud.cdev, THIS_MODULE);
}

static void __exit thud_exit(void)
{
	thud_subsys_unregister(&thud.cdev);
}

module_init(thud_init);
module_exit(thud_exit);
