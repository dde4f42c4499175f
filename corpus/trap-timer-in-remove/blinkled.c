// SPDX-License-Identifier: GPL-2.0-only
/*
 * blinkled: status LED behind a memory-mapped register, blinked by a
 * timer at a rate set through the "period_ms" device attribute.
 *
 * The timer is stopped with del_timer_sync() in .remove, which module exit
 * reaches through module_platform_driver()'s driver unregister.
 */
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/sysfs.h>
#include <linux/timer.h>

#define BLINKLED_REG		0x00
#define BLINKLED_ON		BIT(0)
#define BLINKLED_DEF_MS		500

struct blinkled {
	void __iomem *base;
	struct timer_list timer;
	unsigned int period_ms;
	bool on;
};

static void blinkled_toggle(struct timer_list *t)
{
	struct blinkled *bl = from_timer(bl, t, timer);

	bl->on = !bl->on;
	writel(bl->on ? BLINKLED_ON : 0, bl->base + BLINKLED_REG);
	mod_timer(&bl->timer,
		  jiffies + msecs_to_jiffies(READ_ONCE(bl->period_ms)));
}

static ssize_t period_ms_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	struct blinkled *bl = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(bl->period_ms));
}

static ssize_t period_ms_store(struct device *dev, struct device_attribute *attr,
			       const char *buf, size_t count)
{
	struct blinkled *bl = dev_get_drvdata(dev);
	unsigned int ms;
	int ret;

	ret = kstrtouint(buf, 0, &ms);
	if (ret)
		return ret;
	if (ms < 50 || ms > 10000)
		return -ERANGE;
	WRITE_ONCE(bl->period_ms, ms);
	return count;
}
static DEVICE_ATTR_RW(period_ms);

static struct attribute *blinkled_attrs[] = {
	&dev_attr_period_ms.attr,
	NULL
};
ATTRIBUTE_GROUPS(blinkled);

static int blinkled_probe(struct platform_device *pdev)
{
	struct blinkled *bl;

	bl = devm_kzalloc(&pdev->dev, sizeof(*bl), GFP_KERNEL);
	if (!bl)
		return -ENOMEM;
	bl->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(bl->base))
		return PTR_ERR(bl->base);
	bl->period_ms = BLINKLED_DEF_MS;
	platform_set_drvdata(pdev, bl);

	timer_setup(&bl->timer, blinkled_toggle, 0);
	mod_timer(&bl->timer, jiffies + msecs_to_jiffies(bl->period_ms));
	return 0;
}

static int blinkled_remove(struct platform_device *pdev)
{
	struct blinkled *bl = platform_get_drvdata(pdev);

	del_timer_sync(&bl->timer);
	writel(0, bl->base + BLINKLED_REG);
	return 0;
}

static struct platform_driver blinkled_driver = {
	.probe	= blinkled_probe,
	.remove	= blinkled_remove,
	.driver	= {
		.name		= "blinkled",
		.dev_groups	= blinkled_groups,
	},
};
module_platform_driver(blinkled_driver);

MODULE_ALIAS("platform:blinkled");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Blinking status LED (timer stopped in .remove)");
