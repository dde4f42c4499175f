// SPDX-License-Identifier: GPL-2.0-only
/*
 * vport: a hub with one hot-pluggable virtual port. Writing to
 * /sys/kernel/vport/plug creates the port device, writing to .../unplug
 * removes it.
 *
 * Fixed form, the net_device pattern: the port is a platform device that
 * the core allocates (platform_device_register_simple()), so its release
 * is core code and frees core-allocated memory. Unplug just unregisters;
 * there is no release in the module to wait for, and a reference held
 * past unplug or unload is the core's business. A new port gets a new id,
 * so the next plug never collides with a port still being released.
 */
#include <linux/err.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/sysfs.h>

struct vport_hub {
	struct mutex lock;
	struct platform_device *port;
	struct kobject *ctl;
	unsigned int next_id;
};

static struct vport_hub vport_hub;

static ssize_t plug_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t count)
{
	struct vport_hub *hub = &vport_hub;
	struct platform_device *pdev;
	int ret;

	mutex_lock(&hub->lock);
	if (hub->port) {
		ret = -EBUSY;
		goto out;
	}
	pdev = platform_device_register_simple("vport", hub->next_id++,
					       NULL, 0);
	if (IS_ERR(pdev)) {
		ret = PTR_ERR(pdev);
		goto out;
	}
	hub->port = pdev;
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

	mutex_lock(&hub->lock);
	if (!hub->port) {
		mutex_unlock(&hub->lock);
		return -ENODEV;
	}
	platform_device_unregister(hub->port);
	hub->port = NULL;
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
		platform_device_unregister(vport_hub.port);
}

module_init(vport_init);
module_exit(vport_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Hot-pluggable virtual port (core-owned platform device)");
