// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringlib: a small library module that drains a software ring in a work
 * item for the drivers that use it.
 *
 * The work is queued by ringlib_kick() and cancelled by ringlib_stop(),
 * both exported. Only a driver that links against ringlib can queue it,
 * and such a driver is unloaded (after calling ringlib_stop()) before
 * ringlib can be: the library's own exit has nothing to cancel.
 */
#include <linux/export.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

struct ringlib {
	spinlock_t lock;
	struct work_struct drain_work;
	void (*consume)(struct ringlib *rl, u32 item);
	u32 items[16];
	unsigned int head, tail;
};

static void ringlib_drain(struct work_struct *work)
{
	struct ringlib *rl = container_of(work, struct ringlib, drain_work);
	unsigned long flags;
	u32 item;

	spin_lock_irqsave(&rl->lock, flags);
	while (rl->tail != rl->head) {
		item = rl->items[rl->tail++ % ARRAY_SIZE(rl->items)];
		spin_unlock_irqrestore(&rl->lock, flags);
		rl->consume(rl, item);
		spin_lock_irqsave(&rl->lock, flags);
	}
	spin_unlock_irqrestore(&rl->lock, flags);
}

void ringlib_init(struct ringlib *rl,
		  void (*consume)(struct ringlib *rl, u32 item))
{
	spin_lock_init(&rl->lock);
	INIT_WORK(&rl->drain_work, ringlib_drain);
	rl->consume = consume;
	rl->head = rl->tail = 0;
}
EXPORT_SYMBOL_GPL(ringlib_init);

int ringlib_kick(struct ringlib *rl, u32 item)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&rl->lock, flags);
	if (rl->head - rl->tail >= ARRAY_SIZE(rl->items))
		ret = -ENOSPC;
	else
		rl->items[rl->head++ % ARRAY_SIZE(rl->items)] = item;
	spin_unlock_irqrestore(&rl->lock, flags);
	if (!ret)
		queue_work(system_wq, &rl->drain_work);
	return ret;
}
EXPORT_SYMBOL_GPL(ringlib_kick);

void ringlib_stop(struct ringlib *rl)
{
	cancel_work_sync(&rl->drain_work);
}
EXPORT_SYMBOL_GPL(ringlib_stop);

static int __init ringlib_mod_init(void)
{
	return 0;
}

static void __exit ringlib_mod_exit(void)
{
}

module_init(ringlib_mod_init);
module_exit(ringlib_mod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Software ring drained in a work item, for other drivers");
