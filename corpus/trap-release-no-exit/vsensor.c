// SPDX-License-Identifier: GPL-2.0-only
/*
 * vsensor: a software sensor exposed as a device with a "value" attribute
 * and a "stats" kobject below it counting accesses.
 *
 * Both objects are freed by release callbacks that live in this module,
 * but the module has no exit function: it cannot be unloaded, so its
 * release code stays for as long as anything can call it.
 */
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

struct vsensor {
	struct device dev;
	int value;
	atomic_t reads;
	struct vsensor_stats *stats;
};

struct vsensor_stats {
	struct kobject kobj;
	struct vsensor *vs;
};

static struct vsensor *vsensor;

static ssize_t value_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct vsensor *vs = container_of(dev, struct vsensor, dev);

	atomic_inc(&vs->reads);
	return sysfs_emit(buf, "%d\n", READ_ONCE(vs->value));
}

static ssize_t value_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct vsensor *vs = container_of(dev, struct vsensor, dev);
	int val, ret;

	ret = kstrtoint(buf, 0, &val);
	if (ret)
		return ret;
	WRITE_ONCE(vs->value, val);
	return count;
}
static DEVICE_ATTR_RW(value);

static struct attribute *vsensor_attrs[] = {
	&dev_attr_value.attr,
	NULL
};
ATTRIBUTE_GROUPS(vsensor);

static void vsensor_release(struct device *dev)
{
	kfree(container_of(dev, struct vsensor, dev));
}

static ssize_t reads_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct vsensor_stats *st = container_of(kobj, struct vsensor_stats, kobj);

	return sysfs_emit(buf, "%d\n", atomic_read(&st->vs->reads));
}
static struct kobj_attribute reads_attr = __ATTR_RO(reads);

static struct attribute *vsensor_stats_attrs[] = {
	&reads_attr.attr,
	NULL
};
ATTRIBUTE_GROUPS(vsensor_stats);

static void vsensor_stats_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct vsensor_stats, kobj));
}

static const struct kobj_type vsensor_stats_ktype = {
	.release	= vsensor_stats_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= vsensor_stats_groups,
};

static int __init vsensor_init(void)
{
	struct vsensor_stats *st;
	int ret;

	vsensor = kzalloc(sizeof(*vsensor), GFP_KERNEL);
	if (!vsensor)
		return -ENOMEM;

	vsensor->dev.groups = vsensor_groups;
	vsensor->dev.release = vsensor_release;
	dev_set_name(&vsensor->dev, "vsensor0");
	ret = device_register(&vsensor->dev);
	if (ret) {
		put_device(&vsensor->dev);
		return ret;
	}

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st) {
		ret = -ENOMEM;
		goto err_dev;
	}
	st->vs = vsensor;
	ret = kobject_init_and_add(&st->kobj, &vsensor_stats_ktype,
				   &vsensor->dev.kobj, "stats");
	if (ret) {
		kobject_put(&st->kobj);
		goto err_dev;
	}
	vsensor->stats = st;
	return 0;

err_dev:
	device_unregister(&vsensor->dev);
	return ret;
}

module_init(vsensor_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Software sensor device (release callbacks, no module_exit)");
