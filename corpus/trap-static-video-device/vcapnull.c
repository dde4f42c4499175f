// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcapnull: a virtual video capture node (/dev/videoN) that only answers
 * VIDIOC_QUERYCAP, for testing V4L2 user space.
 *
 * The video_device is a static object registered through
 * video_register_device(), which device_register()s its embedded struct
 * device, with video_device_release_empty(), as the V4L2 documentation
 * allows for static nodes: __video_register_device() makes the fops'
 * owner the owner of the node's cdev, so an open node pins the module,
 * and unregistration ends every other use. Nothing to report.
 */
#include <linux/module.h>
#include <media/v4l2-dev.h>
#include <media/v4l2-device.h>
#include <media/v4l2-fh.h>
#include <media/v4l2-ioctl.h>

static struct v4l2_device vcapnull_v4l2 = {
	.name = "vcapnull",
};

static DEFINE_MUTEX(vcapnull_lock);

static int vcapnull_querycap(struct file *file, void *priv,
			     struct v4l2_capability *cap)
{
	strscpy(cap->driver, "vcapnull", sizeof(cap->driver));
	strscpy(cap->card, "Null capture", sizeof(cap->card));
	return 0;
}

static const struct v4l2_ioctl_ops vcapnull_ioctl_ops = {
	.vidioc_querycap	= vcapnull_querycap,
};

static const struct v4l2_file_operations vcapnull_fops = {
	.owner		= THIS_MODULE,
	.open		= v4l2_fh_open,
	.release	= v4l2_fh_release,
	.unlocked_ioctl	= video_ioctl2,
};

static struct video_device vcapnull_vdev = {
	.name		= "vcapnull",
	.fops		= &vcapnull_fops,
	.ioctl_ops	= &vcapnull_ioctl_ops,
	.release	= video_device_release_empty,
	.v4l2_dev	= &vcapnull_v4l2,
	.lock		= &vcapnull_lock,
	.vfl_dir	= VFL_DIR_RX,
	.device_caps	= V4L2_CAP_VIDEO_CAPTURE,
};

static int __init vcapnull_init(void)
{
	int ret;

	ret = v4l2_device_register(NULL, &vcapnull_v4l2);
	if (ret)
		return ret;
	ret = video_register_device(&vcapnull_vdev, VFL_TYPE_VIDEO, -1);
	if (ret)
		v4l2_device_unregister(&vcapnull_v4l2);
	return ret;
}

static void __exit vcapnull_exit(void)
{
	video_unregister_device(&vcapnull_vdev);
	v4l2_device_unregister(&vcapnull_v4l2);
}

module_init(vcapnull_init);
module_exit(vcapnull_exit);
MODULE_DESCRIPTION("Null V4L2 capture node");
MODULE_LICENSE("GPL");
