// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: the docs example.  A static platform device whose release only
 * logs, and a static kobject under /sys/firmware, each registered with
 * the return value checked.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/platform_device.h>

static void foo_pdev_release(struct device *dev);

static struct platform_device foo_pdev = {
	.name	= "foo",
	.id	= -1,
	.dev	= { .release = foo_pdev_release },
};

static void foo_pdev_release(struct device *dev)
{
	pr_debug("foo: %s released\n", dev_name(dev));
}

static void foo_kobj_release(struct kobject *kobj)
{
	struct kobject *parent = kobj->parent;

	pr_debug("foo: released, parent %s\n", kobject_name(parent));
}

static const struct kobj_type foo_ktype = {
	.release	= foo_kobj_release,
};

static struct kobject foo_kobj;

static int foo_add_kobj(void)
{
	return kobject_init_and_add(&foo_kobj, &foo_ktype, firmware_kobj,
				    "foo");
}

static int __init foo_init(void)
{
	int err;

	err = platform_device_register(&foo_pdev);
	if (err)
		return err;
	pr_info("foo: %s registered\n", dev_name(&foo_pdev.dev));

	if (foo_add_kobj()) {
		kobject_put(&foo_kobj);
		platform_device_unregister(&foo_pdev);
		return -ENOMEM;
	}
	return 0;
}

static void __exit foo_exit(void)
{
	kobject_put(&foo_kobj);
	platform_device_unregister(&foo_pdev);
}

module_init(foo_init);
module_exit(foo_exit);
MODULE_LICENSE("GPL");
