// SPDX-License-Identifier: GPL-2.0-only
/*
 * calsense: memory-mapped humidity sensor that needs a slow calibration
 * pass after power-up. Two delayed work items: a one-shot calibration and
 * a self-rearming sample poll started once calibration is done.
 *
 * .remove waits for a pending calibration with flush_delayed_work() but
 * forgets the poll work, which keeps re-arming itself: after rmmod it
 * runs calsense_poll() from freed module text. A flush of one delayed
 * work says nothing about another (flush_delayed_work() itself flushes
 * "a delayed_work", any of them, by its type alone).
 */
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/workqueue.h>

#define CALSENSE_SAMPLE		0x00	/* relative humidity, 0.01 % */
#define CALSENSE_CAL		0x04	/* write 1: calibrate; reads 0 when done */

#define CALSENSE_CAL_DELAY	msecs_to_jiffies(500)
#define CALSENSE_PERIOD		msecs_to_jiffies(2000)

struct calsense {
	void __iomem *base;
	struct device *dev;
	struct delayed_work cal_work;
	struct delayed_work poll_work;
	u32 last;
};

static void calsense_poll(struct work_struct *work)
{
	struct calsense *cs = container_of(to_delayed_work(work),
					   struct calsense, poll_work);

	cs->last = readl(cs->base + CALSENSE_SAMPLE);
	dev_dbg(cs->dev, "humidity %u.%02u %%\n", cs->last / 100,
		cs->last % 100);
	schedule_delayed_work(&cs->poll_work, CALSENSE_PERIOD);
}

static void calsense_calibrated(struct work_struct *work)
{
	struct calsense *cs = container_of(to_delayed_work(work),
					   struct calsense, cal_work);

	if (readl(cs->base + CALSENSE_CAL)) {
		/* still calibrating: look again later */
		schedule_delayed_work(&cs->cal_work, CALSENSE_CAL_DELAY);
		return;
	}
	schedule_delayed_work(&cs->poll_work, 0);
}

static int calsense_probe(struct platform_device *pdev)
{
	struct calsense *cs;

	cs = devm_kzalloc(&pdev->dev, sizeof(*cs), GFP_KERNEL);
	if (!cs)
		return -ENOMEM;
	cs->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(cs->base))
		return PTR_ERR(cs->base);
	cs->dev = &pdev->dev;
	platform_set_drvdata(pdev, cs);

	INIT_DELAYED_WORK(&cs->cal_work, calsense_calibrated);
	INIT_DELAYED_WORK(&cs->poll_work, calsense_poll);
	writel(1, cs->base + CALSENSE_CAL);
	schedule_delayed_work(&cs->cal_work, CALSENSE_CAL_DELAY);
	return 0;
}

static int calsense_remove(struct platform_device *pdev)
{
	struct calsense *cs = platform_get_drvdata(pdev);

	flush_delayed_work(&cs->cal_work);
	return 0;
}

static const struct of_device_id calsense_of_match[] = {
	{ .compatible = "example,calsense" },
	{ }
};
MODULE_DEVICE_TABLE(of, calsense_of_match);

static struct platform_driver calsense_driver = {
	.driver = {
		.name = "calsense",
		.of_match_table = calsense_of_match,
	},
	.probe = calsense_probe,
	.remove = calsense_remove,
};
module_platform_driver(calsense_driver);

MODULE_DESCRIPTION("Calibrating humidity sensor polled from delayed work");
MODULE_LICENSE("GPL");
