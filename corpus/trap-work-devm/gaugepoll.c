// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaugepoll: memory-mapped battery gauge without an interrupt. A delayed
 * work item samples the cell voltage every five seconds; the latest value
 * and the minimum seen are device attributes.
 *
 * The driver has no .remove: devm_delayed_work_autocancel() registers a
 * devres action that cancels the work (cancel_delayed_work_sync()) when the
 * driver is unbound, which module exit does through the driver unregister.
 */
#include <linux/devm-helpers.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#define GAUGE_VCELL		0x00	/* cell voltage, 1.25 mV units */
#define GAUGE_VCELL_MASK	0x0fff
#define GAUGE_PERIOD		msecs_to_jiffies(5000)

struct gaugepoll {
	void __iomem *base;
	struct delayed_work sample_work;
	spinlock_t lock;		/* protects the samples */
	unsigned int vcell_mv;
	unsigned int vmin_mv;
};

static void gaugepoll_sample(struct work_struct *work)
{
	struct gaugepoll *gp = container_of(to_delayed_work(work),
					   struct gaugepoll, sample_work);
	u32 raw = readl(gp->base + GAUGE_VCELL) & GAUGE_VCELL_MASK;
	unsigned int mv = raw * 125 / 100;

	spin_lock(&gp->lock);
	gp->vcell_mv = mv;
	if (!gp->vmin_mv || mv < gp->vmin_mv)
		gp->vmin_mv = mv;
	spin_unlock(&gp->lock);

	schedule_delayed_work(&gp->sample_work, GAUGE_PERIOD);
}

static ssize_t voltage_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct gaugepoll *gp = dev_get_drvdata(dev);
	unsigned int now, min;

	spin_lock(&gp->lock);
	now = gp->vcell_mv;
	min = gp->vmin_mv;
	spin_unlock(&gp->lock);
	return sysfs_emit(buf, "%u %u\n", now, min);
}
static DEVICE_ATTR_RO(voltage);

static struct attribute *gaugepoll_attrs[] = {
	&dev_attr_voltage.attr,
	NULL
};
ATTRIBUTE_GROUPS(gaugepoll);

static int gaugepoll_probe(struct platform_device *pdev)
{
	struct gaugepoll *gp;
	int ret;

	gp = devm_kzalloc(&pdev->dev, sizeof(*gp), GFP_KERNEL);
	if (!gp)
		return -ENOMEM;
	gp->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(gp->base))
		return PTR_ERR(gp->base);
	spin_lock_init(&gp->lock);
	platform_set_drvdata(pdev, gp);

	ret = devm_delayed_work_autocancel(&pdev->dev, &gp->sample_work,
					   gaugepoll_sample);
	if (ret)
		return ret;
	schedule_delayed_work(&gp->sample_work, 0);
	return 0;
}

static struct platform_driver gaugepoll_driver = {
	.probe	= gaugepoll_probe,
	.driver	= {
		.name		= "gaugepoll",
		.dev_groups	= gaugepoll_groups,
	},
};
module_platform_driver(gaugepoll_driver);

MODULE_ALIAS("platform:gaugepoll");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Polled battery gauge (work cancelled by devm_delayed_work_autocancel())");
