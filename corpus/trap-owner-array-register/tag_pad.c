// SPDX-License-Identifier: GPL-2.0-only
/*
 * tag_pad: two DSA tagging protocols for a made-up switch that pads
 * frames with a 4-byte port trailer.
 *
 * The tag drivers have no .owner: module_dsa_tag_drivers() hands the
 * array of them to dsa_tag_drivers_register() together with THIS_MODULE,
 * and the core sets each one's owner (as net/dsa/tag_dsa.c does).
 */
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <net/dsa.h>

#define PAD_LEN		4

static struct sk_buff *pad_xmit(struct sk_buff *skb, struct net_device *dev)
{
	u8 *trailer;

	if (__skb_put_padto(skb, ETH_ZLEN, false))
		return NULL;
	trailer = skb_put(skb, PAD_LEN);
	memset(trailer, 0, PAD_LEN);
	trailer[0] = 0x80;
	return skb;
}

static struct sk_buff *pad_rcv(struct sk_buff *skb, struct net_device *dev)
{
	if (skb->len < PAD_LEN || pskb_trim_rcsum(skb, skb->len - PAD_LEN))
		return NULL;
	return skb;
}

static const struct dsa_device_ops pad_netdev_ops = {
	.name		= "pad",
	.proto		= DSA_TAG_PROTO_NONE,
	.xmit		= pad_xmit,
	.rcv		= pad_rcv,
	.needed_tailroom = PAD_LEN,
};

static const struct dsa_device_ops pad8_netdev_ops = {
	.name		= "pad8",
	.proto		= DSA_TAG_PROTO_NONE,
	.xmit		= pad_xmit,
	.rcv		= pad_rcv,
	.needed_tailroom = 2 * PAD_LEN,
};

DSA_TAG_DRIVER(pad_netdev_ops);
DSA_TAG_DRIVER(pad8_netdev_ops);

static struct dsa_tag_driver *pad_tag_drivers[] = {
	&DSA_TAG_DRIVER_NAME(pad_netdev_ops),
	&DSA_TAG_DRIVER_NAME(pad8_netdev_ops),
};

module_dsa_tag_drivers(pad_tag_drivers);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("DSA trailer taggers registered as an array with THIS_MODULE (owner set by the core)");
