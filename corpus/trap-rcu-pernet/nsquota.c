// SPDX-License-Identifier: GPL-2.0-only
/*
 * nsquota: a per-network-namespace packet quota, replaced as a whole when
 * an administrator writes a new limit, read locklessly under RCU.
 *
 * Old quota blocks are freed with call_rcu() and a callback of this
 * module, both when a new limit replaces them and when a namespace goes
 * away. The exit function calls no rcu_barrier() itself, but
 * unregister_pernet_subsys() runs one before it returns (after the last
 * namespace's .exit queued its callback), so nothing is left pending.
 */
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

struct nsquota_block {
	struct rcu_head rcu;
	u64 limit;
};

struct nsquota_net {
	struct nsquota_block __rcu *quota;
};

static unsigned int nsquota_net_id __read_mostly;
static DEFINE_MUTEX(nsquota_lock);

static void nsquota_block_free(struct rcu_head *head)
{
	kfree(container_of(head, struct nsquota_block, rcu));
}

static int nsquota_replace(struct net *net, u64 limit)
{
	struct nsquota_net *qn = net_generic(net, nsquota_net_id);
	struct nsquota_block *nb, *old;

	nb = kzalloc(sizeof(*nb), GFP_KERNEL);
	if (!nb)
		return -ENOMEM;
	nb->limit = limit;
	mutex_lock(&nsquota_lock);
	old = rcu_replace_pointer(qn->quota, nb,
				  lockdep_is_held(&nsquota_lock));
	mutex_unlock(&nsquota_lock);
	if (old)
		call_rcu(&old->rcu, nsquota_block_free);
	return 0;
}

/* the initial namespace's limit, settable at run time */
static int nsquota_param_set(const char *val, const struct kernel_param *kp)
{
	u64 limit;
	int ret;

	ret = kstrtou64(val, 0, &limit);
	if (ret)
		return ret;
	return nsquota_replace(&init_net, limit);
}

static const struct kernel_param_ops nsquota_param_ops = {
	.set = nsquota_param_set,
};
module_param_cb(init_limit, &nsquota_param_ops, NULL, 0200);

static int __net_init nsquota_net_init(struct net *net)
{
	return nsquota_replace(net, U64_MAX);
}

static void __net_exit nsquota_net_exit(struct net *net)
{
	struct nsquota_net *qn = net_generic(net, nsquota_net_id);
	struct nsquota_block *old;

	old = rcu_replace_pointer(qn->quota, NULL, true);
	if (old)
		call_rcu(&old->rcu, nsquota_block_free);
}

static struct pernet_operations nsquota_net_ops = {
	.init = nsquota_net_init,
	.exit = nsquota_net_exit,
	.id = &nsquota_net_id,
	.size = sizeof(struct nsquota_net),
};

static int __init nsquota_init(void)
{
	return register_pernet_subsys(&nsquota_net_ops);
}

static void __exit nsquota_exit(void)
{
	unregister_pernet_subsys(&nsquota_net_ops);
}

module_init(nsquota_init);
module_exit(nsquota_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Per-namespace packet quota freed with call_rcu()");
