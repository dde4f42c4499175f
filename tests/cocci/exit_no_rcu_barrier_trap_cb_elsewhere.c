// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: the RCU callbacks this module queues are not its own code.
 * call_rcu() uses wakeme_after_rcu() (kernel/rcu/update.c), and
 * kfree_rcu() uses the slab code's kfree-only callback; both stay in the
 * kernel after unload, and the exit function waits for the completion
 * anyway.  Nothing to report.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/completion.h>
#include <linux/rcupdate.h>
#include <linux/rcupdate_wait.h>
#include <linux/slab.h>

struct qux_item {
	struct rcu_head rcu;
	int val;
};

static struct qux_item __rcu *qux_item;

static int __init qux_init(void)
{
	struct qux_item *it = kzalloc(sizeof(*it), GFP_KERNEL);

	if (!it)
		return -ENOMEM;
	rcu_assign_pointer(qux_item, it);
	return 0;
}

static void __exit qux_exit(void)
{
	struct rcu_synchronize rs;
	struct qux_item *it;

	it = rcu_replace_pointer(qux_item, NULL, true);

	init_rcu_head_on_stack(&rs.head);
	init_completion(&rs.completion);
	call_rcu(&rs.head, wakeme_after_rcu);
	if (it)
		kfree_rcu(it, rcu);
	wait_for_completion(&rs.completion);
	destroy_rcu_head_on_stack(&rs.head);
}

module_init(qux_init);
module_exit(qux_exit);
MODULE_LICENSE("GPL");
