/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _VCHAN_H
#define _VCHAN_H

#include <linux/completion.h>
#include <linux/device.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct vchan {
	struct device dev;
	struct completion released;
	spinlock_t lock;
	u64 tx_bytes;
	u64 tx_packets;
};

struct vchan *vchan_setup(unsigned int index);
void vchan_teardown(struct vchan *vc);

#endif /* _VCHAN_H */
