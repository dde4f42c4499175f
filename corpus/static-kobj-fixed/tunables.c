// SPDX-License-Identifier: GPL-2.0-only
/*
 * tunables: runtime knobs under /sys/kernel/tunables for a batching
 * engine (batch size and flush threshold).
 *
 * The directory comes from kobject_create_and_add(): the kobject and its
 * release belong to the core, and only the attributes are module data
 * (sysfs_remove_group() drains their users before exit returns).
 */
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>

static DEFINE_MUTEX(tunables_lock);
static unsigned int batch_size = 32;
static unsigned int flush_threshold = 128;

static struct kobject *tunables_kobj;

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

static int __init tunables_init(void)
{
	int ret;

	tunables_kobj = kobject_create_and_add("tunables", kernel_kobj);
	if (!tunables_kobj)
		return -ENOMEM;

	ret = sysfs_create_group(tunables_kobj, &tunables_group);
	if (ret)
		kobject_put(tunables_kobj);
	return ret;
}

static void __exit tunables_exit(void)
{
	sysfs_remove_group(tunables_kobj, &tunables_group);
	kobject_put(tunables_kobj);
}

module_init(tunables_init);
module_exit(tunables_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Batching tunables in sysfs (core-allocated kobject)");
