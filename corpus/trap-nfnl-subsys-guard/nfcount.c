// SPDX-License-Identifier: GPL-2.0-only
/*
 * nfcount: a netfilter netlink subsystem that answers one request with a
 * packet counter (on the otherwise unused ULOG subsystem id).
 *
 * The subsystem has no owner, but nfnetlink pins a subsystem's owner only
 * for batch subsystems (nfnetlink_rcv_batch(), for tables with
 * .valid_genid, .commit and .abort, which nf_tables alone has). Other
 * messages run under nfnl_lock(), which unregistration takes too, so the
 * exit cannot pass a running callback. Nothing to report.
 */
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/skbuff.h>

#define NFCOUNT_MSG_GET	0

static atomic64_t nfcount_requests = ATOMIC64_INIT(0);

static int nfcount_get(struct sk_buff *skb, const struct nfnl_info *info,
		       const struct nlattr * const cda[])
{
	atomic64_inc(&nfcount_requests);
	return 0;
}

static const struct nfnl_callback nfcount_cb[] = {
	[NFCOUNT_MSG_GET] = {
		.call		= nfcount_get,
		.type		= NFNL_CB_MUTEX,
	},
};

static const struct nfnetlink_subsystem nfcount_subsys = {
	.name		= "nfcount",
	.subsys_id	= NFNL_SUBSYS_ULOG,
	.cb_count	= ARRAY_SIZE(nfcount_cb),
	.cb		= nfcount_cb,
};

static int __init nfcount_init(void)
{
	return nfnetlink_subsys_register(&nfcount_subsys);
}

static void __exit nfcount_exit(void)
{
	nfnetlink_subsys_unregister(&nfcount_subsys);
}

module_init(nfcount_init);
module_exit(nfcount_exit);

MODULE_DESCRIPTION("Netfilter netlink request counter");
MODULE_LICENSE("GPL");
