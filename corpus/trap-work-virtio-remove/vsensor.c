// SPDX-License-Identifier: GPL-2.0-only
/*
 * vsensor: a virtio temperature sensor that rereads its config space in a
 * work item whenever the device says the configuration changed.
 *
 * The work is cancelled in .remove. module_virtio_driver()'s exit calls
 * unregister_virtio_driver(), which runs .remove for every bound device,
 * so the exit path does cancel it.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/workqueue.h>

#define VIRTIO_ID_VSENSOR	0xfff0	/* not an allocated device id */

struct vsensor_config {
	__virtio32 millicelsius;
};

struct vsensor {
	struct virtio_device *vdev;
	struct work_struct config_work;
	s32 millicelsius;
};

static void vsensor_config_work(struct work_struct *work)
{
	struct vsensor *vs = container_of(work, struct vsensor, config_work);
	u32 v;

	virtio_cread(vs->vdev, struct vsensor_config, millicelsius, &v);
	WRITE_ONCE(vs->millicelsius, (s32)v);
}

static void vsensor_config_changed(struct virtio_device *vdev)
{
	struct vsensor *vs = vdev->priv;

	schedule_work(&vs->config_work);
}

static int vsensor_probe(struct virtio_device *vdev)
{
	struct vsensor *vs;

	vs = kzalloc(sizeof(*vs), GFP_KERNEL);
	if (!vs)
		return -ENOMEM;
	vs->vdev = vdev;
	INIT_WORK(&vs->config_work, vsensor_config_work);
	vdev->priv = vs;
	virtio_device_ready(vdev);
	schedule_work(&vs->config_work);
	return 0;
}

static void vsensor_remove(struct virtio_device *vdev)
{
	struct vsensor *vs = vdev->priv;

	virtio_reset_device(vdev);
	cancel_work_sync(&vs->config_work);
	kfree(vs);
}

static const struct virtio_device_id vsensor_ids[] = {
	{ VIRTIO_ID_VSENSOR, VIRTIO_DEV_ANY_ID },
	{ 0 },
};
MODULE_DEVICE_TABLE(virtio, vsensor_ids);

static struct virtio_driver vsensor_driver = {
	.driver.name = KBUILD_MODNAME,
	.driver.owner = THIS_MODULE,
	.id_table = vsensor_ids,
	.probe = vsensor_probe,
	.remove = vsensor_remove,
	.config_changed = vsensor_config_changed,
};
module_virtio_driver(vsensor_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("virtio temperature sensor, config rereads in a work item");
