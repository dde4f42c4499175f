// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: a static struct device that is never registered, only used as
 * the context of dev_printk() messages, next to core-allocated objects
 * (platform_device_register_simple(), kobject_create_and_add()).
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/platform_device.h>

static struct device spam_log_dev = {
	.init_name	= "spam",
};

static struct platform_device *spam_pdev;
static struct kobject *spam_kobj;

static int __init spam_init(void)
{
	spam_pdev = platform_device_register_simple("spam", -1, NULL, 0);
	if (IS_ERR(spam_pdev)) {
		dev_err(&spam_log_dev, "no platform device: %ld\n",
			PTR_ERR(spam_pdev));
		return PTR_ERR(spam_pdev);
	}

	spam_kobj = kobject_create_and_add("spam", kernel_kobj);
	if (!spam_kobj) {
		platform_device_unregister(spam_pdev);
		return -ENOMEM;
	}
	dev_info(&spam_log_dev, "ready\n");
	return 0;
}

static void __exit spam_exit(void)
{
	kobject_put(spam_kobj);
	platform_device_unregister(spam_pdev);
	dev_info(&spam_log_dev, "gone\n");
}

module_init(spam_init);
module_exit(spam_exit);
MODULE_LICENSE("GPL");
