# SPDX-License-Identifier: GPL-2.0-only
"""The fact cache: a second scan re-links only, an edited file (or the
module-local header it includes) is re-parsed alone, and a cache that is
corrupt or cannot be written never changes the result."""
import glob
import os
import re
import unittest

from util import (TempDir, copy_module, finding_keys, run, MODLIFE, expected,
                  seeded)

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
            entries = glob.glob(os.path.join(cache, "*", "*.json"))
            self.assertTrue(entries)
            for e in entries:
                with open(e, "w") as f:
                    f.write("{not json")
            r, s, _ = scan_stats([d], cache)
            self.assertEqual(s[4], 0)
            self.assertEqual(finding_keys(r, d), expected(d))
            r, s, _ = scan_stats([d], cache)
            self.assertEqual(s[4], 1)       # rewritten

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


if __name__ == "__main__":
    unittest.main()
