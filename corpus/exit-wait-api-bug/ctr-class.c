// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctr class: registration helpers for counter class devices, including
 * ctr_class_device_unregister_wait(), which returns only once the device
 * has been released so that the caller may free the memory around it.
 */
#include <linux/sched.h>
#include <linux/wait.h>
#include "ctr.h"

static struct class *ctr_class;
static DECLARE_WAIT_QUEUE_HEAD(ctr_release_wq);

static void ctr_class_device_release(struct device *dev)
{
	struct ctr_class_device *cd = container_of(dev, struct ctr_class_device, dev);

	WRITE_ONCE(cd->released, true);
	wake_up(&ctr_release_wq);
}

int ctr_class_device_register(struct ctr_class_device *cd, const char *name,
			      void *data, const struct attribute_group **groups)
{
	int ret;

	cd->released = false;
	device_initialize(&cd->dev);
	cd->dev.class = ctr_class;
	cd->dev.groups = groups;
	cd->dev.release = ctr_class_device_release;
	dev_set_drvdata(&cd->dev, data);

	ret = dev_set_name(&cd->dev, "%s", name);
	if (!ret)
		ret = device_add(&cd->dev);
	if (ret) {
		put_device(&cd->dev);
		wait_event(ctr_release_wq, READ_ONCE(cd->released));
	}
	return ret;
}

void ctr_class_device_unregister_wait(struct ctr_class_device *cd)
{
	device_unregister(&cd->dev);
	wait_event(ctr_release_wq, READ_ONCE(cd->released));
}

int ctr_class_init(void)
{
	ctr_class = class_create(THIS_MODULE, "ctr");
	return PTR_ERR_OR_ZERO(ctr_class);
}

void ctr_class_exit(void)
{
	class_destroy(ctr_class);
}
