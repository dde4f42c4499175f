/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _EVQ_H
#define _EVQ_H

#include <linux/fs.h>
#include <linux/kfifo.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

struct evq_event {
	u64 seq;
	u64 time_ns;
};

struct evq {
	spinlock_t lock;
	wait_queue_head_t wait;
	DECLARE_KFIFO(fifo, struct evq_event, 64);
	u64 seq;
	unsigned long dropped;
};

extern struct evq evq;
extern const struct file_operations evq_fops;

#endif /* _EVQ_H */
