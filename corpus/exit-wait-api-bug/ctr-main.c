// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctr: a free-running event counter, /sys/class/ctr/ctr0, advanced by a
 * timer; "count" reads it and writing "reset" clears it.
 *
 * Exit tears the device down with ctr_class_device_unregister_wait() (in
 * ctr-class.c), which blocks until the last reference is gone: an open
 * "count" file keeps rmmod waiting.
 */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include "ctr.h"

#define CTR_PERIOD	msecs_to_jiffies(10)

struct ctr {
	struct ctr_class_device cdev_obj;
	struct timer_list timer;
	atomic64_t count;
};

static struct ctr *ctr;

static void ctr_tick(struct timer_list *t)
{
	struct ctr *c = from_timer(c, t, timer);

	atomic64_inc(&c->count);
	mod_timer(&c->timer, jiffies + CTR_PERIOD);
}

static ssize_t count_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct ctr *c = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%lld\n", atomic64_read(&c->count));
}
static DEVICE_ATTR_RO(count);

static ssize_t reset_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct ctr *c = dev_get_drvdata(dev);

	atomic64_set(&c->count, 0);
	return count;
}
static DEVICE_ATTR_WO(reset);

static struct attribute *ctr_attrs[] = {
	&dev_attr_count.attr,
	&dev_attr_reset.attr,
	NULL
};
ATTRIBUTE_GROUPS(ctr);

static int __init ctr_init(void)
{
	int ret;

	ret = ctr_class_init();
	if (ret)
		return ret;

	ctr = kzalloc(sizeof(*ctr), GFP_KERNEL);
	if (!ctr) {
		ret = -ENOMEM;
		goto err_class;
	}
	timer_setup(&ctr->timer, ctr_tick, 0);

	ret = ctr_class_device_register(&ctr->cdev_obj, "ctr0", ctr, ctr_groups);
	if (ret)
		goto err_free;

	mod_timer(&ctr->timer, jiffies + CTR_PERIOD);
	return 0;

err_free:
	kfree(ctr);
err_class:
	ctr_class_exit();
	return ret;
}

static void __exit ctr_exit(void)
{
	del_timer_sync(&ctr->timer);
	ctr_class_device_unregister_wait(&ctr->cdev_obj);
	kfree(ctr);
	ctr_class_exit();
}

module_init(ctr_init);
module_exit(ctr_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Event counter class device (exit calls *_unregister_wait())");
