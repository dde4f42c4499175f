// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: empty releases the patch cannot fix mechanically, so they are
 * only reported: a device_type release, a kobj_type release, and a device
 * release whose object is freed by a helper that is not right after the
 * put (adding a kfree() to the release would free it twice).
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/slab.h>

struct baz_unit {
	struct device dev;
	struct kobject stats;
	char *label;
};

static struct baz_unit *baz;

static void baz_type_release(struct device *dev)
{
}

static const struct device_type baz_unit_type = {
	.name		= "baz-unit",
	.release	= baz_type_release,
};

static void baz_stats_release(struct kobject *kobj)
{
	pr_debug("baz: stats %s released\n", kobject_name(kobj));
}

static struct kobj_type baz_stats_ktype = {
	.release	= baz_stats_release,
	.sysfs_ops	= &kobj_sysfs_ops,
};

static void baz_dev_release(struct device *dev)
{
	printk(KERN_DEBUG "baz: device released\n");
}

static void baz_free(struct baz_unit *unit)
{
	kfree(unit->label);
	kfree(unit);
}

static int __init baz_init(void)
{
	int err;

	baz = kzalloc(sizeof(*baz), GFP_KERNEL);
	if (!baz)
		return -ENOMEM;
	baz->label = kstrdup("baz0", GFP_KERNEL);

	baz->dev.type = &baz_unit_type;
	baz->dev.release = baz_dev_release;
	dev_set_name(&baz->dev, "%s", baz->label);
	err = device_register(&baz->dev);
	if (err) {
		put_device(&baz->dev);
		baz_free(baz);
		return err;
	}

	err = kobject_init_and_add(&baz->stats, &baz_stats_ktype,
				   &baz->dev.kobj, "stats");
	if (err) {
		kobject_put(&baz->stats);
		device_unregister(&baz->dev);
		baz_free(baz);
		return err;
	}
	return 0;
}

static void __exit baz_exit(void)
{
	kobject_put(&baz->stats);
	device_unregister(&baz->dev);
	baz_free(baz);
}

module_init(baz_init);
module_exit(baz_exit);
MODULE_LICENSE("GPL");
