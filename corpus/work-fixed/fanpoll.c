// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanpoll: memory-mapped fan tachometer without an interrupt line. The
 * driver polls the pulse counter every second from a delayed work item
 * and raises the fan duty when the speed drops below a threshold.
 *
 * .remove cancels the self-rearming poll work (cancel_delayed_work_sync()
 * also stops a re-arm from a running instance) before handing the fan back
 * to the controller; module exit reaches it through the driver unregister.
 */
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/workqueue.h>

#define FANPOLL_PULSES		0x00	/* tach pulses since last read (clear on read) */
#define FANPOLL_DUTY		0x04	/* PWM duty, 0..255 */
#define FANPOLL_CTRL		0x08
#define FANPOLL_CTRL_MANUAL	BIT(0)

#define FANPOLL_PERIOD		msecs_to_jiffies(1000)
#define FANPOLL_MIN_RPM		600
#define FANPOLL_PULSES_PER_REV	2

struct fanpoll {
	void __iomem *base;
	struct device *dev;
	struct delayed_work poll_work;
	unsigned int rpm;
	u8 duty;
};

static void fanpoll_poll(struct work_struct *work)
{
	struct fanpoll *fp = container_of(to_delayed_work(work), struct fanpoll,
					  poll_work);
	u32 pulses = readl(fp->base + FANPOLL_PULSES);

	fp->rpm = pulses * 60 / FANPOLL_PULSES_PER_REV;
	if (fp->rpm < FANPOLL_MIN_RPM && fp->duty < 255) {
		fp->duty = min_t(unsigned int, fp->duty + 32, 255);
		writel(fp->duty, fp->base + FANPOLL_DUTY);
		dev_dbg(fp->dev, "%u rpm, duty raised to %u\n", fp->rpm, fp->duty);
	}
	schedule_delayed_work(&fp->poll_work, FANPOLL_PERIOD);
}

static int fanpoll_probe(struct platform_device *pdev)
{
	struct fanpoll *fp;

	fp = devm_kzalloc(&pdev->dev, sizeof(*fp), GFP_KERNEL);
	if (!fp)
		return -ENOMEM;

	fp->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(fp->base))
		return PTR_ERR(fp->base);
	fp->dev = &pdev->dev;
	fp->duty = 128;
	platform_set_drvdata(pdev, fp);

	writel(fp->duty, fp->base + FANPOLL_DUTY);
	writel(FANPOLL_CTRL_MANUAL, fp->base + FANPOLL_CTRL);
	readl(fp->base + FANPOLL_PULSES);	/* clear the counter */

	INIT_DELAYED_WORK(&fp->poll_work, fanpoll_poll);
	schedule_delayed_work(&fp->poll_work, FANPOLL_PERIOD);
	return 0;
}

static int fanpoll_remove(struct platform_device *pdev)
{
	struct fanpoll *fp = platform_get_drvdata(pdev);

	cancel_delayed_work_sync(&fp->poll_work);
	/* hand the fan back to the controller's automatic curve */
	writel(0, fp->base + FANPOLL_CTRL);
	return 0;
}

static struct platform_driver fanpoll_driver = {
	.probe	= fanpoll_probe,
	.remove	= fanpoll_remove,
	.driver	= {
		.name = "fanpoll",
	},
};
module_platform_driver(fanpoll_driver);

MODULE_ALIAS("platform:fanpoll");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Polled fan tachometer (poll work cancelled on remove)");
