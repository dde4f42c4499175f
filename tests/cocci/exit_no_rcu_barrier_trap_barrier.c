// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: the module frees objects with call_rcu() and call_srcu() and
 * callbacks of its own, and its exit path waits for them: rcu_barrier()
 * in the exit function, srcu_barrier() on the same srcu_struct in a helper
 * the exit function calls.  Nothing to report.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/srcu.h>

struct baz_obj {
	struct rcu_head rcu;
	int id;
};

DEFINE_STATIC_SRCU(baz_srcu);
static struct baz_obj __rcu *baz_cur;
static struct baz_obj __rcu *baz_slow;

static void baz_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct baz_obj, rcu));
}

static void baz_replace(struct baz_obj __rcu **slot, struct baz_obj *new,
			bool sleepable)
{
	struct baz_obj *old = rcu_replace_pointer(*slot, new, true);

	if (!old)
		return;
	if (sleepable)
		call_srcu(&baz_srcu, &old->rcu, baz_free_rcu);
	else
		call_rcu(&old->rcu, baz_free_rcu);
}

static int __init baz_init(void)
{
	struct baz_obj *a, *b;

	a = kzalloc(sizeof(*a), GFP_KERNEL);
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!a || !b) {
		kfree(a);
		kfree(b);
		return -ENOMEM;
	}
	baz_replace(&baz_cur, a, false);
	baz_replace(&baz_slow, b, true);
	return 0;
}

static void baz_srcu_drain(void)
{
	srcu_barrier(&baz_srcu);
}

static void __exit baz_exit(void)
{
	baz_replace(&baz_cur, NULL, false);
	baz_replace(&baz_slow, NULL, true);
	baz_srcu_drain();
	rcu_barrier();
}

module_init(baz_init);
module_exit(baz_exit);
MODULE_LICENSE("GPL");
