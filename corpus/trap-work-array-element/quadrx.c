// SPDX-License-Identifier: GPL-2.0-only
/*
 * quadrx: four receive channels of a memory-mapped capture engine. The
 * interrupt handler hands a channel whose buffer ring runs low to its
 * refill work; the work posts fresh buffer addresses to the hardware.
 *
 * The refill work is queued through a pointer to the channel and cancelled
 * in .remove through the channel array of the device: the same
 * struct quadrx_chan member, named two ways.
 */
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/workqueue.h>

#define QUADRX_NCHAN		4
#define QUADRX_STATUS		0x00	/* bit n: channel n ring low */
#define QUADRX_POST(n)		(0x10 + 4 * (n))
#define QUADRX_RING_LEN		64

struct quadrx_chan {
	void __iomem *post;
	unsigned int next;
	struct work_struct refill_work;
};

struct quadrx {
	void __iomem *base;
	struct quadrx_chan chan[QUADRX_NCHAN];
};

static void quadrx_refill(struct work_struct *work)
{
	struct quadrx_chan *ch = container_of(work, struct quadrx_chan,
					      refill_work);
	unsigned int i;

	for (i = 0; i < QUADRX_RING_LEN / 2; i++)
		writel(ch->next++ % QUADRX_RING_LEN, ch->post);
}

static void quadrx_chan_init(struct quadrx_chan *ch, void __iomem *post)
{
	ch->post = post;
	ch->next = 0;
	INIT_WORK(&ch->refill_work, quadrx_refill);
}

static void quadrx_kick(struct quadrx_chan *ch)
{
	schedule_work(&ch->refill_work);
}

static irqreturn_t quadrx_irq(int irq, void *data)
{
	struct quadrx *qx = data;
	u32 low = readl(qx->base + QUADRX_STATUS);
	int n;

	if (!low)
		return IRQ_NONE;
	for (n = 0; n < QUADRX_NCHAN; n++)
		if (low & BIT(n))
			quadrx_kick(&qx->chan[n]);
	writel(low, qx->base + QUADRX_STATUS);
	return IRQ_HANDLED;
}

static int quadrx_probe(struct platform_device *pdev)
{
	struct quadrx *qx;
	int irq, n;

	qx = devm_kzalloc(&pdev->dev, sizeof(*qx), GFP_KERNEL);
	if (!qx)
		return -ENOMEM;
	qx->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(qx->base))
		return PTR_ERR(qx->base);
	for (n = 0; n < QUADRX_NCHAN; n++)
		quadrx_chan_init(&qx->chan[n], qx->base + QUADRX_POST(n));
	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;
	platform_set_drvdata(pdev, qx);
	return devm_request_irq(&pdev->dev, irq, quadrx_irq, 0, "quadrx", qx);
}

static int quadrx_remove(struct platform_device *pdev)
{
	struct quadrx *qx = platform_get_drvdata(pdev);
	int n;

	/* no new kicks: mask the engine's interrupt before cancelling */
	writel(0, qx->base + QUADRX_STATUS);
	disable_irq(platform_get_irq(pdev, 0));
	for (n = 0; n < QUADRX_NCHAN; n++)
		cancel_work_sync(&qx->chan[n].refill_work);
	return 0;
}

static struct platform_driver quadrx_driver = {
	.probe = quadrx_probe,
	.remove = quadrx_remove,
	.driver = {
		.name = "quadrx",
	},
};
module_platform_driver(quadrx_driver);

MODULE_DESCRIPTION("four-channel capture engine receive refill");
MODULE_LICENSE("GPL");
