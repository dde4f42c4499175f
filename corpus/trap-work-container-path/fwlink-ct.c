// SPDX-License-Identifier: GPL-2.0-only
/*
 * The channel half of fwlink: messages are queued by the receive path and
 * handled in a work item. This file queues "&ct->requests.worker"; the
 * device half stops the same work as "&fl->ct.requests.worker", through
 * the struct that embeds the channel. Both name one work item.
 */
#include <linux/slab.h>
#include "fwlink.h"

static void fwlink_ct_worker(struct work_struct *w)
{
	struct fwlink_ct *ct = container_of(w, struct fwlink_ct,
					    requests.worker);
	struct fwlink_msg *msg, *next;
	LIST_HEAD(todo);

	spin_lock_irq(&ct->lock);
	list_splice_init(&ct->requests.incoming, &todo);
	spin_unlock_irq(&ct->lock);

	list_for_each_entry_safe(msg, next, &todo, link) {
		ct->requests.handled++;
		list_del(&msg->link);
		kfree(msg);
	}
}

void fwlink_ct_init(struct fwlink_ct *ct)
{
	spin_lock_init(&ct->lock);
	INIT_LIST_HEAD(&ct->requests.incoming);
	INIT_WORK(&ct->requests.worker, fwlink_ct_worker);
}

void fwlink_ct_receive(struct fwlink_ct *ct, u32 action)
{
	struct fwlink_msg *msg = kzalloc(sizeof(*msg), GFP_ATOMIC);
	unsigned long flags;

	if (!msg)
		return;
	msg->action = action;
	spin_lock_irqsave(&ct->lock, flags);
	list_add_tail(&msg->link, &ct->requests.incoming);
	spin_unlock_irqrestore(&ct->lock, flags);
	queue_work(system_unbound_wq, &ct->requests.worker);
}

/* after the work is gone: what it never got to */
void fwlink_ct_fini(struct fwlink_ct *ct)
{
	struct fwlink_msg *msg, *next;

	list_for_each_entry_safe(msg, next, &ct->requests.incoming, link) {
		list_del(&msg->link);
		kfree(msg);
	}
}
