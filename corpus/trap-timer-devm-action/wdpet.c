// SPDX-License-Identifier: GPL-2.0-only
/*
 * wdpet: keeps an external hardware watchdog fed from a kernel timer until
 * user space takes over (writing 1 to the "handover" attribute).
 *
 * The driver has no .remove: probe registers a devres action that stops
 * the timer with del_timer_sync(), and the driver core runs devres actions
 * when the device is unbound, which module exit does through the driver
 * unregister.
 */
#include <linux/device.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/sysfs.h>
#include <linux/timer.h>

#define WDPET_KICK	0x00
#define WDPET_MAGIC	0x5a
#define WDPET_PERIOD	msecs_to_jiffies(500)

struct wdpet {
	void __iomem *base;
	struct timer_list timer;
	bool handed_over;
};

static void wdpet_kick(struct timer_list *t)
{
	struct wdpet *wd = from_timer(wd, t, timer);

	if (READ_ONCE(wd->handed_over))
		return;
	writeb(WDPET_MAGIC, wd->base + WDPET_KICK);
	mod_timer(&wd->timer, jiffies + WDPET_PERIOD);
}

static ssize_t handover_store(struct device *dev,
			      struct device_attribute *attr,
			      const char *buf, size_t count)
{
	struct wdpet *wd = dev_get_drvdata(dev);
	bool on;
	int ret = kstrtobool(buf, &on);

	if (ret)
		return ret;
	WRITE_ONCE(wd->handed_over, on);
	if (!on)
		mod_timer(&wd->timer, jiffies + WDPET_PERIOD);
	return count;
}
static DEVICE_ATTR_WO(handover);

static struct attribute *wdpet_attrs[] = {
	&dev_attr_handover.attr,
	NULL
};
ATTRIBUTE_GROUPS(wdpet);

static void wdpet_park(void *data)
{
	struct wdpet *wd = data;

	del_timer_sync(&wd->timer);
}

static int wdpet_probe(struct platform_device *pdev)
{
	struct wdpet *wd;

	wd = devm_kzalloc(&pdev->dev, sizeof(*wd), GFP_KERNEL);
	if (!wd)
		return -ENOMEM;
	wd->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(wd->base))
		return PTR_ERR(wd->base);
	platform_set_drvdata(pdev, wd);
	timer_setup(&wd->timer, wdpet_kick, 0);
	mod_timer(&wd->timer, jiffies + WDPET_PERIOD);
	return devm_add_action_or_reset(&pdev->dev, wdpet_park, wd);
}

static struct platform_driver wdpet_driver = {
	.probe = wdpet_probe,
	.driver = {
		.name = "wdpet",
		.dev_groups = wdpet_groups,
	},
};
module_platform_driver(wdpet_driver);

MODULE_DESCRIPTION("hardware watchdog feeder until user space takes over");
MODULE_LICENSE("GPL");
