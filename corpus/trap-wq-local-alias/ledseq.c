// SPDX-License-Identifier: GPL-2.0-only
/*
 * ledseq: plays blink sequences on a memory-mapped LED bank. Each write of
 * the "pattern" attribute queues one step per byte on the device's own
 * ordered workqueue.
 *
 * .remove takes the workqueue out of the device structure into a local
 * variable before destroying it, so that a late store sees NULL and
 * refuses: destroy_workqueue() through the local still drains every
 * queued step before the module can go.
 */
#include <linux/io.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#define LEDSEQ_OUT	0x00

struct ledseq_step {
	struct work_struct work;
	void __iomem *reg;
	u8 value;
};

struct ledseq {
	void __iomem *base;
	struct mutex lock;		/* protects wq */
	struct workqueue_struct *wq;
};

static void ledseq_step_fn(struct work_struct *work)
{
	struct ledseq_step *st = container_of(work, struct ledseq_step, work);

	writeb(st->value, st->reg);
	kfree(st);
}

static ssize_t pattern_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct ledseq *ls = dev_get_drvdata(dev);
	size_t i;
	int ret = count;

	mutex_lock(&ls->lock);
	for (i = 0; i < count && ls->wq; i++) {
		struct ledseq_step *st = kzalloc(sizeof(*st), GFP_KERNEL);

		if (!st) {
			ret = -ENOMEM;
			break;
		}
		st->reg = ls->base + LEDSEQ_OUT;
		st->value = buf[i];
		INIT_WORK(&st->work, ledseq_step_fn);
		queue_work(ls->wq, &st->work);
	}
	if (!ls->wq)
		ret = -ENODEV;
	mutex_unlock(&ls->lock);
	return ret;
}
static DEVICE_ATTR_WO(pattern);

static struct attribute *ledseq_attrs[] = {
	&dev_attr_pattern.attr,
	NULL
};
ATTRIBUTE_GROUPS(ledseq);

static int ledseq_probe(struct platform_device *pdev)
{
	struct ledseq *ls;

	ls = devm_kzalloc(&pdev->dev, sizeof(*ls), GFP_KERNEL);
	if (!ls)
		return -ENOMEM;
	ls->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(ls->base))
		return PTR_ERR(ls->base);
	mutex_init(&ls->lock);
	ls->wq = alloc_ordered_workqueue("ledseq", 0);
	if (!ls->wq)
		return -ENOMEM;
	platform_set_drvdata(pdev, ls);
	return 0;
}

static int ledseq_remove(struct platform_device *pdev)
{
	struct ledseq *ls = platform_get_drvdata(pdev);
	struct workqueue_struct *wq;

	mutex_lock(&ls->lock);
	wq = ls->wq;
	ls->wq = NULL;
	mutex_unlock(&ls->lock);
	destroy_workqueue(wq);
	return 0;
}

static struct platform_driver ledseq_driver = {
	.probe = ledseq_probe,
	.remove = ledseq_remove,
	.driver = {
		.name = "ledseq",
		.dev_groups = ledseq_groups,
	},
};
module_platform_driver(ledseq_driver);

MODULE_DESCRIPTION("LED bank blink sequencer");
MODULE_LICENSE("GPL");
