/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _CTR_H
#define _CTR_H

#include <linux/device.h>
#include <linux/types.h>

/* A class device in the shape of the 2004 class_device API. */
struct ctr_class_device {
	struct device dev;
	bool released;
};

int ctr_class_init(void);
void ctr_class_exit(void);
int ctr_class_device_register(struct ctr_class_device *cd, const char *name,
			      void *data, const struct attribute_group **groups);
void ctr_class_device_unregister_wait(struct ctr_class_device *cd);

#endif /* _CTR_H */
