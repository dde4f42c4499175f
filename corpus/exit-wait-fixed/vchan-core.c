// SPDX-License-Identifier: GPL-2.0-only
/*
 * vchan core: one device per channel with transmit counters in sysfs.
 *
 * vchan_teardown() only unregisters the device: its release frees the
 * channel whenever the last reference goes, and nothing waits for it. The
 * release is still module code (module-release); the full fix lets the
 * core own the device.
 */
#include <linux/slab.h>
#include "vchan.h"

static inline struct vchan *to_vchan(struct device *dev)
{
	return container_of(dev, struct vchan, dev);
}

static ssize_t stats_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct vchan *vc = to_vchan(dev);
	u64 bytes, packets;

	spin_lock_bh(&vc->lock);
	bytes = vc->tx_bytes;
	packets = vc->tx_packets;
	spin_unlock_bh(&vc->lock);
	return sysfs_emit(buf, "%llu %llu\n", packets, bytes);
}
static DEVICE_ATTR_RO(stats);

static ssize_t xmit_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	struct vchan *vc = to_vchan(dev);

	spin_lock_bh(&vc->lock);
	vc->tx_bytes += count;
	vc->tx_packets++;
	spin_unlock_bh(&vc->lock);
	return count;
}
static DEVICE_ATTR_WO(xmit);

static struct attribute *vchan_attrs[] = {
	&dev_attr_stats.attr,
	&dev_attr_xmit.attr,
	NULL
};
ATTRIBUTE_GROUPS(vchan);

static void vchan_release(struct device *dev)
{
	kfree(to_vchan(dev));
}

struct vchan *vchan_setup(unsigned int index)
{
	struct vchan *vc;
	int ret;

	vc = kzalloc(sizeof(*vc), GFP_KERNEL);
	if (!vc)
		return ERR_PTR(-ENOMEM);
	spin_lock_init(&vc->lock);

	vc->dev.groups = vchan_groups;
	vc->dev.release = vchan_release;
	dev_set_name(&vc->dev, "vchan%u", index);
	ret = device_register(&vc->dev);
	if (ret) {
		put_device(&vc->dev);
		return ERR_PTR(ret);
	}
	return vc;
}

void vchan_teardown(struct vchan *vc)
{
	device_unregister(&vc->dev);
}
