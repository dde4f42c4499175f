// SPDX-License-Identifier: GPL-2.0-only
/*
 * hbeat: a heartbeat device. A delayed work item counts beats once a
 * second; the count and the period are sysfs attributes of the device.
 *
 * The device's release frees the structure that embeds it, whenever the
 * last reference goes. The release is still module code (module-release):
 * the full fix lets the driver core own the device.
 */
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

struct hbeat {
	struct device dev;
	struct delayed_work work;
	unsigned int period_ms;
	atomic_long_t beats;
};

static struct hbeat *hbeat;

static void hbeat_work(struct work_struct *work)
{
	struct hbeat *hb = container_of(to_delayed_work(work), struct hbeat, work);

	atomic_long_inc(&hb->beats);
	schedule_delayed_work(&hb->work,
			      msecs_to_jiffies(READ_ONCE(hb->period_ms)));
}

static ssize_t beats_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct hbeat *hb = container_of(dev, struct hbeat, dev);

	return sysfs_emit(buf, "%ld\n", atomic_long_read(&hb->beats));
}
static DEVICE_ATTR_RO(beats);

static ssize_t period_ms_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	struct hbeat *hb = container_of(dev, struct hbeat, dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(hb->period_ms));
}

static ssize_t period_ms_store(struct device *dev, struct device_attribute *attr,
			       const char *buf, size_t count)
{
	struct hbeat *hb = container_of(dev, struct hbeat, dev);
	unsigned int val;
	int ret;

	ret = kstrtouint(buf, 0, &val);
	if (ret)
		return ret;
	if (val < 10)
		return -EINVAL;
	WRITE_ONCE(hb->period_ms, val);
	mod_delayed_work(system_wq, &hb->work, msecs_to_jiffies(val));
	return count;
}
static DEVICE_ATTR_RW(period_ms);

static struct attribute *hbeat_attrs[] = {
	&dev_attr_beats.attr,
	&dev_attr_period_ms.attr,
	NULL
};
ATTRIBUTE_GROUPS(hbeat);

static void hbeat_dev_release(struct device *dev)
{
	pr_debug("hbeat: device released\n");
	kfree(container_of(dev, struct hbeat, dev));
}

static int __init hbeat_init(void)
{
	struct device *dev;
	int ret;

	hbeat = kzalloc(sizeof(*hbeat), GFP_KERNEL);
	if (!hbeat)
		return -ENOMEM;
	hbeat->period_ms = 1000;
	INIT_DELAYED_WORK(&hbeat->work, hbeat_work);

	dev = &hbeat->dev;
	dev->groups = hbeat_groups;
	dev->release = hbeat_dev_release;
	dev_set_name(dev, "hbeat0");
	ret = device_register(dev);
	if (ret) {
		put_device(dev);
		return ret;
	}

	schedule_delayed_work(&hbeat->work, msecs_to_jiffies(hbeat->period_ms));
	return 0;
}

static void __exit hbeat_exit(void)
{
	device_del(&hbeat->dev);
	cancel_delayed_work_sync(&hbeat->work);
	put_device(&hbeat->dev);
}

module_init(hbeat_init);
module_exit(hbeat_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Heartbeat device (release frees the embedding structure)");
