// SPDX-License-Identifier: GPL-2.0-only
/*
 * ring file operations: /dev/ring-data streams bytes through an overwriting
 * ring buffer, /dev/ring-ctl resets it and reports its fill level. The
 * owner of both tables is filled in by ring_setup_fops() in ring-main.c.
 */
#include <linux/uaccess.h>
#include "ring.h"

struct ring ring = {
	.lock = __MUTEX_INITIALIZER(ring.lock),
};

static unsigned int ring_fill(void)
{
	return ring.head - ring.tail;
}

static ssize_t ring_data_read(struct file *file, char __user *buf,
			      size_t count, loff_t *ppos)
{
	size_t done = 0;

	mutex_lock(&ring.lock);
	while (done < count && ring_fill()) {
		unsigned int off = ring.tail & (RING_SIZE - 1);
		size_t n = min3(count - done, (size_t)ring_fill(),
				(size_t)(RING_SIZE - off));

		if (copy_to_user(buf + done, ring.data + off, n)) {
			mutex_unlock(&ring.lock);
			return done ? done : -EFAULT;
		}
		ring.tail += n;
		done += n;
	}
	mutex_unlock(&ring.lock);
	return done;
}

static ssize_t ring_data_write(struct file *file, const char __user *buf,
			       size_t count, loff_t *ppos)
{
	size_t done = 0;

	mutex_lock(&ring.lock);
	while (done < count) {
		unsigned int off = ring.head & (RING_SIZE - 1);
		size_t n = min(count - done, (size_t)(RING_SIZE - off));

		if (copy_from_user(ring.data + off, buf + done, n)) {
			mutex_unlock(&ring.lock);
			return done ? done : -EFAULT;
		}
		ring.head += n;
		done += n;
		if (ring_fill() > RING_SIZE) {
			ring.tail = ring.head - RING_SIZE;
			ring.overruns++;
		}
	}
	mutex_unlock(&ring.lock);
	return done;
}

static long ring_ctl_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	int fill;

	switch (cmd) {
	case RING_IOC_RESET:
		mutex_lock(&ring.lock);
		ring.head = ring.tail = 0;
		mutex_unlock(&ring.lock);
		return 0;
	case RING_IOC_GET_FILL:
		mutex_lock(&ring.lock);
		fill = ring_fill();
		mutex_unlock(&ring.lock);
		return put_user(fill, (int __user *)arg);
	default:
		return -ENOTTY;
	}
}

struct file_operations ring_data_fops = {
	.open	= nonseekable_open,
	.read	= ring_data_read,
	.write	= ring_data_write,
};

struct file_operations ring_ctl_fops = {
	.unlocked_ioctl	= ring_ctl_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};
