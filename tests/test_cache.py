# SPDX-License-Identifier: GPL-2.0-only
"""The fact cache: a second scan re-links only, an edited file (or the
module-local header it includes) is re-parsed alone, and a cache that is
corrupt or cannot be written never changes the result. The semantic
patches' results on a file the checker cannot parse are cached too."""
import glob
import json
import os
import re
import unittest

from util import (TempDir, copy_module, copy_module_headed, finding_keys,
                  run, MODLIFE, expected,
                  read_entry, seeded, write_entry)

STATS = re.compile(r"(\d+) files, (\d+) checked, (\d+) skipped .*, "
                   r"(\d+) not parsed, (\d+) from cache")


def scan_stats(paths, cache):
    res = run([MODLIFE, "scan", "--format", "json", "--stats",
               "--cache-dir", cache] + paths)
    m = STATS.search(res.stderr)
    assert m, res.stderr
    import json
    return json.loads(res.stdout), [int(x) for x in m.groups()], res


class CacheTest(unittest.TestCase):
    def test_second_scan_and_one_edit(self):
        with TempDir() as tmp:
            d = copy_module("multi-file-bug", tmp)
            cache = seeded(os.path.join(tmp, "cache"))
            r1, s1, _ = scan_stats([d], cache)
            self.assertEqual(s1[1], 2)
            self.assertEqual(s1[4], 0)
            r2, s2, _ = scan_stats([d], cache)
            self.assertEqual(s2[4], 2)
            self.assertEqual(r1, r2)
            with open(os.path.join(d, "evq-main.c"), "a") as f:
                f.write("/* edited */\n")
            r3, s3, _ = scan_stats([d], cache)
            self.assertEqual(s3[4], 1)      # evq-fops.c from the cache
            self.assertEqual(finding_keys(r3, d), expected(d))
            with open(os.path.join(d, "evq.h"), "a") as f:
                f.write("/* edited too */\n")
            r4, s4, _ = scan_stats([d], cache)
            self.assertEqual(s4[4], 0)      # both include evq.h
            self.assertEqual(finding_keys(r4, d), expected(d))

    def test_corrupt_entries_are_misses(self):
        with TempDir() as tmp:
            d = copy_module("cdev-bug", tmp)
            cache = seeded(os.path.join(tmp, "cache"))
            scan_stats([d], cache)
            # the facts', the module's and the plan's
            entries = glob.glob(os.path.join(cache, "**", "*.json"),
                                recursive=True)
            self.assertTrue(entries)
            for e in entries:
                with open(e, "w") as f:
                    f.write("{not json")
            r, s, _ = scan_stats([d], cache)
            self.assertEqual(s[4], 0)
            self.assertEqual(finding_keys(r, d), expected(d))
            r, s, _ = scan_stats([d], cache)
            self.assertEqual(s[4], 1)       # rewritten

    def test_a_module_result_is_kept(self):
        """Each module's result (its link's findings, its files' errors)
        is kept, keyed by its files' entries: an entry of ours is what a
        warm scan reports, without reading the facts; a changed header
        of the module's, --explain (its reasons are the point) or an
        entry of another shape link again."""
        with TempDir() as tmp:
            d = copy_module("multi-file-bug", tmp)
            cache = seeded(os.path.join(tmp, "cache"))
            r1, _, _ = scan_stats([d], cache)
            entry, = glob.glob(os.path.join(cache, "modules", "*",
                                            "*.json"))
            e = read_entry(entry)
            self.assertEqual(len(e["standing"]), len(r1["findings"]))
            self.assertEqual(sorted(os.path.basename(h) for v in
                                    e["files"].values() for h in v["deps"]),
                             ["evq.h", "evq.h"])
            for x in e["standing"]:
                x["message"] = "kept: " + x["message"]
            write_entry(entry, e)
            # the facts are not read: an entry of theirs that is no
            # longer JSON changes nothing
            for fact in glob.glob(os.path.join(cache, "??", "*.json")):
                with open(fact, "w") as f:
                    f.write("{")
            r2, s2, _ = scan_stats([d], cache)
            self.assertEqual(s2[4], s2[1])
            self.assertTrue(r2["findings"])
            self.assertTrue(all(x["message"].startswith("kept: ")
                                for x in r2["findings"]))
            res = run([MODLIFE, "scan", "--format", "json", "--explain",
                       "--cache-dir", cache, d])
            self.assertEqual(json.loads(res.stdout)["findings"],
                             r1["findings"])
            for bad in ("line", "deps"):
                e = read_entry(entry)
                if bad == "line":
                    e["standing"][0]["line"] = "1"
                else:
                    for v in e["files"].values():
                        v["deps"] = {"/etc/hostname": None}
                write_entry(entry, e)
                r3, _, _ = scan_stats([d], cache)
                self.assertEqual(r3["findings"], r1["findings"], bad)
            # the module's header changed: linked again, kept again
            r4, s4, _ = scan_stats([d], cache)
            self.assertEqual(s4[4], 2)
            with open(os.path.join(d, "evq.h"), "a") as f:
                f.write("/* edited */\n")
            r5, s5, _ = scan_stats([d], cache)
            self.assertEqual(s5[4], 0)
            self.assertEqual(r5["findings"], r1["findings"])

    def test_unusable_cache_dir(self):
        with TempDir() as tmp:
            d = copy_module("blk-bug", tmp)
            blocker = os.path.join(tmp, "file")
            with open(blocker, "w") as f:
                f.write("x")
            r, s, res = scan_stats([d], os.path.join(blocker, "cache"))
            self.assertIn("cache", res.stderr)
            self.assertIn("without it", res.stderr)
            self.assertEqual(finding_keys(r, d), expected(d))
            self.assertEqual(res.returncode, 1)


