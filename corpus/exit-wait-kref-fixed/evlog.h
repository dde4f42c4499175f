/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EVLOG_H
#define EVLOG_H

#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>

/* one event log per bound device; each open file holds a reference */
struct evlog {
	struct kref ref;
	struct miscdevice misc;
	struct mutex lock;
	char buf[64];
	size_t len;
};

void evlog_last_put(struct kref *ref);
extern const struct file_operations evlog_fops;

#endif
