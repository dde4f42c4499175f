// SPDX-License-Identifier: GPL-2.0-only
/*
 * ring: two misc devices sharing one byte ring buffer.
 *
 * The fops tables in ring-fops.c have no initializer owner; every node's
 * fops get their owner through ring_setup_fops(), which assigns it via a
 * pointer before the node is registered.
 */
#include <linux/miscdevice.h>
#include <linux/module.h>
#include "ring.h"

struct ring_node {
	struct file_operations *fops;
	struct miscdevice misc;
};

static struct ring_node ring_nodes[] = {
	{ .fops = &ring_data_fops, .misc = { .name = "ring-data", .mode = 0600 } },
	{ .fops = &ring_ctl_fops,  .misc = { .name = "ring-ctl",  .mode = 0600 } },
};

static void ring_setup_fops(struct file_operations *fops, struct module *owner)
{
	fops->owner = owner;
	if (!fops->llseek)
		fops->llseek = no_llseek;
}

static int __init ring_init(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(ring_nodes); i++) {
		struct ring_node *node = &ring_nodes[i];

		ring_setup_fops(node->fops, THIS_MODULE);
		node->misc.minor = MISC_DYNAMIC_MINOR;
		node->misc.fops = node->fops;
		ret = misc_register(&node->misc);
		if (ret)
			goto err_deregister;
	}
	return 0;

err_deregister:
	while (--i >= 0)
		misc_deregister(&ring_nodes[i].misc);
	return ret;
}

static void __exit ring_exit(void)
{
	int i;

	for (i = ARRAY_SIZE(ring_nodes) - 1; i >= 0; i--)
		misc_deregister(&ring_nodes[i].misc);
	pr_info("ring: %lu overruns\n", ring.overruns);
}

module_init(ring_init);
module_exit(ring_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Shared ring buffer devices (fops owner set through a pointer)");
