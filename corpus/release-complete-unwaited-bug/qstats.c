// SPDX-License-Identifier: GPL-2.0-only
/*
 * qstats: queue statistics under /sys/kernel/qstats, one kobject that
 * keeps a completion for whoever wants to wait for its release (nilfs2's
 * sysfs groups do the same).
 *
 * Nothing waits for the completion, so the complete() that ends the
 * release lets nothing go: it is not a return into a freed module. But
 * the release is module text, and the kobject's last put can come after
 * the exit (a delayed release, CONFIG_DEBUG_KOBJECT_RELEASE): reported
 * as a release in module text, at the kobj_type.
 */
#include <linux/completion.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

struct qstats {
	struct kobject kobj;
	struct completion released;
	unsigned long enqueued;
};

static struct qstats *qstats;

static ssize_t enqueued_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct qstats *q = container_of(kobj, struct qstats, kobj);

	return sysfs_emit(buf, "%lu\n", READ_ONCE(q->enqueued));
}
static struct kobj_attribute enqueued_attr = __ATTR_RO(enqueued);

static struct attribute *qstats_attrs[] = {
	&enqueued_attr.attr,
	NULL
};
ATTRIBUTE_GROUPS(qstats);

static void qstats_release(struct kobject *kobj)
{
	struct qstats *q = container_of(kobj, struct qstats, kobj);

	complete(&q->released);
}

static const struct kobj_type qstats_ktype = {
	.release	= qstats_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= qstats_groups,
};

static int __init qstats_init(void)
{
	int ret;

	qstats = kzalloc(sizeof(*qstats), GFP_KERNEL);
	if (!qstats)
		return -ENOMEM;
	init_completion(&qstats->released);
	ret = kobject_init_and_add(&qstats->kobj, &qstats_ktype, kernel_kobj,
				   "qstats");
	if (ret)
		kobject_put(&qstats->kobj);
	return ret;
}

static void __exit qstats_exit(void)
{
	kobject_put(&qstats->kobj);
}

module_init(qstats_init);
module_exit(qstats_exit);

MODULE_DESCRIPTION("Queue statistics in sysfs");
MODULE_LICENSE("GPL");
