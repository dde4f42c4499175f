# SPDX-License-Identifier: GPL-2.0-only
"""The semantic patches' fixes, end to end: applied to a copy of a corpus
bug with spatch --in-place, the module still builds with kbuild against
the Debian headers, a new scan is clean, and a second application changes
nothing."""
import glob
import os
import subprocess
import unittest

from util import ROOT, TempDir, copy_module, kbuild, scan

SCRIPTS = sorted(glob.glob(os.path.join(ROOT, "cocci", "*.cocci")))


def snapshot(d):
    out = {}
    for p in sorted(glob.glob(os.path.join(d, "*.[ch]"))):
        if p.endswith(".mod.c"):
            continue
        with open(p) as f:
            out[os.path.basename(p)] = f.read()
    return out


def apply_all(d):
    for c in sorted(glob.glob(os.path.join(d, "*.c"))):
        if c.endswith(".mod.c"):
            continue
        for s in SCRIPTS:
            res = subprocess.run(
                ["spatch", "-D", "patch", "--very-quiet", "--no-includes",
                 "--include-headers", "--in-place", "--sp-file", s, c],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if res.returncode != 0 or "EXN" in res.stderr:
                raise AssertionError("spatch %s %s: %s" % (s, c, res.stderr))


class FixTest(unittest.TestCase):
    def fix_and_check(self, module):
        with TempDir() as tmp:
            d = copy_module(module, tmp)
            before = snapshot(d)
            rc, result, _ = scan([d])
            self.assertEqual(rc, 1)
            apply_all(d)
            after = snapshot(d)
            self.assertNotEqual(before, after, "the fix changed nothing")
            res = kbuild(d)
            self.assertEqual(res.returncode, 0, res.stderr[-2000:])
            rc, result, err = scan([d])
            self.assertEqual((rc, result["findings"]), (0, []), err)
            apply_all(d)
            self.assertEqual(snapshot(d), after, "second application")
            return after

    def test_misc_char(self):
        self.fix_and_check("misc-char-bug")

    def test_cdev(self):
        self.fix_and_check("cdev-bug")

    def test_blk(self):
        self.fix_and_check("blk-bug")

    def test_static_platform_device_to_core_allocation(self):
        self.fix_and_check("static-pdev-bug")

    def test_static_kobject_to_kobject_create_and_add(self):
        self.fix_and_check("static-kobj-bug")

    def test_del_timer_to_del_timer_sync(self):
        self.fix_and_check("timer-bug")

    def test_rcu_barrier_in_exit(self):
        self.fix_and_check("rcu-bug")

    def test_library_empty_release_frees_and_the_late_frees_go(self):
        after = self.fix_and_check("empty-release-library-bug")
        fixed = snapshot(os.path.join(ROOT, "corpus",
                                      "empty-release-library-fixed"))
        strip = (lambda t: t[t.index("#include"):].replace(
            "a release that frees", "an empty release for"))
        self.assertEqual(strip(after["tapbus.c"]), strip(fixed["tapbus.c"]))


class CocciFixturesTest(unittest.TestCase):
    def test_fixtures_all_modes(self):
        res = subprocess.run(["sh", os.path.join(ROOT, "tests", "cocci",
                                                 "run.sh")],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
        last = res.stdout.strip().splitlines()[-1]
        self.assertRegex(last, r"^[1-9]\d* passed, 0 failed$", res.stdout)
        self.assertEqual(res.returncode, 0, res.stdout)


if __name__ == "__main__":
    unittest.main()


class FixCommandTest(unittest.TestCase):
    def run_fix(self, *args, env=None):
        import subprocess
        from util import MODLIFE
        return subprocess.run([MODLIFE, "fix"] + list(args), env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)

    def test_dry_run_then_fix_then_nothing(self):
        with TempDir() as tmp:
            d = copy_module("cdev-bug", tmp)
            src = os.path.join(d, "scratch.c")
            before = snapshot(d)
            res = self.run_fix("--dry-run", d)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertIn("+\tscratch->cdev.owner = THIS_MODULE;", res.stdout)
            self.assertEqual(snapshot(d), before)
            res = self.run_fix(d)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertNotEqual(snapshot(d), before)
            st = os.stat(src)
            res = self.run_fix(d)
            self.assertEqual(res.stdout, "")
            st2 = os.stat(src)
            self.assertEqual((st.st_ino, st.st_mtime_ns),
                             (st2.st_ino, st2.st_mtime_ns))
            rc, result, _ = scan([d])
            self.assertEqual(result["findings"], [])

    def test_spatch_timeout_leaves_file(self):
        with TempDir() as tmp:
            d = copy_module("misc-char-bug", tmp)
            src = os.path.join(d, "mchar.c")
            with open(src, "a") as f:
                for i in range(60000):
                    f.write("int gen_%d(int x) { return x + %d; }\n" % (i, i))
            before = snapshot(d)
            env = dict(os.environ, MODLIFE_SPATCH_TIMEOUT="1")
            res = self.run_fix(d, env=env)
            self.assertEqual(res.returncode, 2)
            self.assertIn("timed out", res.stderr)
            self.assertIn("left as it was", res.stderr)
            self.assertEqual(snapshot(d), before)
