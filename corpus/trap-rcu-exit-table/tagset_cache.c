// SPDX-License-Identifier: GPL-2.0-only
/*
 * tagset: the name cache. Dropped names are freed by an RCU callback; the
 * cache's exit step waits for those callbacks with rcu_barrier().
 */
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "tagset.h"

#define TAGSET_NAME_LEN	32

struct tagset_name {
	struct list_head node;
	struct rcu_head rcu;
	char name[TAGSET_NAME_LEN];
};

static LIST_HEAD(tagset_names);
static DEFINE_MUTEX(tagset_lock);	/* serializes writers */

static void tagset_name_free(struct rcu_head *head)
{
	kfree(container_of(head, struct tagset_name, rcu));
}

int tagset_cache_add(const char *name)
{
	struct tagset_name *n = kzalloc(sizeof(*n), GFP_KERNEL);

	if (!n)
		return -ENOMEM;
	strscpy(n->name, name, TAGSET_NAME_LEN);
	mutex_lock(&tagset_lock);
	list_add_tail_rcu(&n->node, &tagset_names);
	mutex_unlock(&tagset_lock);
	return 0;
}

void tagset_cache_drop(const char *name)
{
	struct tagset_name *n;

	mutex_lock(&tagset_lock);
	list_for_each_entry(n, &tagset_names, node) {
		if (!strcmp(n->name, name)) {
			list_del_rcu(&n->node);
			call_rcu(&n->rcu, tagset_name_free);
			break;
		}
	}
	mutex_unlock(&tagset_lock);
}

int tagset_cache_init(void)
{
	return tagset_cache_add("default");
}

void tagset_cache_exit(void)
{
	struct tagset_name *n, *tmp;

	mutex_lock(&tagset_lock);
	list_for_each_entry_safe(n, tmp, &tagset_names, node) {
		list_del_rcu(&n->node);
		call_rcu(&n->rcu, tagset_name_free);
	}
	mutex_unlock(&tagset_lock);
	/* the callbacks run module code: wait for them before unload */
	rcu_barrier();
}
