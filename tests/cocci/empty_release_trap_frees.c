// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: release callbacks that do their job.  One frees the containing
 * object, one frees it after logging through a local pointer.  Nothing
 * to report here (module-release covers that the code is module text).
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/slab.h>

struct qux_dev {
	struct device dev;
	struct kobject attrs;
};

static struct qux_dev *qux;

static void qux_dev_release(struct device *dev)
{
	kfree(container_of(dev, struct qux_dev, dev));
}

static void qux_attrs_release(struct kobject *kobj)
{
	struct qux_dev *q = container_of(kobj, struct qux_dev, attrs);

	pr_debug("qux: attrs released\n");
	put_device(&q->dev);
}

static struct kobj_type qux_attrs_ktype = {
	.release	= qux_attrs_release,
	.sysfs_ops	= &kobj_sysfs_ops,
};

static int __init qux_init(void)
{
	int err;

	qux = kzalloc(sizeof(*qux), GFP_KERNEL);
	if (!qux)
		return -ENOMEM;

	qux->dev.release = qux_dev_release;
	dev_set_name(&qux->dev, "qux");
	err = device_register(&qux->dev);
	if (err) {
		put_device(&qux->dev);
		return err;
	}

	get_device(&qux->dev);
	err = kobject_init_and_add(&qux->attrs, &qux_attrs_ktype,
				   &qux->dev.kobj, "attrs");
	if (err) {
		kobject_put(&qux->attrs);
		device_unregister(&qux->dev);
		return err;
	}
	return 0;
}

static void __exit qux_exit(void)
{
	kobject_put(&qux->attrs);
	device_unregister(&qux->dev);
}

module_init(qux_init);
module_exit(qux_exit);
MODULE_LICENSE("GPL");
