// SPDX-License-Identifier: GPL-2.0-only
/*
 * vport: a hub with one hot-pluggable virtual port. Writing to
 * /sys/kernel/vport/plug creates the port device, writing to .../unplug
 * removes it and waits until it has been released, so that the next plug
 * starts from a clean slate.
 *
 * The port's release frees it and then signals the hub with complete(), as
 * its last act. After unload, a late release completes module data and
 * returns into module text that may already be gone.
 */
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

struct vport;

struct vport_hub {
	struct mutex lock;
	struct completion port_released;
	struct vport *port;
	struct kobject *ctl;
	unsigned int next_id;
};

struct vport {
	struct device dev;
	struct vport_hub *hub;
};

static struct vport_hub vport_hub;

static void vport_release(struct device *dev)
{
	struct vport *vp = container_of(dev, struct vport, dev);
	struct vport_hub *hub = vp->hub;

	kfree(vp);
	complete(&hub->port_released);
}

static ssize_t plug_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t count)
{
	struct vport_hub *hub = &vport_hub;
	struct vport *vp;
	int ret;

	mutex_lock(&hub->lock);
	if (hub->port) {
		ret = -EBUSY;
		goto out;
	}
	vp = kzalloc(sizeof(*vp), GFP_KERNEL);
	if (!vp) {
		ret = -ENOMEM;
		goto out;
	}
	vp->hub = hub;
	vp->dev.release = vport_release;
	dev_set_name(&vp->dev, "vport%u", hub->next_id++);
	reinit_completion(&hub->port_released);
	ret = device_register(&vp->dev);
	if (ret) {
		put_device(&vp->dev);
		goto out;
	}
	hub->port = vp;
	ret = count;
out:
	mutex_unlock(&hub->lock);
	return ret;
}
static struct kobj_attribute plug_attr = __ATTR_WO(plug);

static ssize_t unplug_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	struct vport_hub *hub = &vport_hub;
	struct vport *vp;

	mutex_lock(&hub->lock);
	vp = hub->port;
	if (!vp) {
		mutex_unlock(&hub->lock);
		return -ENODEV;
	}
	hub->port = NULL;
	device_unregister(&vp->dev);
	wait_for_completion(&hub->port_released);
	mutex_unlock(&hub->lock);
	return count;
}
static struct kobj_attribute unplug_attr = __ATTR_WO(unplug);

static struct attribute *vport_ctl_attrs[] = {
	&plug_attr.attr,
	&unplug_attr.attr,
	NULL
};

static const struct attribute_group vport_ctl_group = {
	.attrs = vport_ctl_attrs,
};

static int __init vport_init(void)
{
	int ret;

	mutex_init(&vport_hub.lock);
	init_completion(&vport_hub.port_released);

	vport_hub.ctl = kobject_create_and_add("vport", kernel_kobj);
	if (!vport_hub.ctl)
		return -ENOMEM;
	ret = sysfs_create_group(vport_hub.ctl, &vport_ctl_group);
	if (ret)
		kobject_put(vport_hub.ctl);
	return ret;
}

static void __exit vport_exit(void)
{
	sysfs_remove_group(vport_hub.ctl, &vport_ctl_group);
	kobject_put(vport_hub.ctl);

	if (vport_hub.port)
		device_unregister(&vport_hub.port->dev);
}

module_init(vport_init);
module_exit(vport_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Hot-pluggable virtual port (release ends with complete())");
