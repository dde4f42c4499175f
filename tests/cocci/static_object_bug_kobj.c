// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: a static kobject with a do-nothing ktype release, added under
 * /sys/kernel.  An open attribute file keeps a reference that outlives
 * the module's data.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>

static int garply_level;

static ssize_t level_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%d\n", garply_level);
}

static ssize_t level_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	int ret;

	ret = kstrtoint(buf, 0, &garply_level);
	return ret ? ret : count;
}

static struct kobj_attribute level_attr = __ATTR_RW(level);

static struct attribute *garply_attrs[] = {
	&level_attr.attr,
	NULL,
};

static const struct attribute_group garply_group = {
	.attrs = garply_attrs,
};

static void garply_kobj_release(struct kobject *kobj)
{
	pr_debug("garply: %s released\n", kobject_name(kobj));
}

static struct kobj_type garply_ktype = {
	.release	= garply_kobj_release,
	.sysfs_ops	= &kobj_sysfs_ops,
};

static struct kobject garply_kobj;

static int __init garply_init(void)
{
	int ret;

	ret = kobject_init_and_add(&garply_kobj, &garply_ktype, kernel_kobj,
				   "garply");
	if (ret) {
		kobject_put(&garply_kobj);
		return ret;
	}

	ret = sysfs_create_group(&garply_kobj, &garply_group);
	if (ret) {
		kobject_put(&garply_kobj);
		return ret;
	}
	return 0;
}

static void __exit garply_exit(void)
{
	sysfs_remove_group(&garply_kobj, &garply_group);
	kobject_put(&garply_kobj);
}

module_init(garply_init);
module_exit(garply_exit);
MODULE_LICENSE("GPL");
