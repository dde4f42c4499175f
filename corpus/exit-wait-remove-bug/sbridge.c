// SPDX-License-Identifier: GPL-2.0-only
/*
 * sbridge: a platform driver for a bridge that exposes its downstream port
 * as a child device with a "link" attribute.
 *
 * The child is embedded in the devm-allocated driver data, so .remove
 * drops it and waits for its release before devm frees the memory. Module
 * exit unregisters the driver, which runs .remove: rmmod then blocks for
 * as long as anyone holds a reference to the child.
 */
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

struct sbridge_child {
	struct device dev;
	struct completion done;
	bool link_up;
};

struct sbridge {
	struct platform_device *pdev;
	struct sbridge_child child;
};

static inline struct sbridge_child *to_sbridge_child(struct device *dev)
{
	return container_of(dev, struct sbridge_child, dev);
}

static ssize_t link_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  READ_ONCE(to_sbridge_child(dev)->link_up) ? "up" : "down");
}

static ssize_t link_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	bool up;
	int ret;

	ret = kstrtobool(buf, &up);
	if (ret)
		return ret;
	WRITE_ONCE(to_sbridge_child(dev)->link_up, up);
	return count;
}
static DEVICE_ATTR_RW(link);

static struct attribute *sbridge_child_attrs[] = {
	&dev_attr_link.attr,
	NULL
};
ATTRIBUTE_GROUPS(sbridge_child);

static void sbridge_child_release(struct device *dev)
{
	struct sbridge_child *c = to_sbridge_child(dev);

	complete(&c->done);
}

static void sbridge_del_child(struct sbridge *sb)
{
	device_del(&sb->child.dev);
	put_device(&sb->child.dev);
	wait_for_completion(&sb->child.done);
}

static int sbridge_probe(struct platform_device *pdev)
{
	struct sbridge_child *c;
	struct sbridge *sb;
	int ret;

	sb = devm_kzalloc(&pdev->dev, sizeof(*sb), GFP_KERNEL);
	if (!sb)
		return -ENOMEM;
	sb->pdev = pdev;

	c = &sb->child;
	init_completion(&c->done);
	device_initialize(&c->dev);
	c->dev.parent = &pdev->dev;
	c->dev.groups = sbridge_child_groups;
	c->dev.release = sbridge_child_release;
	dev_set_name(&c->dev, "%s-port0", dev_name(&pdev->dev));

	ret = device_add(&c->dev);
	if (ret) {
		put_device(&c->dev);
		wait_for_completion(&c->done);
		return ret;
	}

	platform_set_drvdata(pdev, sb);
	return 0;
}

static int sbridge_remove(struct platform_device *pdev)
{
	struct sbridge *sb = platform_get_drvdata(pdev);

	sbridge_del_child(sb);
	return 0;
}

static struct platform_driver sbridge_driver = {
	.probe	= sbridge_probe,
	.remove	= sbridge_remove,
	.driver	= {
		.name	= "sbridge",
	},
};
module_platform_driver(sbridge_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Bridge driver whose .remove waits for a child release");
MODULE_ALIAS("platform:sbridge");
