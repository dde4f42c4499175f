// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: registered static objects that the patch cannot convert
 * safely, so they are only reported: platform data filled in before
 * registration (the pointer would still be NULL there), a DMA mask, a
 * release that does real work, a kobject named from a format, and an
 * unchecked registration followed by a dereference (it would dereference
 * an ERR_PTR() when the registration fails).
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/kobject.h>
#include <linux/platform_device.h>

struct fred_pdata {
	int irq;
};

static struct fred_pdata fred_pdata;
static int fred_irq = 5;
static u64 fred_dma_mask = DMA_BIT_MASK(32);
static DECLARE_COMPLETION(fred_dma_released);

static struct platform_device fred_pdev = {
	.name	= "fred",
	.id	= -1,
};

static void fred_dma_release(struct device *dev)
{
	complete(&fred_dma_released);
}

static struct platform_device fred_dma_pdev = {
	.name	= "fred-dma",
	.id	= -1,
	.dev	= {
		.release		= fred_dma_release,
		.dma_mask		= &fred_dma_mask,
		.coherent_dma_mask	= DMA_BIT_MASK(32),
	},
};

static struct platform_device fred_leds = {
	.name	= "fred-leds",
	.id	= -1,
};

static void fred_kobj_release(struct kobject *kobj)
{
}

static struct kobj_type fred_ktype = {
	.release	= fred_kobj_release,
	.sysfs_ops	= &kobj_sysfs_ops,
};

static struct kobject fred_kobj;

static int __init fred_init(void)
{
	int ret;

	fred_pdata.irq = fred_irq;
	fred_pdev.dev.platform_data = &fred_pdata;
	ret = platform_device_register(&fred_pdev);
	if (ret)
		return ret;

	ret = platform_device_register(&fred_dma_pdev);
	if (ret)
		goto err_pdev;

	ret = kobject_init_and_add(&fred_kobj, &fred_ktype, NULL, "fred%d",
				   fred_irq);
	if (ret)
		goto err_kobj;

	/* The LEDs are optional. */
	platform_device_register(&fred_leds);
	dev_dbg(&fred_leds.dev, "LEDs registered\n");
	return 0;

err_kobj:
	kobject_put(&fred_kobj);
	platform_device_unregister(&fred_dma_pdev);
err_pdev:
	platform_device_unregister(&fred_pdev);
	return ret;
}

static void __exit fred_exit(void)
{
	platform_device_unregister(&fred_leds);
	kobject_put(&fred_kobj);
	platform_device_unregister(&fred_dma_pdev);
	platform_device_unregister(&fred_pdev);
}

module_init(fred_init);
module_exit(fred_exit);
MODULE_LICENSE("GPL");
