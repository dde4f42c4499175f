# SPDX-License-Identifier: GPL-2.0-only
"""The plan of a scan (which files are module code, their options and
flags) is kept with what decided it: used again while the tree's Kconfig
files, Makefiles and directories and the sources' CONFIG_ words are as
they were, made again when any of them changes."""
import json
import glob
import os
import sys
import unittest
from unittest import mock

from test_modules import fake_tree
from util import TempDir, read_entry, seeded, write, write_entry

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
from frontend.scanning import plan_cache, scan as scanmod  # noqa: E402


def tree_and_cache(tmp):
    """A fake tree's driver directory, a fresh cache, its sources."""
    d = fake_tree(tmp)
    return d, seeded(os.path.join(tmp, "cache")), sorted(
        glob.glob(os.path.join(d, "*.c")))


class PlanCacheTest(unittest.TestCase):
    def setUp(self):
        # the files are new here: their time stamps are not to keep the
        # plan out (test_recent_plan_is_not_kept)
        p = mock.patch.object(plan_cache, "RECENT_NS", 0)
        p.start()
        self.addCleanup(p.stop)

    def plan(self, cache, files):
        """(plan with the flags, whether it came from the cache)."""
        sc = scanmod.Scanner(None, 1, cache_dir=cache)
        out = sc._plan(files, [], ())
        return out + (sc.plan_flags,), sc.plan_cache.hit

    def test_kept_until_what_decided_it_changes(self):
        with TempDir() as tmp:
            d, cache, files = tree_and_cache(tmp)
            first, hit = self.plan(cache, files)
            self.assertFalse(hit)
            self.assertEqual(sorted(os.path.basename(f) for f in first[0]),
                             ["a.c", "evq-fops.c", "evq-main.c"])
            again, hit = self.plan(cache, files)
            self.assertTrue(hit)
            self.assertEqual(again, first)
            # an edit without a CONFIG_ word changes no option
            a = os.path.join(d, "a.c")
            with open(a, "a") as f:
                f.write("/* edited */\n")
            self.assertEqual(self.plan(cache, files), (first, True))
            # a CONFIG_ word the file tests may (FOO_B's =y when it
            # becomes a part's option)
            with open(a, "a") as f:
                f.write("#ifdef CONFIG_FOO_B\n#endif\n")
            self.assertEqual(self.plan(cache, files), (first, False))
            self.assertTrue(self.plan(cache, files)[1])
            # the Makefile's flags
            mk = os.path.join(d, "Makefile")
            with open(mk, "a") as f:
                f.write("ccflags-y += -DMODLIFE_PLANNED\n")
            plan, hit = self.plan(cache, files)
            self.assertFalse(hit)
            self.assertIn("-DMODLIFE_PLANNED", plan[4][a])
            # a Kconfig file: FOO_B a tristate makes b.c module code
            kc = os.path.join(d, "Kconfig")
            with open(kc) as f:
                text = f.read()
            write(kc, text.replace('bool "B', 'tristate "B'))
            plan, hit = self.plan(cache, files)
            self.assertFalse(hit)
            self.assertIn(os.path.join(d, "b.c"), plan[0])
            # a Kbuild file that appears beside the Makefile (kbuild
            # reads it first): the directory changed
            self.assertTrue(self.plan(cache, files)[1])
            write(os.path.join(d, "Kbuild"), "obj-m += c.o\n")
            plan, hit = self.plan(cache, files)
            self.assertFalse(hit)
            self.assertEqual(sorted(os.path.basename(f) for f in plan[0]),
                             ["c.c"])

    def test_warm_scan_reads_no_kconfig_and_no_facts(self):
        """What keeps a warm rescan fast: the plan and each module's
        result come from the cache, so neither the tree's Kconfig files
        nor the facts are read."""
        with TempDir() as tmp:
            d = fake_tree(tmp)
            cache = seeded(os.path.join(tmp, "cache"))

            def scanner():
                return scanmod.Scanner(None, 1, cache_dir=cache,
                                       cocci="off", progress=False)
            cold = scanner().scan([d])
            self.assertTrue(cold["findings"])
            sc = scanner()
            with mock.patch.object(scanmod, "Kconfig",
                                   side_effect=AssertionError("Kconfig")), \
                    mock.patch.object(sc.cache, "get",
                                      side_effect=AssertionError("facts")):
                warm = sc.scan([d])
            self.assertEqual(warm, cold)
            self.assertEqual(sc.stats["cache_hits"], sc.stats["checked"])

    def test_recent_plan_is_not_kept(self):
        with TempDir() as tmp:
            d, cache, files = tree_and_cache(tmp)
            with mock.patch.object(plan_cache, "RECENT_NS", 3600 * 10**9):
                self.assertFalse(self.plan(cache, files)[1])
                self.assertFalse(self.plan(cache, files)[1])
            self.assertEqual(glob.glob(os.path.join(cache, "plan", "*",
                                                    "*.json")), [])

    def test_an_entry_that_cannot_go_stale_is_planned_again(self):
        """Even sealed: a plan whose inputs name no directory of its
        files would hold on any checkout (here: its module not-built)."""
        with TempDir() as tmp:
            d, cache, files = tree_and_cache(tmp)
            first, _ = self.plan(cache, files)
            entry, = glob.glob(os.path.join(cache, "plan", "*", "*.json"))
            e = read_entry(entry)
            e["inputs"] = {"files": [], "dirs": [], "words": []}
            plan = e["plan"]
            for f in list(plan["info"]):
                plan["skipped"][f] = "not-built"
                for k in ("info", "options", "flags"):
                    del plan[k][f]
            plan["modules"] = {}
            write_entry(entry, e)
            self.assertEqual(self.plan(cache, files), (first, False))

    def test_entry_of_another_shape_is_planned_again(self):
        with TempDir() as tmp:
            d, cache, files = tree_and_cache(tmp)
            first, _ = self.plan(cache, files)
            entry, = glob.glob(os.path.join(cache, "plan", "*", "*.json"))
            e = read_entry(entry)
            a = os.path.join(d, "a.c")
            for bad in ({"-I/x": 1}, [["CONFIG_X"]], None):
                e["plan"]["options"][a][0] = bad
                write_entry(entry, e)
                self.assertEqual(self.plan(cache, files), (first, False))
                e = read_entry(entry)
            # flags no Makefile reader gives are not for the checker's
            # command line
            for bad in (["--modlife-facts=" + tmp], ["-o", tmp],
                        ["-include"]):
                e["plan"]["flags"][a] = bad
                write_entry(entry, e)
                self.assertEqual(self.plan(cache, files), (first, False))
                e = read_entry(entry)
            write(entry, "{")
            self.assertEqual(self.plan(cache, files), (first, False))


if __name__ == "__main__":
    unittest.main()
