// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnkmon: watches one link; a link error schedules err_work to reset it.
 * Teardown runs as a work item on the module's own queue (it sleeps and
 * must not race the error handler): remove_work cancels err_work. The
 * exit function queues remove_work and destroys the queue, which runs
 * every work still on it, remove_work included, before it returns.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

struct lnkmon_link {
	struct work_struct err_work;
	struct work_struct remove_work;
	unsigned int resets;
};

static struct workqueue_struct *lnkmon_wq;
static struct lnkmon_link *lnkmon_link;

static void lnkmon_err_work(struct work_struct *work)
{
	struct lnkmon_link *l = container_of(work, struct lnkmon_link,
					     err_work);

	l->resets++;
	pr_info("lnkmon: link reset %u\n", l->resets);
}

static void lnkmon_remove_work(struct work_struct *work)
{
	struct lnkmon_link *l = container_of(work, struct lnkmon_link,
					     remove_work);

	cancel_work_sync(&l->err_work);
	pr_info("lnkmon: link removed after %u resets\n", l->resets);
}

/* called by the link's error interrupt in a real driver */
void lnkmon_link_error(void)
{
	if (lnkmon_link)
		schedule_work(&lnkmon_link->err_work);
}
EXPORT_SYMBOL_GPL(lnkmon_link_error);

static int __init lnkmon_init(void)
{
	lnkmon_wq = alloc_ordered_workqueue("lnkmon", 0);
	if (!lnkmon_wq)
		return -ENOMEM;
	lnkmon_link = kzalloc(sizeof(*lnkmon_link), GFP_KERNEL);
	if (!lnkmon_link) {
		destroy_workqueue(lnkmon_wq);
		return -ENOMEM;
	}
	INIT_WORK(&lnkmon_link->err_work, lnkmon_err_work);
	INIT_WORK(&lnkmon_link->remove_work, lnkmon_remove_work);
	return 0;
}

static void __exit lnkmon_exit(void)
{
	queue_work(lnkmon_wq, &lnkmon_link->remove_work);
	destroy_workqueue(lnkmon_wq);
	kfree(lnkmon_link);
}

module_init(lnkmon_init);
module_exit(lnkmon_exit);
MODULE_DESCRIPTION("Link monitor whose teardown runs as a work item");
MODULE_LICENSE("GPL");
