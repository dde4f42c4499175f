// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpanel: a class of virtual display panels with a "brightness" attribute
 * each, /sys/class/vpanel/vpanel0..3.
 *
 * The class is a static struct class registered with class_register():
 * struct class is not a kobject (its kobjects live in the core's
 * subsys_private) and .dev_release is not set. The panel devices come
 * from device_create(), which allocates and releases them in the core.
 */
#include <linux/device.h>
#include <linux/module.h>
#include <linux/mutex.h>

#define VPANEL_COUNT		4
#define VPANEL_MAX_BRIGHTNESS	255

struct vpanel {
	struct device *dev;
	struct mutex lock;
	unsigned int brightness;
};

static struct vpanel vpanels[VPANEL_COUNT];

static ssize_t brightness_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct vpanel *vp = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(vp->brightness));
}

static ssize_t brightness_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	struct vpanel *vp = dev_get_drvdata(dev);
	unsigned int val;
	int ret;

	ret = kstrtouint(buf, 0, &val);
	if (ret)
		return ret;
	if (val > VPANEL_MAX_BRIGHTNESS)
		return -ERANGE;

	mutex_lock(&vp->lock);
	vp->brightness = val;
	mutex_unlock(&vp->lock);
	return count;
}
static DEVICE_ATTR_RW(brightness);

static struct attribute *vpanel_attrs[] = {
	&dev_attr_brightness.attr,
	NULL
};
ATTRIBUTE_GROUPS(vpanel);

static struct class vpanel_class = {
	.name		= "vpanel",
	.owner		= THIS_MODULE,
	.dev_groups	= vpanel_groups,
};

static int __init vpanel_init(void)
{
	int i, ret;

	ret = class_register(&vpanel_class);
	if (ret)
		return ret;

	for (i = 0; i < VPANEL_COUNT; i++) {
		struct vpanel *vp = &vpanels[i];

		mutex_init(&vp->lock);
		vp->brightness = VPANEL_MAX_BRIGHTNESS / 2;
		vp->dev = device_create(&vpanel_class, NULL, 0, vp, "vpanel%d", i);
		if (IS_ERR(vp->dev)) {
			ret = PTR_ERR(vp->dev);
			goto err_unwind;
		}
	}
	return 0;

err_unwind:
	while (--i >= 0)
		device_unregister(vpanels[i].dev);
	class_unregister(&vpanel_class);
	return ret;
}

static void __exit vpanel_exit(void)
{
	int i;

	for (i = 0; i < VPANEL_COUNT; i++)
		device_unregister(vpanels[i].dev);
	class_unregister(&vpanel_class);
}

module_init(vpanel_init);
module_exit(vpanel_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Virtual display panels (static class, core-created devices)");
