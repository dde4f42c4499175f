# SPDX-License-Identifier: GPL-2.0-only
"""What discharges a pending-callback finding must name the same object:
a socket pins the module only if this module's protocol made it, and a
knowledge-file helper is never a static function of the module."""
import json
import os
import shutil
import unittest

from util import cold, MODLIFE, TempDir, finding_keys, run, write

KBUILD = "obj-m += %s.o\n"

# owns a protocol, but the timer is on a kernel TCP socket's sock
TCPMON_C = """\
#include <linux/module.h>
#include <linux/net.h>
#include <linux/timer.h>
#include <net/sock.h>

static struct proto tcpmon_proto = {
	.name = "TCPMON",
	.owner = THIS_MODULE,
	.obj_size = sizeof(struct sock),
};

static struct socket *tcpmon_sock;

static void tcpmon_tick(struct timer_list *t)
{
	struct sock *sk = from_timer(sk, t, sk_timer);

	pr_debug("tcpmon: state %d\\n", sk->sk_state);
	mod_timer(&sk->sk_timer, jiffies + HZ);
}

static int __init tcpmon_init(void)
{
	int ret = proto_register(&tcpmon_proto, 0);

	if (ret)
		return ret;
	ret = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP,
			       &tcpmon_sock);
	if (ret) {
		proto_unregister(&tcpmon_proto);
		return ret;
	}
	timer_setup(&tcpmon_sock->sk->sk_timer, tcpmon_tick, 0);
	mod_timer(&tcpmon_sock->sk->sk_timer, jiffies + HZ);
	return 0;
}

static void __exit tcpmon_exit(void)
{
	sock_release(tcpmon_sock);
	proto_unregister(&tcpmon_proto);
}

module_init(tcpmon_init);
module_exit(tcpmon_exit);
MODULE_LICENSE("GPL");
"""

# a static helper that shares its name with a listed exported helper
PACER_C = """\
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/timer.h>

struct pacer {
	struct timer_list t;
	unsigned long ticks;
};

static struct pacer *pacer;

static void pacer_tick(struct timer_list *t)
{
	struct pacer *p = from_timer(p, t, t);

	p->ticks++;
	mod_timer(&p->t, jiffies + HZ);
}

static void pacer_release(struct pacer *p)
{
	kfree(p);
}

static int __init pacer_init(void)
{
	pacer = kzalloc(sizeof(*pacer), GFP_KERNEL);
	if (!pacer)
		return -ENOMEM;
	timer_setup(&pacer->t, pacer_tick, 0);
	mod_timer(&pacer->t, jiffies + HZ);
	return 0;
}

static void __exit pacer_exit(void)
{
	pacer_release(pacer);
}

module_init(pacer_init);
module_exit(pacer_exit);
MODULE_LICENSE("GPL");
"""


def scan_module(tmp, name, source, env=None):
    d = os.path.join(tmp, name)
    write(os.path.join(d, name + ".c"), source)
    write(os.path.join(d, "Kbuild"), KBUILD % name)
    res = run([MODLIFE, "scan", "--format", "json", *cold(),
               "--no-cocci", "--rules", "all", d], env=env)
    return finding_keys(json.loads(res.stdout), d), res


class AsyncKeyTest(unittest.TestCase):
    def test_socket_of_another_protocol_does_not_pin(self):
        with TempDir() as tmp:
            got, res = scan_module(tmp, "tcpmon", TCPMON_C)
            self.assertEqual(got, ["tcpmon.c:19:exit-pending-timer"],
                             res.stderr)

    def test_static_function_is_not_a_knowledge_helper(self):
        with TempDir() as tmp:
            kb = os.path.join(tmp, "kb.tsv")
            shutil.copy(os.path.join(os.path.dirname(MODLIFE), "kb",
                                     "owner-reads.tsv"), kb)
            with open(kb, "a") as f:
                f.write("stops:pacer_release\texit-stops:struct pacer.t\t"
                        "lib/pacer.c:1 pacer_release()\n")
            got, res = scan_module(tmp, "pacer", PACER_C,
                                   dict(os.environ, MODLIFE_KB=kb))
            self.assertEqual(got, ["pacer.c:17:exit-pending-timer"],
                             res.stderr)


if __name__ == "__main__":
    unittest.main()
