// SPDX-License-Identifier: GPL-2.0-only
/*
 * canping: a CAN protocol whose sockets only count the bytes sent to them.
 *
 * The proto_ops have no owner: __sock_create() pins nothing through them.
 * But every socket's sk is allocated from canping_proto, whose owner is
 * set: sk_alloc() takes the module and sk_free() drops it, so the module
 * stays while any socket exists (net/can's raw, bcm and isotp are built
 * the same way). Nothing to report.
 */
#include <linux/can.h>
#include <linux/can/core.h>
#include <linux/module.h>
#include <linux/net.h>
#include <net/sock.h>

#define CAN_PING	CAN_MCNET	/* a protocol number 6.1 leaves unused */

struct canping_sock {
	struct sock sk;
	u64 bytes;
};

static int canping_release(struct socket *sock)
{
	struct sock *sk = sock->sk;

	if (!sk)
		return 0;
	sock_orphan(sk);
	sock->sk = NULL;
	sock_put(sk);
	return 0;
}

static int canping_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct canping_sock *cp = container_of(sock->sk, struct canping_sock, sk);

	cp->bytes += len;
	return len;
}

static const struct proto_ops canping_ops = {
	.family		= PF_CAN,
	.release	= canping_release,
	.bind		= sock_no_bind,
	.connect	= sock_no_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= sock_no_accept,
	.getname	= sock_no_getname,
	.poll		= datagram_poll,
	.ioctl		= sock_no_ioctl,
	.listen		= sock_no_listen,
	.shutdown	= sock_no_shutdown,
	.sendmsg	= canping_sendmsg,
	.recvmsg	= sock_no_recvmsg,
	.mmap		= sock_no_mmap,
	.sendpage	= sock_no_sendpage,
};

static struct proto canping_proto = {
	.name		= "CAN_PING",
	.owner		= THIS_MODULE,
	.obj_size	= sizeof(struct canping_sock),
};

static const struct can_proto canping_can_proto = {
	.type		= SOCK_DGRAM,
	.protocol	= CAN_PING,
	.ops		= &canping_ops,
	.prot		= &canping_proto,
};

static int __init canping_init(void)
{
	return can_proto_register(&canping_can_proto);
}

static void __exit canping_exit(void)
{
	can_proto_unregister(&canping_can_proto);
}

module_init(canping_init);
module_exit(canping_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("CAN protocol whose ops are held through its struct proto");
MODULE_ALIAS("can-proto-5");
