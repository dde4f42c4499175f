// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: the exit function itself drops the last module reference of a
 * kobject and waits for its release.  "cat /sys/kernel/corge/state" held
 * open across rmmod keeps the kobject, and rmmod hangs in the wait.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/completion.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

struct corge {
	struct kobject kobj;
	int state;
};

static struct corge *corge;
static DECLARE_COMPLETION(corge_gone);

static ssize_t state_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct corge *c = container_of(kobj, struct corge, kobj);

	return sysfs_emit(buf, "%d\n", c->state);
}

static struct kobj_attribute state_attr = __ATTR_RO(state);

static struct attribute *corge_attrs[] = {
	&state_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(corge);

static void corge_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct corge, kobj));
	complete(&corge_gone);
}

static struct kobj_type corge_ktype = {
	.release	= corge_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= corge_groups,
};

static int __init corge_init(void)
{
	int err;

	corge = kzalloc(sizeof(*corge), GFP_KERNEL);
	if (!corge)
		return -ENOMEM;
	err = kobject_init_and_add(&corge->kobj, &corge_ktype, kernel_kobj,
				   "corge");
	if (err)
		kobject_put(&corge->kobj);
	return err;
}

static void __exit corge_exit(void)
{
	kobject_del(&corge->kobj);
	kobject_put(&corge->kobj);
	corge = NULL;
	wait_for_completion(&corge_gone);
}

module_init(corge_init);
module_exit(corge_exit);
MODULE_LICENSE("GPL");
