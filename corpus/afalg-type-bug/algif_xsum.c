// SPDX-License-Identifier: GPL-2.0-only
/*
 * algif_xsum: an AF_ALG socket type ("xsum") that returns the byte sum
 * of what was sent, for testing user-space AF_ALG clients.
 *
 * bind() on an AF_ALG socket with salg_type "xsum" reaches alg_get_type(),
 * which pins xsum_type.owner: with no owner nothing is pinned, and the
 * module can be unloaded while a socket still calls into xsum_ops. The
 * proto_ops need no owner of their own: af_alg_register_type() fills it in.
 */
#include <crypto/if_alg.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <net/sock.h>

struct xsum_ctx {
	u32 sum;
};

static int xsum_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct alg_sock *ask = alg_sk(sock->sk);
	struct xsum_ctx *ctx = ask->private;
	size_t done = 0;
	u8 buf[64];

	while (done < len) {
		size_t n = min(len - done, sizeof(buf));
		size_t i;

		if (copy_from_iter(buf, n, &msg->msg_iter) != n)
			return -EFAULT;
		for (i = 0; i < n; i++)
			ctx->sum += buf[i];
		done += n;
	}
	return len;
}

static int xsum_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
			int flags)
{
	struct alg_sock *ask = alg_sk(sock->sk);
	struct xsum_ctx *ctx = ask->private;

	len = min(len, sizeof(ctx->sum));
	if (copy_to_iter(&ctx->sum, len, &msg->msg_iter) != len)
		return -EFAULT;
	return len;
}

static struct proto_ops xsum_ops = {
	.family		= PF_ALG,
	.connect	= sock_no_connect,
	.socketpair	= sock_no_socketpair,
	.getname	= sock_no_getname,
	.ioctl		= sock_no_ioctl,
	.listen		= sock_no_listen,
	.shutdown	= sock_no_shutdown,
	.mmap		= sock_no_mmap,
	.bind		= sock_no_bind,
	.accept		= sock_no_accept,
	.release	= af_alg_release,
	.sendmsg	= xsum_sendmsg,
	.recvmsg	= xsum_recvmsg,
};

static void *xsum_bind(const char *name, u32 type, u32 mask)
{
	return kzalloc(sizeof(struct xsum_ctx), GFP_KERNEL) ?: ERR_PTR(-ENOMEM);
}

static void xsum_release(void *private)
{
	kfree(private);
}

static void xsum_sock_destruct(struct sock *sk)
{
	struct alg_sock *ask = alg_sk(sk);

	kfree(ask->private);
	af_alg_release_parent(sk);
}

static int xsum_accept(void *private, struct sock *sk)
{
	struct alg_sock *ask = alg_sk(sk);
	struct xsum_ctx *ctx;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ask->private = ctx;
	sk->sk_destruct = xsum_sock_destruct;
	return 0;
}

static const struct af_alg_type xsum_type = {
	.bind		= xsum_bind,
	.release	= xsum_release,
	.accept		= xsum_accept,
	.ops		= &xsum_ops,
	.name		= "xsum",
};

static int __init algif_xsum_init(void)
{
	return af_alg_register_type(&xsum_type);
}

static void __exit algif_xsum_exit(void)
{
	af_alg_unregister_type(&xsum_type);
}

module_init(algif_xsum_init);
module_exit(algif_xsum_exit);
MODULE_DESCRIPTION("AF_ALG byte-sum interface for testing");
MODULE_LICENSE("GPL");
