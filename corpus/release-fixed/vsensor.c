// SPDX-License-Identifier: GPL-2.0-only
/*
 * vsensor: a software sensor exposed as a device with a "value" attribute
 * and a "stats" directory below it counting accesses.
 *
 * The device comes from device_create() and the directory from
 * kobject_create_and_add(): the driver core allocates both and frees them
 * in its own release functions. The private data hangs off drvdata and is
 * freed by the module once the attributes are gone.
 */
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

struct vsensor {
	struct device *dev;
	struct kobject *stats;
	int value;
	atomic_t reads;
};

static struct class *vsensor_class;
static struct vsensor *vsensor;

static ssize_t value_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct vsensor *vs = dev_get_drvdata(dev);

	atomic_inc(&vs->reads);
	return sysfs_emit(buf, "%d\n", READ_ONCE(vs->value));
}

static ssize_t value_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct vsensor *vs = dev_get_drvdata(dev);
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

static ssize_t reads_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&vsensor->reads));
}
static struct kobj_attribute reads_attr = __ATTR_RO(reads);

static struct attribute *vsensor_stats_attrs[] = {
	&reads_attr.attr,
	NULL
};

static const struct attribute_group vsensor_stats_group = {
	.attrs = vsensor_stats_attrs,
};

static int __init vsensor_init(void)
{
	int ret;

	vsensor = kzalloc(sizeof(*vsensor), GFP_KERNEL);
	if (!vsensor)
		return -ENOMEM;

	vsensor_class = class_create(THIS_MODULE, "vsensor");
	if (IS_ERR(vsensor_class)) {
		ret = PTR_ERR(vsensor_class);
		goto err_free;
	}

	vsensor->dev = device_create_with_groups(vsensor_class, NULL, 0, vsensor,
						 vsensor_groups, "vsensor0");
	if (IS_ERR(vsensor->dev)) {
		ret = PTR_ERR(vsensor->dev);
		goto err_class;
	}

	vsensor->stats = kobject_create_and_add("stats", &vsensor->dev->kobj);
	if (!vsensor->stats) {
		ret = -ENOMEM;
		goto err_dev;
	}
	ret = sysfs_create_group(vsensor->stats, &vsensor_stats_group);
	if (ret)
		goto err_stats;
	return 0;

err_stats:
	kobject_put(vsensor->stats);
err_dev:
	device_unregister(vsensor->dev);
err_class:
	class_destroy(vsensor_class);
err_free:
	kfree(vsensor);
	return ret;
}

static void __exit vsensor_exit(void)
{
	sysfs_remove_group(vsensor->stats, &vsensor_stats_group);
	kobject_put(vsensor->stats);
	device_unregister(vsensor->dev);
	class_destroy(vsensor_class);
	kfree(vsensor);
}

module_init(vsensor_init);
module_exit(vsensor_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Software sensor device (core-owned device and kobject)");
