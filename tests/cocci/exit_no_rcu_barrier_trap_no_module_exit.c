// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: call_rcu() with a callback of the file in code that has no
 * module_exit() (built in, or a module rmmod refuses to remove): the
 * callback's text is never freed.  Nothing to report.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

struct quux_node {
	struct list_head list;
	struct rcu_head rcu;
	unsigned long cookie;
};

static LIST_HEAD(quux_nodes);
static DEFINE_SPINLOCK(quux_lock);

static void quux_node_free(struct rcu_head *head)
{
	kfree(container_of(head, struct quux_node, rcu));
}

static int __init quux_init(void)
{
	struct quux_node *n, *stale;

	n = kzalloc(sizeof(*n), GFP_KERNEL);
	stale = kzalloc(sizeof(*stale), GFP_KERNEL);
	if (!n || !stale) {
		kfree(n);
		kfree(stale);
		return -ENOMEM;
	}

	spin_lock(&quux_lock);
	list_add_rcu(&stale->list, &quux_nodes);
	list_add_rcu(&n->list, &quux_nodes);
	list_del_rcu(&stale->list);
	spin_unlock(&quux_lock);
	call_rcu(&stale->rcu, quux_node_free);
	return 0;
}
late_initcall(quux_init);
MODULE_LICENSE("GPL");
