// SPDX-License-Identifier: GPL-2.0-only
/*
 * sessmgr: a control device, /dev/sessmgr, whose ioctls open and close a
 * session; each session is a device with an "id" attribute.
 *
 * The close ioctl unregisters the session device and waits for its
 * release. Only the ioctl path waits: module exit (which cannot run while
 * /dev/sessmgr is open) unregisters without waiting.
 */
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#define SESSMGR_IOC_OPEN	_IO('S', 1)
#define SESSMGR_IOC_CLOSE	_IO('S', 2)

struct sess_mgr {
	struct mutex lock;
	struct completion done;
	atomic_t users;
	struct sess *active;
	u32 next_id;
};

struct sess {
	struct device dev;
	struct sess_mgr *mgr;
	u32 id;
};

static struct sess_mgr sessmgr;

static ssize_t id_show(struct device *dev, struct device_attribute *attr,
		       char *buf)
{
	return sysfs_emit(buf, "%u\n", container_of(dev, struct sess, dev)->id);
}
static DEVICE_ATTR_RO(id);

static struct attribute *sess_attrs[] = {
	&dev_attr_id.attr,
	NULL
};
ATTRIBUTE_GROUPS(sess);

static void sess_release(struct device *dev)
{
	struct sess *s = container_of(dev, struct sess, dev);
	struct sess_mgr *p = s->mgr;

	kfree(s);
	complete(&p->done);
	atomic_dec(&p->users);
}

static int sessmgr_open_session(struct sess_mgr *p)
{
	struct sess *s;
	int ret;

	if (p->active || atomic_read(&p->users))
		return -EBUSY;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->mgr = p;
	s->id = p->next_id++;
	s->dev.groups = sess_groups;
	s->dev.release = sess_release;
	dev_set_name(&s->dev, "sess%u", s->id);

	atomic_inc(&p->users);
	reinit_completion(&p->done);
	ret = device_register(&s->dev);
	if (ret) {
		put_device(&s->dev);
		return ret;
	}
	p->active = s;
	return s->id;
}

static int sessmgr_close_session(struct sess_mgr *p)
{
	struct sess *s = p->active;

	if (!s)
		return -ENOENT;
	p->active = NULL;
	device_unregister(&s->dev);
	wait_for_completion(&p->done);
	return 0;
}

static long sessmgr_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	long ret;

	mutex_lock(&sessmgr.lock);
	switch (cmd) {
	case SESSMGR_IOC_OPEN:
		ret = sessmgr_open_session(&sessmgr);
		break;
	case SESSMGR_IOC_CLOSE:
		ret = sessmgr_close_session(&sessmgr);
		break;
	default:
		ret = -ENOTTY;
	}
	mutex_unlock(&sessmgr.lock);
	return ret;
}

static const struct file_operations sessmgr_fops = {
	.owner		= THIS_MODULE,
	.open		= nonseekable_open,
	.unlocked_ioctl	= sessmgr_ioctl,
	.llseek		= no_llseek,
};

static struct miscdevice sessmgr_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sessmgr",
	.fops	= &sessmgr_fops,
};

static int __init sessmgr_init(void)
{
	mutex_init(&sessmgr.lock);
	init_completion(&sessmgr.done);
	return misc_register(&sessmgr_misc);
}

static void __exit sessmgr_exit(void)
{
	misc_deregister(&sessmgr_misc);
	if (sessmgr.active)
		device_unregister(&sessmgr.active->dev);
}

module_init(sessmgr_init);
module_exit(sessmgr_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Session manager (waits for release only on the ioctl path)");
