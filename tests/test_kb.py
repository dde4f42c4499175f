# SPDX-License-Identifier: GPL-2.0-only
"""'modlife kb' derives which owner fields matter from a kernel tree."""
import os
import unittest

from util import MODLIFE, TempDir, run, write

PIN_C = """\
#include <linux/module.h>

struct foo_ops { struct module *owner; int (*run)(void); };
struct bar_ops { struct module *owner; };
struct baz_ops { struct module *owner; };
struct holder { struct module *owner; };
struct qux_ops { struct module *owner; };

int foo_get(struct foo_ops *ops)
{
	return try_module_get(ops->owner);
}

void bar_hold(struct bar_ops *ops)
{
	struct module *m = ops->owner;

	__module_get(m);
}

void baz_attach(struct holder *h, struct baz_ops *b)
{
	h->owner = b->owner;
}

int holder_get(struct holder *h)
{
	return try_module_get(h ? h->owner : NULL);
}

int qux_named(struct qux_ops *q)
{
	return q->owner != NULL;
}
"""


class KbTest(unittest.TestCase):
    def test_reads_copies_and_locals(self):
        with TempDir() as tmp:
            tree = os.path.join(tmp, "linux")
            os.makedirs(os.path.join(tree, "include", "linux"))
            write(os.path.join(tree, "Makefile"),
                  "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 99\n")
            write(os.path.join(tree, "kernel", "pin.c"), PIN_C)
            out = os.path.join(tmp, "kb.tsv")
            res = run([MODLIFE, "kb", "--tree", tree, "-o", out])
            self.assertEqual(res.returncode, 0, res.stderr)
            with open(out) as f:
                text = f.read()
            rows = [ln.split("\t") for ln in text.splitlines()
                    if not ln.startswith("#")]
            got = {r[0]: r[1] for r in rows}
            self.assertEqual(sorted(got), ["struct bar_ops", "struct baz_ops",
                                           "struct foo_ops", "struct holder"])
            self.assertEqual(got["struct foo_ops"], "kernel/pin.c:11 foo_get()")
            self.assertEqual(got["struct holder"],
                             "kernel/pin.c:28 holder_get()")
            self.assertEqual(got["struct bar_ops"],
                             "kernel/pin.c:18 bar_hold()")
            self.assertEqual(got["struct baz_ops"],
                             "kernel/pin.c:23 baz_attach()")
            self.assertIn("Linux 6.1.99", text)
            self.assertNotIn(tmp, text)

    def test_barrier_helpers_across_files(self):
        """An exported helper reaching rcu_barrier() through another
        file's exported helper is a barrier too; a file that only calls
        the first helper is found in a later round."""
        with TempDir() as tmp:
            tree = os.path.join(tmp, "linux")
            os.makedirs(os.path.join(tree, "include", "linux"))
            write(os.path.join(tree, "Makefile"), "VERSION = 6\n")
            write(os.path.join(tree, "net", "core", "ns.c"), """\
#include <linux/export.h>
#include <linux/rcupdate.h>
static void ops_free(void) { rcu_barrier(); }
void unregister_things(void) { ops_free(); }
EXPORT_SYMBOL(unregister_things);
void register_things(void) { }
EXPORT_SYMBOL(register_things);
""")
            write(os.path.join(tree, "net", "sched", "act.c"), """\
#include <linux/export.h>
void unregister_things(void);
void register_things(void);
void act_unregister(void) { unregister_things(); }
EXPORT_SYMBOL(act_unregister);
void act_register(void) { register_things(); }
EXPORT_SYMBOL(act_register);
""")
            out = os.path.join(tmp, "kb.tsv")
            res = run([MODLIFE, "kb", "--tree", tree, "-o", out])
            self.assertEqual(res.returncode, 0, res.stderr)
            with open(out) as f:
                rows = [ln.split("\t") for ln in f
                        if ln.startswith("barrier:")]
            self.assertEqual([r[0] for r in rows],
                             ["barrier:act_unregister",
                              "barrier:unregister_things"])
            self.assertEqual(rows[0][1], "net/sched/act.c:4 act_unregister()")

    def test_not_a_tree(self):
        with TempDir() as tmp:
            res = run([MODLIFE, "kb", "--tree", tmp, "-o",
                       os.path.join(tmp, "x.tsv")])
            self.assertEqual(res.returncode, 2)
            self.assertIn("not a kernel source tree", res.stderr)

    def test_shipped_knowledge_covers_the_core_types(self):
        kb = os.path.join(os.path.dirname(MODLIFE), "kb", "owner-reads.tsv")
        with open(kb) as f:
            types = {ln.split("\t")[0] for ln in f if not ln.startswith("#")}
        for t in ("struct file_operations", "struct block_device_operations",
                  "struct cdev", "struct device_driver"):
            self.assertIn(t, types)
        # class.owner is not pinned by 6.1's core
        self.assertNotIn("struct class", types)


if __name__ == "__main__":
    unittest.main()
