# SPDX-License-Identifier: GPL-2.0-only
"""modlife-sparse as kbuild's checker, through real kbuild against the
Debian headers: it prints its findings gcc-style at exact lines, prints
nothing else, and never fails the build."""
import json
import os
import re
import shutil
import unittest

from util import (CORPUS, KB, KEPT_BUILDS, MODLIFE, SPARSE, TempDir,
                  copy_module, corpus_options, expected, kbuild, kdir,
                  kept_build_dir, lock_build_dir, run, skipped, write)

WARN = re.compile(r"^(\S+?):(\d+):(\d+): warning: .* \[modlife-([a-z-]+)\]$")


def modlife_lines(output):
    return [ln for ln in output.splitlines() if "[modlife-" in ln]


def findings(output, base):
    """Every modlife line, as file:line:col:rule; one of another shape
    (a parse error, a crash report) fails the test."""
    out = []
    for ln in modlife_lines(output):
        m = WARN.match(ln)
        assert m, "not a finding line: " + ln
        out.append("%s:%s:%s:%s" % (m.group(1)[len(base) + 1:],
                                    m.group(2), m.group(3), m.group(4)))
    return sorted(out)


class KbuildCheckTest(unittest.TestCase):
    """Most tests read one of two kbuild runs made once for the class,
    each over a tree of modules kept between runs (kept_build_dir(): gcc
    compiles only what changed, C=2 checks every file each time): the
    plain rules with facts files, and the experimental rules. A run of
    kbuild costs seconds before it compiles anything (some 35 compiler
    probes)."""
    PLAIN = ("misc-char-bug", "cdev-bug", "multi-file-bug", "timer-bug")
    # the traps are silent, and a flush of another work still reports:
    # the decision on one file's facts under kbuild runs what a wait
    # lets run and what a call is handed, as on a module's
    EXPERIMENTAL = ("cdev-fixed", "timer-bug", "trap-work-flushed-teardown",
                    "trap-timer-kthread-tail", "trap-work-foreach-callback",
                    "trap-work-oneshot-wq", "trap-timer-union-member",
                    "work-flush-other-bug")

    @classmethod
    def setUpClass(cls):
        cls.locks, cls.built = [], {}
        for name, mods, extra in (
                ("plain", cls.PLAIN, " --modlife-facts=auto"),
                ("experimental", cls.EXPERIMENTAL,
                 " --modlife-experimental")):
            cls.locks.append(lock_build_dir("check-" + name))
            tree = kept_build_dir("check-" + name, mods)
            res = kbuild(tree, "C=2", "CHECK=%s --modlife-kb=%s%s"
                         % (SPARSE, KB, extra))
            cls.built[name] = (tree, res.returncode,
                               res.stdout + res.stderr)

    @classmethod
    def tearDownClass(cls):
        for lock in cls.locks:
            lock.close()

    def tree(self, name):
        """The tree of one class run, its findings (module/file:line:
        col:rule) and its output; the build passed, and an error line
        would be the checker's (a file it could not parse)."""
        tree, rc, out = self.built[name]
        self.assertEqual(rc, 0, out[-2000:])
        self.assertNotIn(": error:", out)
        return tree, findings(out, tree), out

    def of(self, module, got):
        return [g[len(module) + 1:] for g in got
                if g.startswith(module + "/")]

    def check(self, module, c="C=2", extra=""):
        with TempDir() as tmp:
            d = copy_module(module, tmp)
            res = kbuild(d, c, "CHECK=%s --modlife-kb=%s%s" % (SPARSE, KB,
                                                               extra))
            out = res.stdout + res.stderr
            self.assertEqual(res.returncode, 0, out[-2000:])
            self.assertNotIn(": error:", out)
            return findings(out, d), out

    def test_misc_char_bug_c2(self):
        tree, got, out = self.tree("plain")
        self.assertEqual(self.of("misc-char-bug", got),
                         ["mchar.c:73:37:missing-owner"], out[-2000:])

    def test_cdev_bug_both_rules_c1(self):
        # C=1 checks what gcc compiles: a build of its own
        got, out = self.check("cdev-bug", c="C=1")
        self.assertEqual(got, ["scratch.c:59:37:missing-owner",
                               "scratch.c:87:18:cdev-owner"], out[-2000:])

    def test_fixed_module_is_silent(self):
        tree, got, out = self.tree("experimental")
        self.assertEqual(self.of("cdev-fixed", got), [])
        # sparse's own warnings are not printed either
        self.assertNotIn(": warning:", "".join(
            ln for ln in out.splitlines(True) if "/cdev-fixed/" in ln))

    def test_werror_fails_the_build_only_when_asked(self):
        with TempDir() as tmp:
            d = copy_module("blk-bug", tmp)
            res = kbuild(d, "C=2", "CHECK=%s --modlife-kb=%s "
                         "--modlife-werror" % (SPARSE, KB))
            self.assertNotEqual(res.returncode, 0)

    def test_waits_and_passed_callbacks_under_kbuild(self):
        tree, got, out = self.tree("experimental")
        self.assertEqual([(g.split("/")[0], g.rsplit(":", 1)[1])
                          for g in got],
                         [("timer-bug", "exit-pending-timer"),
                          ("work-flush-other-bug", "exit-pending-work")],
                         out[-2000:])

    def test_experimental_rules_are_off_under_kbuild_and_link(self):
        """The experimental set comes from kb/rules.tsv for both: kbuild
        prints the pending timer only with --modlife-experimental, and
        modlife link only with --rules all, as scan does."""
        tree, got, out = self.tree("plain")
        self.assertEqual(self.of("timer-bug", got), [])
        d = os.path.join(tree, "timer-bug")
        res = run([MODLIFE, "link", d])
        self.assertEqual((res.returncode, res.stdout), (0, ""), res.stderr)
        res = run([MODLIFE, "link", "--rules", "all", d])
        self.assertEqual(res.returncode, 1, res.stderr)
        self.assertIn("[modlife-exit-pending-timer]", res.stdout)
        tree, got, out = self.tree("experimental")
        self.assertEqual([g.rsplit(":", 1)[1]
                          for g in self.of("timer-bug", got)],
                         ["exit-pending-timer"], out[-2000:])

    def test_link_without_facts_or_with_stale_ones(self):
        tree, got, out = self.tree("plain")
        with TempDir() as tmp:
            res = run([MODLIFE, "link", tmp])
            self.assertEqual(res.returncode, 2)
            self.assertIn("no facts files", res.stderr)
            # a copy with the times kept: the kept tree stays built
            d = os.path.join(tmp, "cdev-bug")
            shutil.copytree(os.path.join(tree, "cdev-bug"), d)
            res = run([MODLIFE, "link", d])
            self.assertEqual(res.returncode, 1, res.stderr)
            # make clean removes the object, not the facts beside it
            os.unlink(os.path.join(d, "scratch.o"))
            res = run([MODLIFE, "link", d])
            self.assertEqual(res.returncode, 2, res.stdout)
            self.assertIn("stale facts", res.stderr)

    def test_link_after_kbuild_sees_across_files(self):
        """Per file, the fops defined in one file and registered in the
        other is not known to be reachable; the link step knows."""
        tree, got, out = self.tree("plain")
        self.assertEqual(self.of("multi-file-bug", got), [])
        res = run([MODLIFE, "link", "--format", "json",
                   os.path.join(tree, "multi-file-bug")])
        self.assertEqual(res.returncode, 1, res.stderr)
        got = json.loads(res.stdout)["findings"]
        self.assertEqual(["%s:%d:%s" % (os.path.basename(f["file"]),
                                        f["line"], f["rule"])
                          for f in got], ["evq-fops.c:44:missing-owner"])

    def test_findings_of_a_file_sparse_cannot_parse_are_withheld(self):
        """gcc builds it; sparse (__CHECKER__) stops at a bad line. The
        partial AST may lack what discharges a finding, so kbuild, link
        and scan all withhold the file's findings (link_decide()) and
        say so; the same file parsed reports its finding."""
        with TempDir() as tmp:
            d = copy_module("misc-char-bug", tmp)
            src = os.path.join(d, "mchar.c")
            with open(src) as f:
                text = f.read()
            with open(src, "w") as f:
                f.write("#ifdef __CHECKER__\nstatic int broken = ;\n"
                        "#endif\n" + text)
            res = kbuild(d, "C=2", "CHECK=%s --modlife-kb=%s "
                         "--modlife-facts=auto" % (SPARSE, KB))
            out = res.stdout + res.stderr
            self.assertEqual(res.returncode, 0, out[-2000:])
            self.assertEqual(modlife_lines(out), [], out[-2000:])
            self.assertIn("%s: note: 1 modlife finding not reported: the "
                          "file did not parse wholly (%s:2:21: error: "
                          % (src, src), out)
            # an input not wholly checked: exit 2, the file named
            res = run([MODLIFE, "link", "--format", "json", d])
            self.assertEqual(res.returncode, 2, res.stderr)
            got = json.loads(res.stdout)
            self.assertEqual(got["findings"], [])
            self.assertEqual([os.path.basename(e["file"])
                              for e in got["errors"]], ["mchar.c"])
            res = run([MODLIFE, "link", "--explain", d])
            self.assertIn("mchar.c:76:37: missing-owner: dropped: its file "
                          "did not parse wholly", res.stderr)
            res = run([MODLIFE, "scan", "--no-cocci", "--format", "json",
                       "--explain", d])
            self.assertIn("mchar.c:76:37: missing-owner: dropped: its file "
                          "did not parse wholly", res.stderr)
            got = json.loads(res.stdout)
            self.assertEqual(got["findings"], [])
            self.assertEqual([os.path.basename(e["file"])
                              for e in got["errors"]], ["mchar.c"])
            with open(src, "w") as f:
                f.write(text)
            res = run([MODLIFE, "scan", "--no-cocci", "--format", "json",
                       d])
            self.assertEqual(["%d:%s" % (f["line"], f["rule"]) for f in
                              json.loads(res.stdout)["findings"]],
                             ["73:missing-owner"], res.stderr)


