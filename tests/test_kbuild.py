# SPDX-License-Identifier: GPL-2.0-only
"""modlife-sparse as kbuild's checker, through real kbuild against the
Debian headers: it prints its findings gcc-style at exact lines, prints
nothing else, and never fails the build."""
import os
import re
import unittest

from util import (CORPUS, KB, SPARSE, TempDir, copy_module, kbuild, kdir,
                  run, write)

WARN = re.compile(r"^(\S+?):(\d+):(\d+): warning: .* \[modlife-([a-z-]+)\]$")


def modlife_lines(output):
    return [ln for ln in output.splitlines() if "[modlife-" in ln]


def findings(output, base):
    out = []
    for ln in modlife_lines(output):
        m = WARN.match(ln)
        if m:
            out.append("%s:%s:%s:%s" % (m.group(1)[len(base) + 1:],
                                        m.group(2), m.group(3), m.group(4)))
    return sorted(out)


class KbuildCheckTest(unittest.TestCase):
    def check(self, module, c="C=2", extra=""):
        with TempDir() as tmp:
            d = copy_module(module, tmp)
            res = kbuild(d, c, "CHECK=%s --modlife-kb=%s%s" % (SPARSE, KB,
                                                               extra))
            out = res.stdout + res.stderr
            self.assertEqual(res.returncode, 0, out[-2000:])
            return findings(out, d), out

    def test_misc_char_bug_c2(self):
        got, out = self.check("misc-char-bug")
        self.assertEqual(got, ["mchar.c:73:37:missing-owner"], out[-2000:])

    def test_cdev_bug_both_rules_c1(self):
        got, out = self.check("cdev-bug", c="C=1")
        self.assertEqual(got, ["scratch.c:59:37:missing-owner",
                               "scratch.c:87:18:cdev-owner"], out[-2000:])

    def test_fixed_module_is_silent(self):
        got, out = self.check("cdev-fixed")
        self.assertEqual(got, [])
        # sparse's own warnings are not printed either
        self.assertNotIn(": warning:", out)

    def test_werror_fails_the_build_only_when_asked(self):
        with TempDir() as tmp:
            d = copy_module("blk-bug", tmp)
            res = kbuild(d, "C=2", "CHECK=%s --modlife-kb=%s "
                         "--modlife-werror" % (SPARSE, KB))
            self.assertNotEqual(res.returncode, 0)

    def test_waits_and_passed_callbacks_under_kbuild(self):
        """graph.c, the checker's own graph under kbuild, runs what a wait
        lets run and what a call is handed, as link.py does: the traps
        are silent, and a flush of another work still reports."""
        flag = " --modlife-experimental"
        for trap in ("trap-work-flushed-teardown", "trap-timer-kthread-tail",
                     "trap-work-foreach-callback", "trap-work-oneshot-wq",
                     "trap-timer-union-member"):
            got, out = self.check(trap, extra=flag)
            self.assertEqual(got, [], trap + out[-2000:])
        got, out = self.check("work-flush-other-bug", extra=flag)
        self.assertEqual([g.rsplit(":", 1)[1] for g in got],
                         ["exit-pending-work"], out[-2000:])

    def test_link_after_kbuild_sees_across_files(self):
        """Per file, the fops defined in one file and registered in the
        other is not known to be reachable; the link step knows."""
        import json
        import os
        from util import MODLIFE, run
        with TempDir() as tmp:
            d = copy_module("multi-file-bug", tmp)
            res = kbuild(d, "C=2", "CHECK=%s --modlife-kb=%s "
                         "--modlife-facts=auto" % (SPARSE, KB))
            self.assertEqual(res.returncode, 0, res.stderr[-2000:])
            self.assertEqual(findings(res.stdout + res.stderr, d), [])
            res = run([MODLIFE, "link", "--format", "json", d])
            self.assertEqual(res.returncode, 1, res.stderr)
            got = json.loads(res.stdout)["findings"]
            self.assertEqual(["%s:%d:%s" % (os.path.basename(f["file"]),
                                            f["line"], f["rule"])
                              for f in got], ["evq-fops.c:44:missing-owner"])


if __name__ == "__main__":
    unittest.main()


class CorpusBuildsTest(unittest.TestCase):
    def test_every_corpus_module_compiles_without_warnings(self):
        """The corpus is real driver code: gcc with kbuild's flags compiles
        every file against the headers, warning-free. One kbuild run over
        all modules as subdirectories (bug and fixed twins share module
        names, so only the objects are checked, not the .ko link)."""
        with TempDir() as tmp:
            mods = sorted(d for d in os.listdir(CORPUS)
                          if os.path.isfile(os.path.join(CORPUS, d,
                                                         "EXPECTED")))
            for m in mods:
                copy_module(m, tmp)
            write(os.path.join(tmp, "Kbuild"),
                  "".join("obj-y += %s/\n" % m for m in mods))
            res = run(["make", "-j2", "-C", kdir(), "M=" + tmp, "modules"])
            out = res.stdout + res.stderr
            bad = [ln for ln in out.splitlines()
                   if re.search(r"\b(warning|error):", ln) and
                   "module name conflict" not in ln]
            self.assertEqual(bad, [], out[-3000:])
            missing = [os.path.join(m, c) for m in mods
                       for c in os.listdir(os.path.join(tmp, m))
                       if c.endswith(".c") and not os.path.isfile(
                           os.path.join(tmp, m, c[:-2] + ".o"))]
            self.assertEqual(missing, [], out[-3000:])
