// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: a local look-alike of the *_unregister_wait() API proposed in
 * 2004, called from the exit function, and a kobject_put() followed by a
 * timed wait for the kobject's release whose result is checked (reported
 * only: the patch removes statements, not conditions).
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/kobject.h>
#include <linux/slab.h>

struct bar_dev {
	struct device dev;
	struct completion released;
};

static struct bar_dev *bar;

static struct kobject *bar_kobj;
static DECLARE_COMPLETION(bar_kobj_released);

static void bar_kobj_release(struct kobject *kobj)
{
	kfree(kobj);
	complete(&bar_kobj_released);
}

static struct kobj_type bar_ktype = {
	.release	= bar_kobj_release,
	.sysfs_ops	= &kobj_sysfs_ops,
};

static void bar_dev_release(struct device *dev)
{
	struct bar_dev *bd = container_of(dev, struct bar_dev, dev);

	complete(&bd->released);
}

static void bar_dev_unregister(struct bar_dev *bd)
{
	device_unregister(&bd->dev);
}

static void bar_dev_wait_released(struct bar_dev *bd)
{
	wait_for_completion(&bd->released);
	kfree(bd);
}

static void bar_dev_unregister_wait(struct bar_dev *bd)
{
	bar_dev_unregister(bd);
	bar_dev_wait_released(bd);
}

static int __init bar_init(void)
{
	int err;

	bar = kzalloc(sizeof(*bar), GFP_KERNEL);
	if (!bar)
		return -ENOMEM;
	init_completion(&bar->released);
	bar->dev.release = bar_dev_release;
	dev_set_name(&bar->dev, "bar");
	err = device_register(&bar->dev);
	if (err) {
		put_device(&bar->dev);
		return err;
	}

	bar_kobj = kzalloc(sizeof(*bar_kobj), GFP_KERNEL);
	if (!bar_kobj) {
		bar_dev_unregister_wait(bar);
		return -ENOMEM;
	}
	err = kobject_init_and_add(bar_kobj, &bar_ktype, kernel_kobj, "bar");
	if (err) {
		kobject_put(bar_kobj);
		bar_dev_unregister_wait(bar);
		return err;
	}
	return 0;
}

static void __exit bar_exit(void)
{
	kobject_put(bar_kobj);
	if (!wait_for_completion_timeout(&bar_kobj_released, HZ))
		pr_warn("bar: kobject still in use\n");
	bar_dev_unregister_wait(bar);
}

module_init(bar_init);
module_exit(bar_exit);
MODULE_LICENSE("GPL");