def _corpus_modules():
    return sorted(d for d in os.listdir(CORPUS)
                  if os.path.isfile(os.path.join(CORPUS, d, "EXPECTED")))


class CorpusBuildsTest(unittest.TestCase):
    """One kbuild run over every corpus module (as subdirectories; bug
    and fixed twins share module names, so only the objects are
    checked, not the .ko link), with modlife-sparse as the checker. The
    build tree is kept between runs (kept_build_dir()): gcc compiles
    again only what changed, under -Werror, so a file with a warning
    never leaves an object behind and is compiled (and fails) again;
    C=2 runs the checker on every file each time."""

    @classmethod
    def setUpClass(cls):
        cls.lock = lock_build_dir("corpus")
        cls.mods = _corpus_modules()
        cls.tmp = kept_build_dir("corpus", cls.mods)
        # the corpus's own options on, as modules (a bool one stays off:
        # it is never a module, and SKIPPED says so)
        opts = [o + " -Werror" if o.startswith("KCFLAGS=") else o
                for o in corpus_options()]
        res = kbuild(cls.tmp, "-j2", "C=2",
                     "CHECK=%s --modlife-kb=%s --modlife-experimental "
                     "--modlife-facts=auto" % (SPARSE, KB), *opts)
        cls.rc = res.returncode
        cls.out = res.stdout + res.stderr

    @classmethod
    def tearDownClass(cls):
        cls.lock.close()

    def test_every_corpus_module_compiles_without_warnings(self):
        """The corpus is real driver code: gcc with kbuild's flags
        compiles every file against the headers, warning-free."""
        bad = [ln for ln in self.out.splitlines()
               if re.search(r"\b(warning|error):", ln) and
               "module name conflict" not in ln and "[modlife-" not in ln]
        self.assertEqual(bad, [], self.out[-3000:])
        missing = [os.path.join(m, c) for m in self.mods
                   for c in os.listdir(os.path.join(self.tmp, m))
                   if c.endswith(".c") and not os.path.isfile(
                       os.path.join(self.tmp, m, c[:-2] + ".o"))]
        never = ["%s/%s" % (m, s.split(":")[0]) for m in self.mods
                 for s in skipped(os.path.join(CORPUS, m))]
        self.assertEqual(missing, never, self.out[-3000:])

    def test_kbuild_reports_what_scan_reports(self):
        """Parity: for a one-file module, make C=2 CHECK=modlife-sparse
        prints exactly the findings (file, line, rule) of modlife scan
        (its EXPECTED, which test_corpus checks against scan); for any
        module, modlife link over the facts kbuild left does (one link
        run over the tree decides each module on its own facts). One
        file alone cannot see another file's keys, so a module of
        several files is decided by the link step."""
        printed = {}
        for ln in modlife_lines(self.out):
            m = WARN.match(ln)
            self.assertIsNotNone(m, ln)
            rel = os.path.relpath(m.group(1), self.tmp)
            mod, path = rel.split(os.sep, 1)
            printed.setdefault(mod, []).append(
                "%s:%s:%s" % (path, m.group(2), m.group(4)))
        res = run([MODLIFE, "link", "--rules", "all", "--format", "json",
                   self.tmp], cwd=self.tmp)
        self.assertEqual(res.returncode, 1, res.stderr)
        result = json.loads(res.stdout)
        self.assertEqual(result["errors"], [])
        linked = {}
        for f in result["findings"]:
            mod, path = os.path.relpath(os.path.join(self.tmp, f["file"]),
                                        self.tmp).split(os.sep, 1)
            linked.setdefault(mod, []).append(
                "%s:%d:%s" % (path, f["line"], f["rule"]))
        single = never = 0
        for mod in self.mods:
            want = expected(os.path.join(CORPUS, mod))
            d = os.path.join(self.tmp, mod)
            if skipped(os.path.join(CORPUS, mod)):
                # nothing of it is built: no facts to link
                if not never:
                    res = run([MODLIFE, "link", d])
                    self.assertEqual(res.returncode, 2, mod + res.stderr)
                    self.assertIn("no facts files", res.stderr)
                never += 1
                self.assertEqual(linked.get(mod, []), [], mod)
                continue
            self.assertEqual(sorted(linked.get(mod, [])), want, mod)
            if len([c for c in os.listdir(os.path.join(CORPUS, mod))
                    if c.endswith(".c")]) == 1:
                single += 1
                self.assertEqual(sorted(printed.get(mod, [])), want, mod)
        self.assertGreater(single, 80)
        self.assertGreater(never, 0)


