// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: entries of an RCU-protected list are freed with call_rcu() and
 * a callback of the module.  The exit function empties the list and calls
 * synchronize_rcu(), which does not wait for the callbacks already queued:
 * they can run after the module text is freed.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

struct foo_entry {
	struct list_head node;
	struct rcu_head rcu;
	int key;
};

static LIST_HEAD(foo_list);
static DEFINE_SPINLOCK(foo_lock);

static void foo_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct foo_entry, rcu));
}

static void foo_del(struct foo_entry *e)
{
	list_del_rcu(&e->node);
	call_rcu(&e->rcu, foo_free_rcu);
}

static int __init foo_init(void)
{
	int i;

	for (i = 0; i < 4; i++) {
		struct foo_entry *e = kzalloc(sizeof(*e), GFP_KERNEL);

		if (!e)
			return -ENOMEM;
		e->key = i;
		spin_lock(&foo_lock);
		list_add_tail_rcu(&e->node, &foo_list);
		spin_unlock(&foo_lock);
	}
	return 0;
}

static void __exit foo_exit(void)
{
	struct foo_entry *e, *tmp;

	spin_lock(&foo_lock);
	list_for_each_entry_safe(e, tmp, &foo_list, node)
		foo_del(e);
	spin_unlock(&foo_lock);
	synchronize_rcu();
}

module_init(foo_init);
module_exit(foo_exit);
MODULE_LICENSE("GPL");
