// SPDX-License-Identifier: GPL-2.0-only
/*
 * nsgroups: a /sys/kernel/nsgroups directory with one group kobject per
 * network namespace (here: init_net's).
 *
 * The kset and the kobject are static module data and their kobj_type
 * releases do nothing. The kset could come from kset_create_and_add(),
 * but its children live in network namespaces (child_ns_type) and the
 * group is tagged with one (namespace): neither core constructor can do
 * that, so both must be kzalloc()ed and freed in their releases.
 */
#include <linux/kobject.h>
#include <linux/kobject_ns.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/net_namespace.h>

static struct kset nsgroups_kset;
static struct kobject nsgroups_init_net;

static const struct kobj_ns_type_operations *
nsgroups_child_ns_type(struct kobject *kobj)
{
	return &net_ns_type_operations;
}

static void nsgroups_kset_release(struct kobject *kobj)
{
	pr_debug("nsgroups: kset released\n");
}

static const struct kobj_type nsgroups_kset_ktype = {
	.release	= nsgroups_kset_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.child_ns_type	= nsgroups_child_ns_type,
};

static const void *nsgroups_namespace(struct kobject *kobj)
{
	return &init_net;
}

static void nsgroups_group_release(struct kobject *kobj)
{
}

static const struct kobj_type nsgroups_group_ktype = {
	.release	= nsgroups_group_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.namespace	= nsgroups_namespace,
};

static int __init nsgroups_init(void)
{
	int ret;

	ret = kobject_set_name(&nsgroups_kset.kobj, "nsgroups");
	if (ret)
		return ret;
	nsgroups_kset.kobj.parent = kernel_kobj;
	nsgroups_kset.kobj.ktype = &nsgroups_kset_ktype;
	ret = kset_register(&nsgroups_kset);
	if (ret) {
		kfree_const(nsgroups_kset.kobj.name);
		return ret;
	}

	ret = kobject_init_and_add(&nsgroups_init_net, &nsgroups_group_ktype,
				   &nsgroups_kset.kobj, "init_net");
	if (ret) {
		kobject_put(&nsgroups_init_net);
		kset_unregister(&nsgroups_kset);
	}
	return ret;
}

static void __exit nsgroups_exit(void)
{
	kobject_put(&nsgroups_init_net);
	kset_unregister(&nsgroups_kset);
}

module_init(nsgroups_init);
module_exit(nsgroups_exit);

MODULE_DESCRIPTION("Per-namespace group directories in sysfs");
MODULE_LICENSE("GPL");
