/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _RING_H
#define _RING_H

#include <linux/fs.h>
#include <linux/ioctl.h>
#include <linux/mutex.h>

#define RING_SIZE		4096	/* power of two */
#define RING_IOC_RESET		_IO('r', 0)
#define RING_IOC_GET_FILL	_IOR('r', 1, int)

struct ring {
	struct mutex lock;
	unsigned int head, tail;
	unsigned long overruns;
	u8 data[RING_SIZE];
};

extern struct ring ring;
extern struct file_operations ring_ctl_fops;
extern struct file_operations ring_data_fops;

#endif /* _RING_H */
