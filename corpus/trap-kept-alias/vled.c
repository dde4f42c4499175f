// SPDX-License-Identifier: GPL-2.0-only
/*
 * vled: a status LED node (/dev/vled) of the one board device that has
 * it, lit on panic by a notifier.
 *
 * Both registrations are taken back, but not by the objects' names: the
 * remove gets the misc device back from the device's driver data, and the
 * exit function, defined before the notifier (which the header declares),
 * names it through that declaration. Not findings.
 */
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/miscdevice.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/panic_notifier.h>
#include <linux/platform_device.h>
#include "vled.h"

static void __iomem *vled_reg;

static void vled_exit_notifier(void)
{
	atomic_notifier_chain_unregister(&panic_notifier_list,
					 &vled_panic_nb);
}

static int vled_panic(struct notifier_block *nb, unsigned long event,
		      void *data)
{
	if (vled_reg)
		writel(1, vled_reg);
	return NOTIFY_DONE;
}

struct notifier_block vled_panic_nb = {
	.notifier_call	= vled_panic,
};

static ssize_t vled_write(struct file *file, const char __user *buf,
			  size_t len, loff_t *ppos)
{
	writel(len ? 1 : 0, vled_reg);
	return len;
}

static const struct file_operations vled_fops = {
	.owner	= THIS_MODULE,
	.write	= vled_write,
	.llseek	= noop_llseek,
};

static struct miscdevice vled_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "vled",
	.fops	= &vled_fops,
};

static int vled_probe(struct platform_device *pdev)
{
	vled_reg = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(vled_reg))
		return PTR_ERR(vled_reg);
	platform_set_drvdata(pdev, &vled_misc);
	return misc_register(&vled_misc);
}

static int vled_remove(struct platform_device *pdev)
{
	struct miscdevice *misc = platform_get_drvdata(pdev);

	misc_deregister(misc);
	return 0;
}

static const struct of_device_id vled_of_match[] = {
	{ .compatible = "acme,vled" },
	{ }
};
MODULE_DEVICE_TABLE(of, vled_of_match);

static struct platform_driver vled_driver = {
	.probe	= vled_probe,
	.remove	= vled_remove,
	.driver	= {
		.name		= "vled",
		.of_match_table	= vled_of_match,
	},
};

static int __init vled_init(void)
{
	int ret;

	ret = atomic_notifier_chain_register(&panic_notifier_list,
					     &vled_panic_nb);
	if (ret)
		return ret;
	ret = platform_driver_register(&vled_driver);
	if (ret)
		vled_exit_notifier();
	return ret;
}

static void __exit vled_exit(void)
{
	platform_driver_unregister(&vled_driver);
	vled_exit_notifier();
}

module_init(vled_init);
module_exit(vled_exit);
MODULE_DESCRIPTION("Status LED node");
MODULE_LICENSE("GPL");
