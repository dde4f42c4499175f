// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: a platform driver registered with module_platform_driver()
 * stops its per-device timer with del_timer() in .remove.  At rmmod,
 * platform_driver_unregister() runs .remove and the module is freed while
 * the callback may still run on another CPU.
 */
#include <linux/module.h>
#include <linux/jiffies.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/timer.h>

struct baz_priv {
	struct timer_list timer;
	unsigned int count;
};

static void baz_timer(struct timer_list *t)
{
	struct baz_priv *priv = from_timer(priv, t, timer);

	priv->count++;
	mod_timer(&priv->timer, jiffies + HZ / 10);
}

static int baz_probe(struct platform_device *pdev)
{
	struct baz_priv *priv;

	priv = devm_kzalloc(&pdev->dev, sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return -ENOMEM;

	timer_setup(&priv->timer, baz_timer, 0);
	platform_set_drvdata(pdev, priv);
	mod_timer(&priv->timer, jiffies + HZ / 10);
	return 0;
}

static int baz_remove(struct platform_device *pdev)
{
	struct baz_priv *priv = platform_get_drvdata(pdev);

	del_timer(&priv->timer);
	dev_info(&pdev->dev, "%u ticks\n", priv->count);
	return 0;
}

static struct platform_driver baz_driver = {
	.probe		= baz_probe,
	.remove		= baz_remove,
	.driver		= {
		.name	= "baz",
	},
};

module_platform_driver(baz_driver);
MODULE_LICENSE("GPL");
