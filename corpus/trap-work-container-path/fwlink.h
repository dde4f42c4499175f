/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef FWLINK_H
#define FWLINK_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

/* the message channel to the firmware: its code sees only this struct */
struct fwlink_ct {
	spinlock_t lock;
	struct {
		struct list_head incoming;
		struct work_struct worker;
		unsigned long handled;
	} requests;
};

struct fwlink_msg {
	struct list_head link;
	u32 action;
};

/* the device: the channel is embedded, not pointed to */
struct fwlink {
	struct timer_list poll;
	struct fwlink_ct ct;
	u32 seq;
};

void fwlink_ct_init(struct fwlink_ct *ct);
void fwlink_ct_receive(struct fwlink_ct *ct, u32 action);
void fwlink_ct_fini(struct fwlink_ct *ct);

#endif
