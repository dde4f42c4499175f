// SPDX-License-Identifier: GPL-2.0-only
/*
 * beacon_sock: a small datagram socket family for a beacon protocol,
 * built as an out-of-tree module on the retired DECnet family number.
 *
 * Like NET/ROM and ROSE, a socket released while data is still queued is
 * destroyed later from its own sk_timer, which this module arms and never
 * stops on exit. That is safe: every socket comes from beacon_proto, whose
 * owner is this module, so sk_alloc() took a module reference that only
 * the final sock_put() (from the timer) gives back; rmmod cannot happen
 * while such a timer is pending.
 */
#include <linux/module.h>
#include <linux/net.h>
#include <linux/skbuff.h>
#include <linux/socket.h>
#include <linux/timer.h>
#include <net/sock.h>

#define PF_BEACON	AF_DECnet
#define BEACON_DESTROY_DELAY	(5 * HZ)

struct beacon_sock {
	struct sock sk;		/* first: sk_alloc() sizes it from obj_size */
	u16 channel;
};

static struct proto beacon_proto = {
	.name = "BEACON",
	.owner = THIS_MODULE,
	.obj_size = sizeof(struct beacon_sock),
};

static void beacon_destroy_socket(struct sock *sk);

static void beacon_destroy_timer(struct timer_list *t)
{
	struct sock *sk = from_timer(sk, t, sk_timer);

	bh_lock_sock(sk);
	sock_hold(sk);
	beacon_destroy_socket(sk);
	bh_unlock_sock(sk);
	sock_put(sk);
}

/* Frees the socket, or retries later while skbs still hold it. */
static void beacon_destroy_socket(struct sock *sk)
{
	skb_queue_purge(&sk->sk_receive_queue);
	if (sk_has_allocations(sk)) {
		sk->sk_timer.function = beacon_destroy_timer;
		sk->sk_timer.expires = jiffies + BEACON_DESTROY_DELAY;
		add_timer(&sk->sk_timer);
	} else {
		sock_put(sk);
	}
}

static int beacon_release(struct socket *sock)
{
	struct sock *sk = sock->sk;

	if (!sk)
		return 0;
	sock_hold(sk);
	lock_sock(sk);
	sock_orphan(sk);
	sock->sk = NULL;
	beacon_destroy_socket(sk);
	release_sock(sk);
	sock_put(sk);
	return 0;
}

static const struct proto_ops beacon_ops = {
	.family = PF_BEACON,
	.owner = THIS_MODULE,
	.release = beacon_release,
	.bind = sock_no_bind,
	.connect = sock_no_connect,
	.socketpair = sock_no_socketpair,
	.accept = sock_no_accept,
	.getname = sock_no_getname,
	.poll = datagram_poll,
	.ioctl = sock_no_ioctl,
	.listen = sock_no_listen,
	.shutdown = sock_no_shutdown,
	.sendmsg = sock_no_sendmsg,
	.recvmsg = sock_no_recvmsg,
	.mmap = sock_no_mmap,
	.sendpage = sock_no_sendpage,
};

static int beacon_create(struct net *net, struct socket *sock, int protocol,
			 int kern)
{
	struct sock *sk;

	if (sock->type != SOCK_DGRAM)
		return -ESOCKTNOSUPPORT;
	sk = sk_alloc(net, PF_BEACON, GFP_KERNEL, &beacon_proto, kern);
	if (!sk)
		return -ENOMEM;
	sock_init_data(sock, sk);
	sock->ops = &beacon_ops;
	return 0;
}

static const struct net_proto_family beacon_family = {
	.family = PF_BEACON,
	.create = beacon_create,
	.owner = THIS_MODULE,
};

static int __init beacon_init(void)
{
	int ret = proto_register(&beacon_proto, 0);

	if (ret)
		return ret;
	ret = sock_register(&beacon_family);
	if (ret)
		proto_unregister(&beacon_proto);
	return ret;
}

static void __exit beacon_exit(void)
{
	sock_unregister(PF_BEACON);
	proto_unregister(&beacon_proto);
}

module_init(beacon_init);
module_exit(beacon_exit);
MODULE_DESCRIPTION("Beacon datagram sockets with deferred destruction");
MODULE_LICENSE("GPL");
