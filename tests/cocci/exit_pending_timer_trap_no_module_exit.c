// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: a platform driver that cannot be unloaded (builtin_platform_driver(),
 * no module_exit(), unbinding disabled) stops its timer with del_timer() in
 * .remove.  Module unload is not a concern here.  Nothing to report.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/timer.h>

struct corge_priv {
	struct timer_list timer;
	unsigned int count;
};

static void corge_timer(struct timer_list *t)
{
	struct corge_priv *priv = from_timer(priv, t, timer);

	priv->count++;
	mod_timer(&priv->timer, jiffies + HZ);
}

static int corge_probe(struct platform_device *pdev)
{
	struct corge_priv *priv;

	priv = devm_kzalloc(&pdev->dev, sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return -ENOMEM;

	timer_setup(&priv->timer, corge_timer, 0);
	platform_set_drvdata(pdev, priv);
	mod_timer(&priv->timer, jiffies + HZ);
	return 0;
}

static int corge_remove(struct platform_device *pdev)
{
	struct corge_priv *priv = platform_get_drvdata(pdev);

	del_timer(&priv->timer);
	return 0;
}

static struct platform_driver corge_driver = {
	.probe		= corge_probe,
	.remove		= corge_remove,
	.driver		= {
		.name			= "corge",
		.suppress_bind_attrs	= true,
	},
};
builtin_platform_driver(corge_driver);
MODULE_LICENSE("GPL");
