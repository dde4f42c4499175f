// SPDX-License-Identifier: GPL-2.0-only
/*
 * tpgcap: a virtual video capture node (/dev/videoN) that only answers
 * VIDIOC_QUERYCAP, for testing V4L2 user space.
 *
 * The v4l2_file_operations have no owner. video_register_device() hands
 * vdev->fops->owner to __video_register_device(), which makes it the owner
 * of the node's cdev: with none, chrdev_open() pins nothing, rmmod goes
 * through while the node is open, and the last close calls
 * tpgcap_release() in freed module text.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <media/v4l2-dev.h>
#include <media/v4l2-device.h>
#include <media/v4l2-fh.h>
#include <media/v4l2-ioctl.h>

struct tpgcap {
	struct v4l2_device v4l2_dev;
	struct video_device vdev;
	struct mutex lock;
	unsigned int opens;
};

static struct tpgcap *tpgcap;

static int tpgcap_open(struct file *file)
{
	struct tpgcap *tc = video_drvdata(file);
	int ret;

	ret = v4l2_fh_open(file);
	if (!ret) {
		mutex_lock(&tc->lock);
		tc->opens++;
		mutex_unlock(&tc->lock);
	}
	return ret;
}

static int tpgcap_release(struct file *file)
{
	struct tpgcap *tc = video_drvdata(file);

	mutex_lock(&tc->lock);
	tc->opens--;
	mutex_unlock(&tc->lock);
	return v4l2_fh_release(file);
}

static int tpgcap_querycap(struct file *file, void *priv,
			   struct v4l2_capability *cap)
{
	strscpy(cap->driver, "tpgcap", sizeof(cap->driver));
	strscpy(cap->card, "Test pattern capture", sizeof(cap->card));
	return 0;
}

static const struct v4l2_ioctl_ops tpgcap_ioctl_ops = {
	.vidioc_querycap	= tpgcap_querycap,
};

static const struct v4l2_file_operations tpgcap_fops = {
	.open		= tpgcap_open,
	.release	= tpgcap_release,
	.unlocked_ioctl	= video_ioctl2,
};

static int __init tpgcap_init(void)
{
	struct video_device *vdev;
	int ret;

	tpgcap = kzalloc(sizeof(*tpgcap), GFP_KERNEL);
	if (!tpgcap)
		return -ENOMEM;
	mutex_init(&tpgcap->lock);
	strscpy(tpgcap->v4l2_dev.name, "tpgcap", sizeof(tpgcap->v4l2_dev.name));
	ret = v4l2_device_register(NULL, &tpgcap->v4l2_dev);
	if (ret)
		goto err_free;

	vdev = &tpgcap->vdev;
	strscpy(vdev->name, "tpgcap", sizeof(vdev->name));
	vdev->v4l2_dev = &tpgcap->v4l2_dev;
	vdev->fops = &tpgcap_fops;
	vdev->ioctl_ops = &tpgcap_ioctl_ops;
	vdev->lock = &tpgcap->lock;
	vdev->release = video_device_release_empty;
	vdev->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_READWRITE;
	video_set_drvdata(vdev, tpgcap);
	ret = video_register_device(vdev, VFL_TYPE_VIDEO, -1);
	if (ret)
		goto err_v4l2;
	return 0;

err_v4l2:
	v4l2_device_unregister(&tpgcap->v4l2_dev);
err_free:
	kfree(tpgcap);
	return ret;
}

static void __exit tpgcap_exit(void)
{
	video_unregister_device(&tpgcap->vdev);
	v4l2_device_unregister(&tpgcap->v4l2_dev);
	kfree(tpgcap);
}

module_init(tpgcap_init);
module_exit(tpgcap_exit);

MODULE_DESCRIPTION("Virtual test pattern capture node");
MODULE_LICENSE("GPL");