# a spatch that answers --version as the real one and otherwise notes
# that it ran and fails
FAKE_SPATCH = """#!/bin/sh
if [ "$1" = --version ]; then exec %s --version; fi
echo ran >> %s
echo 'fake spatch: no' >&2
exit 3
"""


class CocciCacheTest(unittest.TestCase):
    def test_unparsed_file_rescan_runs_no_spatch(self):
        import shutil
        import subprocess
        with TempDir() as tmp:
            d, src = copy_module_headed(
                "misc-char-bug", tmp, "mchar.c",
                "#include <linux/not_in_this_kernel.h>\n")
            cache = seeded(os.path.join(tmp, "cache"))
            r1, s1, res1 = scan_stats([d], cache)
            self.assertEqual(s1[3], 1)
            cocci = [(f["engine"], f["rule"], f["line"])
                     for f in r1["findings"]]
            self.assertEqual(cocci, [("cocci", "missing-owner", 74)])
            self.assertNotIn("semantic patches", res1.stderr)
            bin_dir = os.path.join(tmp, "bin")
            os.mkdir(bin_dir)
            ran = os.path.join(tmp, "ran")
            fake = os.path.join(bin_dir, "spatch")
            with open(fake, "w") as f:
                f.write(FAKE_SPATCH % (shutil.which("spatch"), ran))
            os.chmod(fake, 0o755)
            env = dict(os.environ, PATH=bin_dir + os.pathsep +
                       os.environ["PATH"])
            args = [MODLIFE, "scan", "--format", "json", "--stats",
                    "--cache-dir", cache, d]
            res2 = subprocess.run(args, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
            # every script's results from the cache: spatch never ran
            self.assertFalse(os.path.exists(ran), res2.stderr)
            self.assertEqual(json.loads(res2.stdout), r1)
            self.assertRegex(res2.stderr, r"semantic patches: [1-9]")
            # an edited file is the fake spatch's again, and its failure
            # is no result to keep
            with open(src, "a") as f:
                f.write("/* edited */\n")
            res3 = subprocess.run(args, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
            self.assertTrue(os.path.exists(ran))
            r3 = json.loads(res3.stdout)
            self.assertEqual(r3["findings"], [])
            self.assertTrue(any("fake spatch" in e["message"]
                                for e in r3["errors"]), r3["errors"])
            os.unlink(ran)
            subprocess.run(args, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
            self.assertTrue(os.path.exists(ran))


if __name__ == "__main__":
    unittest.main()