class CocciFixturesBuildTest(unittest.TestCase):
    """tests/cocci/kbuild.sh: every semantic-patch fixture, and what its
    patch leaves (.res), compiles against the headers without warnings;
    a fixture that does not compile is named."""
    SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "cocci", "kbuild.sh")

    def test_fixtures_and_results_compile(self):
        # in a build tree kept between runs: gcc compiles what changed
        with lock_build_dir("cocci-fixtures"):
            keep = os.path.join(KEPT_BUILDS, "cocci-fixtures")
            res = run(["sh", self.SCRIPT], env=dict(
                os.environ, WERROR="1", KDIR=kdir(), KEEP=keep))
        self.assertEqual(res.returncode, 0, res.stdout[-3000:])
        m = re.search(r"^(\d+) built, 0 failed$", res.stdout, re.M)
        self.assertIsNotNone(m, res.stdout[-500:])
        self.assertGreaterEqual(int(m.group(1)), 30)

    def test_a_broken_fixture_is_named(self):
        with TempDir() as tmp:
            bad = os.path.join(tmp, "broken_fixture.c")
            write(bad, "#include <linux/module.h>\nint f(void) "
                  "{ return undeclared_thing; }\nMODULE_LICENSE(\"GPL\");\n")
            good = os.path.join(tmp, "fine_fixture.c")
            write(good, "#include <linux/module.h>\n"
                  "MODULE_LICENSE(\"GPL\");\n")
            res = run(["sh", self.SCRIPT, bad, good],
                      env=dict(os.environ, KDIR=kdir()))
            self.assertEqual(res.returncode, 1, res.stdout)
            self.assertIn("not ok - broken_fixture.c does not build",
                          res.stdout)
            self.assertIn("ok - fine_fixture.c builds", res.stdout)
            self.assertIn("1 built, 1 failed", res.stdout)


if __name__ == "__main__":
    unittest.main()
