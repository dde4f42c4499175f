# SPDX-License-Identifier: GPL-2.0-only
"""The kernel's own workflows, on Debian's linux-source-6.1 (make test
unpacks it into build/): modlife-sparse as kbuild's CHECK on real driver
sources agrees with ./modlife scan, and every semantic patch works under
make coccicheck in all four modes, with the findings spatch gives alone."""
import glob
import json
import os
import re
import shutil
import subprocess
import unittest

from util import KB, MODLIFE, ROOT, SPARSE, TempDir, kbuild, run, scan

TREE = os.path.join(ROOT, "build", "linux", "linux-source-6.1")
SCRIPTS = sorted(glob.glob(os.path.join(ROOT, "cocci", "*.cocci")))
WARN = re.compile(r"^(\S+?):(\d+):\d+: warning: .* \[modlife-([a-z-]+)\]$")


def need_tree(test):
    if not os.path.isfile(os.path.join(TREE, "Makefile")):
        test.fail("%s is missing: run 'make linux-source' (make test does)"
                  % TREE)


class KbuildOnKernelSourcesTest(unittest.TestCase):
    def test_check_and_link_agree_with_scan(self):
        need_tree(self)
        with TempDir() as tmp:
            # dmi-sysfs's entries: kobjects of its own, released in its
            # text (tifm_core's adapters, once the example, are made by
            # an exported constructor for tifm_7xx1: a library's)
            d = os.path.join(tmp, "dmi")
            os.makedirs(d)
            shutil.copy(os.path.join(TREE, "drivers", "firmware",
                                     "dmi-sysfs.c"), d)
            with open(os.path.join(d, "Kbuild"), "w") as f:
                f.write("obj-m += dmi-sysfs.o\n")
            rc, result, err = scan([d])
            want = sorted("%s:%d:%s" % (os.path.basename(x["file"]),
                                        x["line"], x["rule"])
                          for x in result["findings"])
            self.assertIn("dmi-sysfs.c:308:module-release", want)
            res = kbuild(d, "C=2", "CHECK=%s --modlife-kb=%s "
                         "--modlife-facts=auto" % (SPARSE, KB))
            self.assertEqual(res.returncode, 0, res.stderr[-2000:])
            printed = set()
            for line in (res.stdout + res.stderr).splitlines():
                m = WARN.match(line)
                if m:
                    printed.add("%s:%s:%s" % (os.path.basename(m.group(1)),
                                              m.group(2), m.group(3)))
            linked = run([MODLIFE, "link", "--rules", "all", "--format",
                          "json", d])
            got = {"%s:%d:%s" % (os.path.basename(x["file"]), x["line"],
                                 x["rule"])
                   for x in json.loads(linked.stdout)["findings"]}
            # the file alone already knows this one: kbuild prints it
            self.assertIn("dmi-sysfs.c:308:module-release", printed)
            self.assertTrue(printed <= got, (printed, got))
            self.assertEqual(sorted(got), want)


# the tree sits in this repository's ignored build/: keep the tree's
# .cocciconfig (--use-gitgrep) from asking this repository's git
ENV = dict(os.environ, GIT_CEILING_DIRECTORIES=os.path.dirname(TREE))


def coccicheck(script, mode, m):
    env = ENV
    return subprocess.run(["make", "-s", "-C", TREE, "coccicheck",
                           "COCCI=" + script, "MODE=" + mode, "M=" + m,
                           "J=2"], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


def _hits(out):
    """(path relative to the tree, line) of report lines."""
    hits = set()
    for p, line in re.findall(r"^(\S+?):(\d+):\d+-\d+: ", out, re.M):
        hits.add((os.path.relpath(os.path.join(TREE, p), TREE), line))
    return sorted(hits)


CHECKED_DIR = "drivers/media/test-drivers"


class CoccicheckTest(unittest.TestCase):
    def test_report_mode_same_findings_as_spatch(self):
        """coccicheck adds its harness (options line, includes, jobs),
        not findings: the same as spatch --dir on the same directory."""
        need_tree(self)
        from frontend.scanning.cocci_engine import spatch_options
        found = {}
        for script in SCRIPTS:
            res = coccicheck(script, "report", CHECKED_DIR)
            self.assertEqual(res.returncode, 0, script + res.stderr[-1500:])
            self.assertNotIn("coccicheck failed", res.stdout + res.stderr)
            got = _hits(res.stdout)
            alone = subprocess.run(
                ["spatch", "-D", "report", "--very-quiet", "--no-show-diff"]
                + spatch_options(script) +
                ["--jobs", "2", "--sp-file", script, "--dir",
                 CHECKED_DIR], cwd=TREE, env=ENV, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True)
            want = _hits(alone.stdout)
            self.assertEqual(got, want, os.path.basename(script))
            found[os.path.basename(script)] = len(want)
        # both sides empty would prove nothing: the media test drivers
        # have static platform devices and empty releases
        self.assertGreaterEqual(sum(1 for n in found.values() if n), 2,
                                found)

    def test_every_mode_exits_0(self):
        need_tree(self)
        for script in SCRIPTS:
            for mode in ("patch", "context", "org", "report"):
                res = coccicheck(script, mode, "drivers/misc/eeprom")
                self.assertEqual(res.returncode, 0, "%s %s: %s" % (
                    os.path.basename(script), mode, res.stderr[-800:]))
                self.assertNotIn("coccicheck failed",
                                 res.stdout + res.stderr)


if __name__ == "__main__":
    unittest.main()
