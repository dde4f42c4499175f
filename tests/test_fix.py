# SPDX-License-Identifier: GPL-2.0-only
"""The semantic patches' fixes, end to end: applied to a copy of a corpus
bug with spatch --in-place, the module still builds with kbuild against
the Debian headers, a new scan is clean, and a second application changes
nothing."""
import glob
import os
import subprocess
import sys
import unittest

from util import (cold, cold_cache, MODLIFE, ROOT, TempDir, copy_module, kbuild, scan,
                  tree_of_modules)

SCRIPTS = sorted(glob.glob(os.path.join(ROOT, "cocci", "*.cocci")))


def snapshot(d):
    out = {}
    for p in sorted(glob.glob(os.path.join(d, "*.[ch]"))):
        if p.endswith(".mod.c"):
            continue
        with open(p) as f:
            out[os.path.basename(p)] = f.read()
    return out


def apply_all(dirs):
    """Every semantic patch in patch mode on each C file of dirs, in
    place: one spatch run a script, the files as groups of one (each
    alone, as a run on the file by itself has it)."""
    files = sorted(c for d in dirs for c in glob.glob(os.path.join(d, "*.c"))
                   if not c.endswith(".mod.c"))
    with TempDir() as tmp:
        groups = os.path.join(tmp, "groups")
        with open(groups, "w") as f:
            f.write("\n\n".join(files) + "\n")
        for s in SCRIPTS:
            res = subprocess.run(
                ["spatch", "-D", "patch", "--very-quiet", "--no-includes",
                 "--include-headers", "--in-place", "--sp-file", s,
                 "--file-groups", groups],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if res.returncode != 0 or "EXN" in res.stderr:
                raise AssertionError("spatch %s: %s" % (s, res.stderr))


FIXED_BUGS = ("misc-char-bug", "cdev-bug", "blk-bug", "static-pdev-bug",
              "static-kobj-bug", "timer-bug", "rcu-bug",
              "empty-release-library-bug")


class FixTest(unittest.TestCase):
    """Each bug fixed in a copy; the copies (module names differ) built
    by one kbuild run, each a subdirectory; the patches applied again
    change nothing."""

    @classmethod
    def setUpClass(cls):
        tmp = TempDir()
        cls.tmp = tree_of_modules(tmp.__enter__(), FIXED_BUGS)
        cls.addClassCleanup(tmp.__exit__)
        cls.runs = {}
        dirs = [os.path.join(cls.tmp, m) for m in FIXED_BUGS]
        for m, d in zip(FIXED_BUGS, dirs):
            cls.runs[m] = {"before": snapshot(d), "scan": scan([d])[0]}
        apply_all(dirs)
        for m, d in zip(FIXED_BUGS, dirs):
            cls.runs[m]["after"] = snapshot(d)
        cls.build = kbuild(cls.tmp, "-j2")
        for m, d in zip(FIXED_BUGS, dirs):
            cls.runs[m]["rescan"] = scan([d])
        apply_all(dirs)
        for m, d in zip(FIXED_BUGS, dirs):
            cls.runs[m]["again"] = snapshot(d)

    def fix_and_check(self, module):
        r = self.runs[module]
        self.assertEqual(r["scan"], 1)
        self.assertNotEqual(r["before"], r["after"], "the fix changed nothing")
        out = self.build.stdout + self.build.stderr
        self.assertEqual(self.build.returncode, 0, out[-2000:])
        built = [c[:-2] + ".o" for c in r["after"] if c.endswith(".c")]
        self.assertEqual([o for o in built if not os.path.isfile(
            os.path.join(self.tmp, module, o))], [], out[-2000:])
        rc, result, err = r["rescan"]
        self.assertEqual((rc, result["findings"]), (0, []), err)
        self.assertEqual(r["again"], r["after"], "second application")
        return r["after"]

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


class ScanDrivenFixTest(unittest.TestCase):
    """fix fixes what scan reports, with the fixes kb/rules.tsv calls
    safe, and refuses results that are wrong in known ways."""

    def fix(self, *args):
        return subprocess.run([MODLIFE, "fix", *cold()] + list(args),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)

    def test_no_automatic_fix_is_said_and_the_wait_stays(self):
        with TempDir() as tmp:
            d = copy_module("exit-wait-bug", tmp)
            before = snapshot(d)
            res = self.fix(d)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertEqual(res.stdout, "")
            self.assertEqual(snapshot(d), before)
            notes = [ln.split(": note: ")[0].replace(d + "/", "")
                     + " " + ln.rsplit(" ", 1)[1]
                     for ln in res.stderr.splitlines() if ": note: " in ln]
            self.assertEqual(notes, [
                "vchan-core.c:56:17 [modlife-release-returns-into-module]",
                "vchan-core.c:86:28 [modlife-unregister-wait-in-exit]"])
            self.assertIn("no automatic fix: dropping the wait", res.stderr)

    def test_wrong_results_are_refused(self):
        for module, line, why in (
                ("rcu-return-bug", "tagdir.c", "would follow a return"),
                ("rcu-cache-bug", "tagdir.c",
                 "after kmem_cache_destroy(tag_cache)"),
                ("static-pdev-errlog-bug", "vbuzzer.c",
                 "dereferences vbuzzer_pdev, an ERR_PTR() there")):
            with TempDir() as tmp:
                d = copy_module(module, tmp)
                before = snapshot(d)
                res = self.fix(d)
                self.assertEqual(res.returncode, 0, res.stderr)
                self.assertEqual(snapshot(d), before, module)
                self.assertIn("%s/%s: note: fix refused: " % (d, line),
                              res.stderr)
                self.assertIn(why, res.stderr)

    def test_module_platform_driver_modules_get_their_fix(self):
        # no module_exit() written out: the scan decided the module can
        # be unloaded, and the semantic patch is told so
        with TempDir() as tmp:
            d = copy_module("platform-misc-bug", tmp)
            res = self.fix(d)
            self.assertEqual(res.returncode, 0, res.stderr)
            # aligned as the table's other fields
            self.assertIn("+\t.owner\t= THIS_MODULE,", res.stdout)
            self.assertEqual(kbuild(d).returncode, 0)
            rc, result, err = scan([d])
            self.assertEqual((rc, result["findings"]), (0, []), err)

    def test_diff_names_outside_the_run_directory(self):
        with TempDir() as tmp:
            d = copy_module("cdev-bug", tmp)
            os.makedirs(os.path.join(tmp, "elsewhere"))
            res = subprocess.run([MODLIFE, "fix", "--dry-run", *cold(),
                                  d], cwd=os.path.join(tmp, "elsewhere"),
                                 capture_output=True, text=True)
            self.assertEqual(res.stdout.splitlines()[:2],
                             ["--- a/cdev-bug/scratch.c",
                              "+++ b/cdev-bug/scratch.c"])

    def test_format_patch_applies_with_git_am_and_patch(self):
        with TempDir() as tmp:
            repo = os.path.join(tmp, "repo")
            os.makedirs(repo)
            env = dict(os.environ, GIT_AUTHOR_NAME="A", GIT_AUTHOR_EMAIL="a@b",
                       GIT_COMMITTER_NAME="A", GIT_COMMITTER_EMAIL="a@b",
                       GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")

            def git(*args):
                res = subprocess.run(["git", "-C", repo] + list(args),
                                     env=env, capture_output=True, text=True)
                self.assertEqual(res.returncode, 0, res.stderr)
                return res.stdout
            git("init", "-q")
            for m, subj in (("cdev-bug", "char: scratch: add the driver"),
                            ("platform-misc-bug", "leds: acme: add it")):
                copy_module(m, repo)
                git("add", m)
                git("commit", "-q", "-m", subj)
            git("commit", "-q", "--allow-empty", "-m",
                "char: scratch: a second change")
            # the history is read under distrust: nothing the repository
            # configures runs
            pwned = os.path.join(tmp, "PWNED")
            for key in ("gpg.program", "core.fsmonitor", "core.pager",
                        "core.hooksPath"):
                git("config", key, "touch " + pwned)
            git("config", "log.showSignature", "true")
            out = os.path.join(tmp, "out")
            res = subprocess.run([MODLIFE, "fix", *cold(),
                                  "--format-patch", out, repo], cwd=tmp,
                                 capture_output=True, text=True, env=env)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertFalse(os.path.exists(pwned))
            for key in ("gpg.program", "core.fsmonitor", "core.pager",
                        "core.hooksPath", "log.showSignature"):
                git("config", "--unset", key)
            patches = sorted(os.listdir(out))
            self.assertEqual(len(patches), 2, patches)
            self.assertEqual(git("status", "--porcelain"), "")
            for p in patches:
                with open(os.path.join(out, p)) as f:
                    text = f.read()
                self.assertNotIn("Signed-off-by", text)
                self.assertNotIn("a//", text)
            git("am", "-q", *[os.path.join(out, p) for p in patches])
            subjects = git("log", "--format=%s", "-n", "2").splitlines()
            self.assertEqual(sorted(s.split(": ")[0] for s in subjects),
                             ["char", "leds"])
            self.assertIn("char: scratch: ", "\n".join(subjects))
            rc, result, err = scan([repo])
            self.assertEqual((rc, result["findings"]), (0, []), err)
            # without git: patch -p1 from the directory above the module
            plain = os.path.join(tmp, "plain")
            copy_module("misc-char-bug", plain)
            out2 = os.path.join(tmp, "out2")
            res = subprocess.run([MODLIFE, "fix", *cold(),
                                  "--format-patch", out2,
                                  os.path.join(plain, "misc-char-bug")],
                                 cwd=tmp, capture_output=True, text=True)
            self.assertEqual(res.returncode, 0, res.stderr)
            (p,) = os.listdir(out2)
            with open(os.path.join(out2, p)) as f:
                text = f.read()
            # no history, no kernel tree: the module's name
            self.assertIn("Subject: [PATCH] mchar: pin the module "
                          "while its files are open", text)
            res = subprocess.run(["patch", "-p1", "-d", plain, "-i",
                                  os.path.join(out2, p)],
                                 capture_output=True, text=True)
            self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
            rc, result, err = scan([plain])
            self.assertEqual((rc, result["findings"]), (0, []), err)

    def test_patches_and_dry_runs_of_a_hard_linked_tree(self):
        """A tree copied with cp -al (the usual way to get a scratch
        kernel tree) is only read: patches and diffs are made of it."""
        with TempDir() as tmp:
            d = copy_module("misc-char-bug", tmp)
            twin = os.path.join(tmp, "twin")
            subprocess.run(["cp", "-al", d, twin], check=True)
            out = os.path.join(tmp, "out")
            res = subprocess.run([MODLIFE, "fix", *cold(),
                                  "--format-patch", out, twin], cwd=tmp,
                                 capture_output=True, text=True)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertEqual(len(os.listdir(out)), 1)
            res = subprocess.run([MODLIFE, "fix", *cold(), "--dry-run",
                                  twin], cwd=tmp, capture_output=True,
                                 text=True)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertIn("+\t.owner", res.stdout)
            # writing would split the link: refused, named
            res = subprocess.run([MODLIFE, "fix", *cold(), twin],
                                 cwd=tmp, capture_output=True, text=True)
            self.assertEqual(res.returncode, 2)
            self.assertIn("has 2 hard links", res.stderr)

    def test_experimental_rules_only_when_asked(self):
        with TempDir() as tmp:
            d = copy_module("timer-bug", tmp)
            before = snapshot(d)
            self.assertEqual(self.fix(d).stdout, "")
            self.assertEqual(snapshot(d), before)
            res = self.fix("--rules", "all", d)
            self.assertIn("+\tdel_timer_sync(&tickmon.timer);", res.stdout)

    def test_a_fix_that_leaves_the_finding_is_caught(self):
        sys.path.insert(0, ROOT)
        from frontend.fixing import fixscan
        from frontend.scanning.scan import Scanner
        from util import kdir

        cache = cold_cache()

        def scanner():
            return Scanner(kdir(), 1, ["missing-owner"], False,
                           cocci="off", cache_dir=cache, progress=False)
        with TempDir() as tmp:
            d = copy_module("misc-char-bug", tmp)
            src = os.path.join(d, "mchar.c")
            findings = scanner().scan([d])["findings"]
            v = fixscan.Verifier(scanner, findings)
            with open(src, "rb") as f:
                old = f.read()
            self.assertEqual([f["line"] for f in
                              v.remaining(src, old, ["missing-owner"])], [73])
            new = old.replace(b"static const struct file_operations "
                              b"mchar_fops = {\n", b"static const struct "
                              b"file_operations mchar_fops = {\n\t.owner = "
                              b"THIS_MODULE,\n")
            self.assertNotEqual(new, old)
            self.assertEqual(v.remaining(src, new, ["missing-owner"]), [])
            self.assertIsNone(v.remaining(src, b"int x = ;\n",
                                          ["missing-owner"]))


class CocciFixturesTest(unittest.TestCase):
    def test_fixtures_all_modes(self):
        res = subprocess.run(["sh", os.path.join(ROOT, "tests", "cocci",
                                                 "run.sh")],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
        last = res.stdout.strip().splitlines()[-1]
        self.assertRegex(last, r"^[1-9]\d* passed, 0 failed$", res.stdout)
        self.assertEqual(res.returncode, 0, res.stdout)


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


if __name__ == "__main__":
    unittest.main()
