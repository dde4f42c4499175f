// SPDX-License-Identifier: GPL-2.0-only
/*
 * modlife_hold: take a reference on the kobjects behind the given sysfs
 * directories at load, drop them at unload.  It stands in for another
 * subsystem that holds a get_device()/kobject_get() while the module that
 * registered the object is unloaded: the last put then runs the object's
 * release wherever it lives.
 */
#include <linux/kernfs.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

#define HOLD_MAX	64

static char *path[HOLD_MAX];
static int npath;
module_param_array(path, charp, &npath, 0444);
MODULE_PARM_DESC(path, "sysfs directories, relative to /sys");

static struct kobject *held[HOLD_MAX];

/* Walk one component at a time: a namespaced directory is never entered,
 * where a lookup without a namespace would warn.
 */
static struct kobject *hold_lookup(const char *rel)
{
	struct kernfs_node *kn = kernel_kobj->sd->parent, *next;
	struct kobject *kobj = NULL;
	char *copy, *cur, *name;

	copy = kstrdup(rel, GFP_KERNEL);
	if (!copy)
		return NULL;
	kernfs_get(kn);
	cur = copy;
	while (kn && (name = strsep(&cur, "/"))) {
		if (!*name)
			continue;
		if (kernfs_type(kn) != KERNFS_DIR || kernfs_ns_enabled(kn)) {
			kernfs_put(kn);
			kn = NULL;
			break;
		}
		next = kernfs_find_and_get_ns(kn, name, NULL);
		kernfs_put(kn);
		kn = next;
	}
	if (kn && kernfs_type(kn) == KERNFS_DIR && kn->priv)
		kobj = kobject_get_unless_zero(kn->priv) ? kn->priv : NULL;
	if (kn)
		kernfs_put(kn);
	kfree(copy);
	return kobj;
}

static int __init hold_init(void)
{
	int i;

	for (i = 0; i < npath; i++) {
		held[i] = hold_lookup(path[i]);
		pr_info("modlife_hold: %s /sys/%s\n",
			held[i] ? "holding" : "not found", path[i]);
	}
	return 0;
}

static void __exit hold_exit(void)
{
	int i;

	for (i = 0; i < npath; i++) {
		if (!held[i])
			continue;
		pr_info("modlife_hold: dropping /sys/%s\n", path[i]);
		kobject_put(held[i]);
	}
}

module_init(hold_init);
module_exit(hold_exit);
MODULE_DESCRIPTION("hold references on sysfs objects across another module's unload");
MODULE_LICENSE("GPL");
