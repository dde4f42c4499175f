// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: pointer form.  The per-channel cdev is reached through a pointer
 * and registered with cdev_device_add(); its owner is never set.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/cdev.h>
#include <linux/device.h>

struct garply_chan {
	struct cdev cdev;
	struct device dev;
};

static const struct file_operations garply_fops = {
	.unlocked_ioctl	= garply_ioctl,
};

static int garply_chan_register(struct garply_chan *chan, dev_t devt)
{
	struct cdev *cdev = &chan->cdev;

	cdev_init(cdev, &garply_fops);
	chan->dev.devt = devt;
	return cdev_device_add(cdev, &chan->dev);
}

static int garply_probe(struct platform_device *pdev)
{
	struct garply_chan *chan;

	chan = devm_kzalloc(&pdev->dev, sizeof(*chan), GFP_KERNEL);
	if (!chan)
		return -ENOMEM;
	device_initialize(&chan->dev);
	return garply_chan_register(chan, garply_devt);
}

static struct platform_driver garply_driver = {
	.probe	= garply_probe,
	.driver	= {
		.name = "garply",
	},
};

static int __init garply_init(void)
{
	return platform_driver_register(&garply_driver);
}

static void __exit garply_exit(void)
{
	platform_driver_unregister(&garply_driver);
}

module_init(garply_init);
module_exit(garply_exit);
