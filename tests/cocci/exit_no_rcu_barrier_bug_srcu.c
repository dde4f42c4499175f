// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: a configuration pointer is replaced under SRCU and the old one
 * is freed with call_srcu() and a callback of the module.  The exit path
 * waits for pending call_rcu() callbacks with rcu_barrier(), but that does
 * not cover SRCU: srcu_barrier() is missing.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/srcu.h>

struct bar_config {
	struct rcu_head rcu;
	unsigned int rate;
};

DEFINE_STATIC_SRCU(bar_srcu);
static struct bar_config __rcu *bar_config;
static DEFINE_MUTEX(bar_mutex);

static void bar_config_free(struct rcu_head *head)
{
	kfree(container_of(head, struct bar_config, rcu));
}

static int bar_set_rate(unsigned int rate)
{
	struct bar_config *new, *old;

	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	new->rate = rate;

	mutex_lock(&bar_mutex);
	old = rcu_replace_pointer(bar_config, new,
				  lockdep_is_held(&bar_mutex));
	mutex_unlock(&bar_mutex);
	if (old)
		call_srcu(&bar_srcu, &old->rcu, bar_config_free);
	return 0;
}

unsigned int bar_rate(void)
{
	struct bar_config *cfg;
	unsigned int rate = 0;
	int idx;

	idx = srcu_read_lock(&bar_srcu);
	cfg = srcu_dereference(bar_config, &bar_srcu);
	if (cfg)
		rate = cfg->rate;
	srcu_read_unlock(&bar_srcu, idx);
	return rate;
}
EXPORT_SYMBOL_GPL(bar_rate);

static int __init bar_init(void)
{
	return bar_set_rate(100);
}

static void __exit bar_exit(void)
{
	struct bar_config *old;

	mutex_lock(&bar_mutex);
	old = rcu_replace_pointer(bar_config, NULL,
				  lockdep_is_held(&bar_mutex));
	mutex_unlock(&bar_mutex);
	if (old)
		call_srcu(&bar_srcu, &old->rcu, bar_config_free);
	rcu_barrier();
}

module_init(bar_init);
module_exit(bar_exit);
MODULE_LICENSE("GPL");
