// SPDX-License-Identifier: GPL-2.0-only
/*
 * vbuzzer: static-pdev-bug with an error message that names the device
 * when its registration fails. The semantic patch's core allocation would
 * turn &vbuzzer_pdev.dev into &vbuzzer_pdev->dev on that error path, where
 * vbuzzer_pdev is an ERR_PTR(): modlife fix refuses that change.
 */
#include <linux/device.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

struct vbuzzer_platform_data {
	unsigned int freq_hz;
	unsigned int max_ms;
};

struct vbuzzer {
	const struct vbuzzer_platform_data *pdata;
	struct mutex lock;
	unsigned int beeps;
	unsigned int last_ms;
};

static struct vbuzzer_platform_data vbuzzer_pdata = {
	.freq_hz	= 2000,
	.max_ms		= 500,
};

static void vbuzzer_pdev_release(struct device *dev)
{
}

static struct platform_device vbuzzer_pdev = {
	.name	= "vbuzzer",
	.id	= -1,
	.dev	= {
		.release	= vbuzzer_pdev_release,
		.platform_data	= &vbuzzer_pdata,
	},
};

static ssize_t beep_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	struct vbuzzer *bz = dev_get_drvdata(dev);
	unsigned int ms;
	int ret;

	ret = kstrtouint(buf, 0, &ms);
	if (ret)
		return ret;
	if (ms > bz->pdata->max_ms)
		return -ERANGE;

	mutex_lock(&bz->lock);
	bz->beeps++;
	bz->last_ms = ms;
	mutex_unlock(&bz->lock);
	dev_dbg(dev, "beep %u ms at %u Hz\n", ms, bz->pdata->freq_hz);
	return count;
}
static DEVICE_ATTR_WO(beep);

static ssize_t beeps_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct vbuzzer *bz = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(bz->beeps));
}
static DEVICE_ATTR_RO(beeps);

static struct attribute *vbuzzer_attrs[] = {
	&dev_attr_beep.attr,
	&dev_attr_beeps.attr,
	NULL
};
ATTRIBUTE_GROUPS(vbuzzer);

static int vbuzzer_probe(struct platform_device *pdev)
{
	struct vbuzzer *bz;

	bz = devm_kzalloc(&pdev->dev, sizeof(*bz), GFP_KERNEL);
	if (!bz)
		return -ENOMEM;
	bz->pdata = dev_get_platdata(&pdev->dev);
	if (!bz->pdata)
		return -EINVAL;
	mutex_init(&bz->lock);
	platform_set_drvdata(pdev, bz);
	return 0;
}

static struct platform_driver vbuzzer_driver = {
	.probe	= vbuzzer_probe,
	.driver	= {
		.name		= "vbuzzer",
		.dev_groups	= vbuzzer_groups,
	},
};

static int __init vbuzzer_init(void)
{
	int ret;

	ret = platform_driver_register(&vbuzzer_driver);
	if (ret)
		return ret;

	ret = platform_device_register(&vbuzzer_pdev);
	if (ret) {
		dev_err(&vbuzzer_pdev.dev, "cannot register: %d\n", ret);
		platform_driver_unregister(&vbuzzer_driver);
		return ret;
	}
	return 0;
}

static void __exit vbuzzer_exit(void)
{
	platform_device_unregister(&vbuzzer_pdev);
	platform_driver_unregister(&vbuzzer_driver);
}

module_init(vbuzzer_init);
module_exit(vbuzzer_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Board-file buzzer (static platform_device, empty release)");
