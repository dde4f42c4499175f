// SPDX-License-Identifier: GPL-2.0-only
/*
 * tunables: runtime knobs under /sys/kernel/tunables for a batching
 * engine (batch size and flush threshold).
 *
 * The kobject is static module data and its kobj_type release does
 * nothing. A reader that still holds an attribute file open at unload
 * keeps the kobject alive past the module's memory.
 */
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>

static DEFINE_MUTEX(tunables_lock);
static unsigned int batch_size = 32;
static unsigned int flush_threshold = 128;

static struct kobject tunables_kobj;

static ssize_t batch_size_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(batch_size));
}

static ssize_t batch_size_store(struct kobject *kobj,
				struct kobj_attribute *attr,
				const char *buf, size_t count)
{
	unsigned int val;
	int ret;

	ret = kstrtouint(buf, 0, &val);
	if (ret)
		return ret;

	mutex_lock(&tunables_lock);
	if (!val || val > flush_threshold) {
		mutex_unlock(&tunables_lock);
		return -EINVAL;
	}
	WRITE_ONCE(batch_size, val);
	mutex_unlock(&tunables_lock);
	return count;
}
static struct kobj_attribute batch_size_attr = __ATTR_RW(batch_size);

static ssize_t flush_threshold_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(flush_threshold));
}

static ssize_t flush_threshold_store(struct kobject *kobj,
				     struct kobj_attribute *attr,
				     const char *buf, size_t count)
{
	unsigned int val;
	int ret;

	ret = kstrtouint(buf, 0, &val);
	if (ret)
		return ret;

	mutex_lock(&tunables_lock);
	if (val < batch_size) {
		mutex_unlock(&tunables_lock);
		return -EINVAL;
	}
	WRITE_ONCE(flush_threshold, val);
	mutex_unlock(&tunables_lock);
	return count;
}
static struct kobj_attribute flush_threshold_attr = __ATTR_RW(flush_threshold);

static struct attribute *tunables_attrs[] = {
	&batch_size_attr.attr,
	&flush_threshold_attr.attr,
	NULL
};

static const struct attribute_group tunables_group = {
	.attrs = tunables_attrs,
};

static void tunables_release(struct kobject *kobj)
{
	/* static object: nothing to free */
}

static const struct kobj_type tunables_ktype = {
	.release	= tunables_release,
	.sysfs_ops	= &kobj_sysfs_ops,
};

static int __init tunables_init(void)
{
	int ret;

	ret = kobject_init_and_add(&tunables_kobj, &tunables_ktype, kernel_kobj,
				   "tunables");
	if (ret)
		goto err_put;

	ret = sysfs_create_group(&tunables_kobj, &tunables_group);
	if (ret)
		goto err_put;
	return 0;

err_put:
	kobject_put(&tunables_kobj);
	return ret;
}

static void __exit tunables_exit(void)
{
	sysfs_remove_group(&tunables_kobj, &tunables_group);
	kobject_put(&tunables_kobj);
}

module_init(tunables_init);
module_exit(tunables_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Batching tunables in sysfs (static kobject, empty release)");
