// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnull: a virtio transport with one device and no virtqueues, for testing
 * virtio drivers' probe and remove paths without a hypervisor.
 *
 * The transport embeds its struct virtio_device and sets the device's
 * release, which frees the transport, before register_virtio_device(), an
 * exported helper of the virtio core that device_add()s &vdev->dev. The
 * release is module text: a reference to the device held past unload (a
 * get_device() elsewhere, a child device) calls freed code.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>

static unsigned int device_id = 4;	/* VIRTIO_ID_RNG */
module_param(device_id, uint, 0444);
MODULE_PARM_DESC(device_id, "virtio device ID to announce");

struct vnull_device {
	struct virtio_device vdev;
	u8 status;
	u64 features;
};

static struct vnull_device *vnull;

static struct vnull_device *to_vnull(struct virtio_device *vdev)
{
	return container_of(vdev, struct vnull_device, vdev);
}

static void vnull_get(struct virtio_device *vdev, unsigned int offset,
		      void *buf, unsigned int len)
{
	memset(buf, 0, len);
}

static void vnull_set(struct virtio_device *vdev, unsigned int offset,
		      const void *buf, unsigned int len)
{
}

static u8 vnull_get_status(struct virtio_device *vdev)
{
	return to_vnull(vdev)->status;
}

static void vnull_set_status(struct virtio_device *vdev, u8 status)
{
	to_vnull(vdev)->status = status;
}

static void vnull_reset(struct virtio_device *vdev)
{
	to_vnull(vdev)->status = 0;
}

static int vnull_find_vqs(struct virtio_device *vdev, unsigned int nvqs,
			  struct virtqueue *vqs[], vq_callback_t *callbacks[],
			  const char * const names[], const bool *ctx,
			  struct irq_affinity *desc)
{
	return nvqs ? -ENOENT : 0;
}

static void vnull_del_vqs(struct virtio_device *vdev)
{
}

static u64 vnull_get_features(struct virtio_device *vdev)
{
	return BIT_ULL(VIRTIO_F_VERSION_1);
}

static int vnull_finalize_features(struct virtio_device *vdev)
{
	to_vnull(vdev)->features = vdev->features;
	return 0;
}

static const char *vnull_bus_name(struct virtio_device *vdev)
{
	return "vnull";
}

static const struct virtio_config_ops vnull_config_ops = {
	.get			= vnull_get,
	.set			= vnull_set,
	.get_status		= vnull_get_status,
	.set_status		= vnull_set_status,
	.reset			= vnull_reset,
	.find_vqs		= vnull_find_vqs,
	.del_vqs		= vnull_del_vqs,
	.get_features		= vnull_get_features,
	.finalize_features	= vnull_finalize_features,
	.bus_name		= vnull_bus_name,
};

static void vnull_release_dev(struct device *dev)
{
	kfree(to_vnull(dev_to_virtio(dev)));
}

static int __init vnull_init(void)
{
	int ret;

	vnull = kzalloc(sizeof(*vnull), GFP_KERNEL);
	if (!vnull)
		return -ENOMEM;
	vnull->vdev.id.device = device_id;
	vnull->vdev.id.vendor = VIRTIO_DEV_ANY_ID;
	vnull->vdev.config = &vnull_config_ops;
	vnull->vdev.dev.release = vnull_release_dev;
	ret = register_virtio_device(&vnull->vdev);
	if (ret)
		put_device(&vnull->vdev.dev);
	return ret;
}

static void __exit vnull_exit(void)
{
	unregister_virtio_device(&vnull->vdev);
}

module_init(vnull_init);
module_exit(vnull_exit);
MODULE_DESCRIPTION("virtio transport with one queueless device");
MODULE_LICENSE("GPL");
