# SPDX-License-Identifier: GPL-2.0-only
"""What the semantic patches know of kb/ is generated from it
(scripts/gen_cocci.py, make cocci-gen) between "modlife-gen" markers:
a committed file that differs from what the generator writes fails here
with the diff, and no kb list or table is left outside the markers.
frontend/scanning/kb.py reads its stop names from kb/api.tsv."""
import os
import re
import shutil
import sys
import unittest

from util import ROOT, TempDir, edit, run, write

sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import gen_cocci  # noqa: E402
from frontend import paths
from frontend.scanning import kb as frontend_kb  # noqa: E402

GEN = os.path.join(ROOT, "scripts", "gen_cocci.py")
BEGIN = re.compile(r"^\s*(//|#) modlife-gen begin ([\w-]+)")
END = re.compile(r"^\s*(//|#) modlife-gen end ([\w-]+)$")


def check(root=ROOT):
    return run([sys.executable, GEN, "--check", "--root", root])


def copy_tree(dest):
    """cocci/ and kb/ of this tree, for the generator to run on."""
    for d in ("cocci", "kb"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(dest, d))
    return dest


def blocks(path):
    """{block name: [its lines]} of a semantic patch (names may repeat:
    the lines of the last)."""
    out, name = {}, None
    with open(path) as f:
        for line in f.read().splitlines():
            if BEGIN.match(line):
                name = BEGIN.match(line).group(2)
                out[name] = []
            elif END.match(line):
                name = None
            elif name:
                out[name].append(line)
    return out


def api(cls):
    return [n for c, n in paths.kb_api() if c == cls]


def py_block(script, name):
    """The Python a block of a script block defines, run."""
    env = {"re": re}
    exec("\n".join(blocks(os.path.join(ROOT, "cocci", script))[name]), env)
    return env


