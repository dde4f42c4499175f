// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: per-namespace state freed with call_rcu() and a callback of the
 * module; the exit function has no rcu_barrier() of its own, but
 * unregister_pernet_subsys() always runs one before it returns (as
 * drivers/net/vxlan notes).  Nothing to report.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

struct grault_stats {
	struct rcu_head rcu;
	unsigned long packets;
};

struct grault_net {
	struct grault_stats __rcu *stats;
};

static unsigned int grault_net_id __read_mostly;

static void grault_stats_free(struct rcu_head *head)
{
	kfree(container_of(head, struct grault_stats, rcu));
}

static int __net_init grault_net_init(struct net *net)
{
	struct grault_net *gn = net_generic(net, grault_net_id);
	struct grault_stats *st = kzalloc(sizeof(*st), GFP_KERNEL);

	if (!st)
		return -ENOMEM;
	RCU_INIT_POINTER(gn->stats, st);
	return 0;
}

static void __net_exit grault_net_exit(struct net *net)
{
	struct grault_net *gn = net_generic(net, grault_net_id);
	struct grault_stats *st = rcu_replace_pointer(gn->stats, NULL, true);

	if (st)
		call_rcu(&st->rcu, grault_stats_free);
}

static struct pernet_operations grault_net_ops = {
	.init	= grault_net_init,
	.exit	= grault_net_exit,
	.id	= &grault_net_id,
	.size	= sizeof(struct grault_net),
};

static int __init grault_init(void)
{
	return register_pernet_subsys(&grault_net_ops);
}

static void __exit grault_exit(void)
{
	unregister_pernet_subsys(&grault_net_ops);
}

module_init(grault_init);
module_exit(grault_exit);
MODULE_LICENSE("GPL");
