// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: a static platform device with an empty release and platform
 * data, registered at init.  Its memory goes away at unload even if a
 * sysfs file of the device is still open.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/platform_device.h>

struct corge_pdata {
	int channels;
	bool inverted;
};

static struct corge_pdata corge_pdata = {
	.channels	= 4,
	.inverted	= false,
};

static void corge_pdev_release(struct device *dev)
{
	dev_dbg(dev, "released\n");
}

static struct platform_device corge_pdev = {
	.name	= "corge",
	.id	= PLATFORM_DEVID_NONE,
	.dev	= {
		.release	= corge_pdev_release,
		.platform_data	= &corge_pdata,
	},
};

static int corge_probe(struct platform_device *pdev)
{
	struct corge_pdata *pdata = dev_get_platdata(&pdev->dev);

	if (!pdata)
		return -EINVAL;
	dev_info(&pdev->dev, "%d channels\n", pdata->channels);
	return 0;
}

static struct platform_driver corge_driver = {
	.probe	= corge_probe,
	.driver	= {
		.name	= "corge",
	},
};

static int __init corge_init(void)
{
	int ret;

	ret = platform_driver_register(&corge_driver);
	if (ret)
		return ret;

	ret = platform_device_register(&corge_pdev);
	if (ret)
		goto err_driver;

	dev_info(&corge_pdev.dev, "registered\n");
	return 0;

err_driver:
	platform_driver_unregister(&corge_driver);
	return ret;
}

static void __exit corge_exit(void)
{
	platform_device_unregister(&corge_pdev);
	platform_driver_unregister(&corge_driver);
}

module_init(corge_init);
module_exit(corge_exit);
MODULE_LICENSE("GPL");