class GeneratedCopiesTest(unittest.TestCase):
    def test_committed_files_are_what_the_generator_writes(self):
        res = check()
        self.assertEqual(res.returncode, 0,
                         "cocci/ differs from kb/ (run make cocci-gen):\n" +
                         res.stdout + res.stderr)
        self.assertEqual(res.stdout, "")

    def test_a_hand_edited_line_fails_with_a_diff(self):
        with TempDir() as tmp:
            copy_tree(tmp)
            edit(os.path.join(tmp, "cocci", "exit_no_rcu_barrier.cocci"),
                 "flush_rcu_work, ", "")
            res = check(tmp)
            self.assertEqual(res.returncode, 1, res.stdout + res.stderr)
            self.assertIn("cocci/exit_no_rcu_barrier.cocci (committed)",
                          res.stdout)
            self.assertRegex(res.stdout, r"(?m)^\+\t\tflush_rcu_work, ")
            self.assertIn("make cocci-gen", res.stderr)
            # the generator puts the line back
            res = run([sys.executable, GEN, "--root", tmp])
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertEqual(check(tmp).returncode, 0)

    def test_a_new_kb_row_fails_until_generated(self):
        with TempDir() as tmp:
            copy_tree(tmp)
            edit(os.path.join(tmp, "kb", "api.tsv"), "log\tnetdev_*\n",
                 "log\tnetdev_*\nlog\tfoo_log_*\n")
            res = check(tmp)
            self.assertEqual(res.returncode, 1)
            for script in ("empty_release.cocci", "static_object.cocci"):
                self.assertIn("cocci/%s (generated)" % script, res.stdout)
            self.assertRegex(res.stdout, r"(?m)^\+ML_LOG = .*\|foo_log_\\w\*\+")
            self.assertRegex(res.stdout,
                             r"(?m)^\+// Prefilter-re: .*\|foo_log_\\w\*\+")

    def test_broken_markers_are_errors(self):
        with TempDir() as tmp:
            copy_tree(tmp)
            p = os.path.join(tmp, "cocci", "missing_owner.cocci")
            edit(p, "# modlife-gen end owner-defaults\n", "")
            res = check(tmp)
            self.assertEqual(res.returncode, 2)
            self.assertIn("owner-defaults", res.stderr)
        with TempDir() as tmp:
            copy_tree(tmp)
            p = os.path.join(tmp, "cocci", "exit_pending_timer.cocci")
            edit(p, "modlife-gen begin sync-fix", "modlife-gen begin nosuch")
            edit(p, "modlife-gen end sync-fix", "modlife-gen end nosuch")
            res = check(tmp)
            self.assertEqual(res.returncode, 2)
            self.assertIn("nosuch", res.stderr)
        with TempDir() as tmp:
            # a marker the file lost is missed too
            copy_tree(tmp)
            p = os.path.join(tmp, "cocci", "exit_no_rcu_barrier.cocci")
            with open(p) as f:
                text = f.read()
            write(p, re.sub(r"// modlife-gen (begin|end) barriers.*\n", "",
                            text))
            res = check(tmp)
            self.assertEqual(res.returncode, 2)
            self.assertIn("barriers", res.stderr)

    def test_no_kb_list_outside_the_markers(self):
        """Every "kb:" list and "kb-table:" copy is a generated one."""
        seen = 0
        for name in sorted(os.listdir(os.path.join(ROOT, "cocci"))):
            if not name.endswith(".cocci"):
                continue
            inside = False
            with open(os.path.join(ROOT, "cocci", name)) as f:
                for n, line in enumerate(f, 1):
                    if BEGIN.match(line):
                        inside = True
                    elif END.match(line):
                        inside = False
                    elif re.match(r"\s*(//|#) kb(-table)?: ", line):
                        seen += 1
                        self.assertTrue(inside, "%s:%d: %s" % (
                            name, n, line.strip()))
        self.assertGreaterEqual(seen, 10)

    def test_every_script_with_blocks_is_known(self):
        for name in sorted(os.listdir(os.path.join(ROOT, "cocci"))):
            path = os.path.join(ROOT, "cocci", name)
            if blocks(path):
                self.assertIn(name, gen_cocci.BLOCKS)

    def test_barriers_are_the_checkers(self):
        """rcu_barrier() and every "barrier:" helper the checker knows
        (kb/owner-reads.tsv), not three of them."""
        with open(os.path.join(ROOT, "kb", "owner-reads.tsv")) as f:
            helpers = [ln.split("\t")[0][len("barrier:"):] for ln in f
                       if ln.startswith("barrier:")]
        self.assertGreaterEqual(len(helpers), 12)
        text = "\n".join(blocks(os.path.join(
            ROOT, "cocci", "exit_no_rcu_barrier.cocci"))["barriers"])
        names = re.findall(r"\w+", text.split("{", 1)[1])
        self.assertEqual(sorted(names),
                         sorted(api("rcu-barrier") + helpers))

    def test_does_nothing_takes_the_log_rows(self):
        for script in ("empty_release.cocci", "static_object.cocci"):
            env = py_block(script, "does-nothing")
            nothing = env["ml_does_nothing"]
            for body in ('dev_dbg(dev, "release\\n");',
                         'pr_info("x");',
                         'netdev_info(nd, "gone");',
                         'WARN_ON(1);',
                         'struct foo *f = container_of(dev, struct foo, '
                         'dev); dev_err(dev, "%p", f); return;',
                         ''):
                self.assertTrue(nothing(body), (script, body))
            for body in ('kfree(f);', 'dev_dbg(dev, "x"); kfree(f);',
                         'complete(&done);', 'foo_printk("x");'):
                self.assertFalse(nothing(body), (script, body))
            for glob in api("log"):
                name = glob.replace("*", "x").replace("?", "x")
                self.assertTrue(env["ML_LOG"].match(name), (script, glob))

    def test_timer_pairs(self):
        self.assertEqual(dict(gen_cocci.timer_pairs(gen_cocci.Kb(ROOT))), {
            "del_timer": "del_timer_sync",
            "timer_delete": "timer_delete_sync",
            "timer_shutdown": "timer_shutdown_sync",
            "hrtimer_try_to_cancel": "hrtimer_cancel"})

    def test_frontend_stop_names_are_the_kb_rows(self):
        """frontend/scanning/kb.py's stops are kb/api.tsv's, read at run time."""
        names = [n for cls in frontend_kb.STOP_CLASSES for n in api(cls)]
        self.assertIn("__flush_workqueue", names)
        self.assertIn("kthread_stop", names)
        self.assertIn("flush_scheduled_work", names)
        for n in names:
            self.assertTrue(frontend_kb.STOP.search(n.encode() + b"(x)"), n)
        for n in ("del_timer", "cancel_work", "queue_work"):
            self.assertFalse(frontend_kb.STOP.search(n.encode() + b"(x)"), n)

    def test_make_target(self):
        res = run(["make", "-n", "-s", "-C", ROOT, "cocci-gen"])
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("scripts/gen_cocci.py", res.stdout)


if __name__ == "__main__":
    unittest.main()
