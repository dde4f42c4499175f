// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnkdev: one software link device, /sys/devices/lnkdev0, whose teardown
 * helper other modules may use too (it is exported).
 *
 * lnkdev_destroy() unregisters the device and waits for its release to
 * complete() before freeing it. The module's own exit calls it: rmmod
 * blocks for as long as anyone holds a reference, and so does the exit
 * of every module that calls the exported helper.
 */
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/module.h>
#include <linux/slab.h>

struct lnkdev {
	struct device dev;
	struct completion released;
};

static struct lnkdev *the_link;

static void lnkdev_release(struct device *dev)
{
	struct lnkdev *ld = container_of(dev, struct lnkdev, dev);

	complete(&ld->released);
}

struct lnkdev *lnkdev_create(unsigned int index)
{
	struct lnkdev *ld;
	int ret;

	ld = kzalloc(sizeof(*ld), GFP_KERNEL);
	if (!ld)
		return ERR_PTR(-ENOMEM);
	init_completion(&ld->released);
	ld->dev.release = lnkdev_release;
	dev_set_name(&ld->dev, "lnkdev%u", index);
	ret = device_register(&ld->dev);
	if (ret) {
		put_device(&ld->dev);
		return ERR_PTR(ret);
	}
	return ld;
}
EXPORT_SYMBOL_GPL(lnkdev_create);

void lnkdev_destroy(struct lnkdev *ld)
{
	device_unregister(&ld->dev);
	wait_for_completion(&ld->released);
	kfree(ld);
}
EXPORT_SYMBOL_GPL(lnkdev_destroy);

static int __init lnkdev_init(void)
{
	the_link = lnkdev_create(0);
	return PTR_ERR_OR_ZERO(the_link);
}

static void __exit lnkdev_exit(void)
{
	lnkdev_destroy(the_link);
}

module_init(lnkdev_init);
module_exit(lnkdev_exit);

MODULE_DESCRIPTION("Software link device with an exported teardown");
MODULE_LICENSE("GPL");
