// SPDX-License-Identifier: GPL-2.0-only
/*
 * fwlink: host side of a polled firmware message channel. The poll timer
 * feeds the channel; the exit path stops the timer and then the
 * channel's work through the device ("&fl->ct.requests.worker").
 */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "fwlink.h"

static struct fwlink *fwlink;

static void fwlink_poll(struct timer_list *t)
{
	struct fwlink *fl = from_timer(fl, t, poll);

	fwlink_ct_receive(&fl->ct, ++fl->seq);
	mod_timer(&fl->poll, jiffies + HZ);
}

static int __init fwlink_init(void)
{
	fwlink = kzalloc(sizeof(*fwlink), GFP_KERNEL);
	if (!fwlink)
		return -ENOMEM;
	fwlink_ct_init(&fwlink->ct);
	timer_setup(&fwlink->poll, fwlink_poll, 0);
	mod_timer(&fwlink->poll, jiffies + HZ);
	return 0;
}

static void __exit fwlink_exit(void)
{
	del_timer_sync(&fwlink->poll);
	cancel_work_sync(&fwlink->ct.requests.worker);
	fwlink_ct_fini(&fwlink->ct);
	kfree(fwlink);
}

module_init(fwlink_init);
module_exit(fwlink_exit);
MODULE_DESCRIPTION("Polled firmware message channel whose work is stopped through its container");
MODULE_LICENSE("GPL");
