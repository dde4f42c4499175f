# SPDX-License-Identifier: GPL-2.0-only
"""What a hostile tree can put in modlife's output and runs: names that
a terminal or a CI log would act on, names that are not UTF-8 in JSON,
patch mails whose body a name ends early, a module directory holding a
FIFO, a module under test printing prove's marks, and a finding in a
module's own header (docs/reliability.md)."""
import gzip
import json
import os
import shutil
import subprocess
import sys
import unittest

from util import (CORPUS, MODLIFE, ROOT, TempDir, cold_cache, git, kdir,
                  run, write)

sys.path.insert(0, ROOT)

MCHAR = os.path.join(CORPUS, "misc-char-bug", "mchar.c")
# the code points a terminal or a log view acts on or hides
HIDDEN = {"\u009b", "\u0085", "\u202a", "\u202b", "\u202c", "\u202d",
          "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e",
          "\u200f", "\u061c", "\u2028", "\u2029"}


CACHE = None


def setUpModule():
    # one cache for the file's runs (the runner runs this once per
    # class): the kernel's flags come from the shared cache
    global CACHE
    CACHE = cold_cache()


def scalar_values(obj):
    """Whether every string of a JSON document is valid Unicode (no lone
    surrogate, which strict UTF-8 JSON readers refuse)."""
    if isinstance(obj, str):
        try:
            obj.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(obj, dict):
        return all(scalar_values(k) and scalar_values(v)
                   for k, v in obj.items())
    if isinstance(obj, list):
        return all(scalar_values(v) for v in obj)
    return True


def workflow_command(line):
    """Whether a GitHub Actions runner reads line as a command: '::' at
    the start after blanks, or the older '##[' anywhere."""
    return line.lstrip().startswith("::") or "##[" in line


class OutputTest(unittest.TestCase):
    def scan(self, args, cwd):
        res = subprocess.run([MODLIFE, "scan", "--jobs", "1", "--cache-dir",
                              CACHE] + args, cwd=cwd,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return res.returncode, res.stdout, res.stderr

    def test_text_escapes_c1_bidi_and_workflow_commands(self):
        """C1 controls (U+009B is a CSI), bidi overrides and marks are
        written as \\uNNNN; no line begins with '::' or holds '##['."""
        with TempDir() as tmp:
            d = os.path.join(tmp, "c")
            os.makedirs(d)
            names = ["a\u009b31m\u202eevil\u200f.c",
                     "::error file=README.md,line=1::spoofed.c",
                     "  ::add-mask::x.c"]
            for n in names:
                shutil.copy(MCHAR, os.path.join(d, n))
            # an error line on stderr begins with its file's name too
            write(os.path.join(d, "::warning::broken.c"),
                  '#include <linux/module.h>\nint x = ;\n'
                  'MODULE_LICENSE("GPL");\n')
            rc, out, err = self.scan(["--no-cocci", "."], d)
            self.assertEqual(rc, 1, err)
            out, err = out.decode("utf-8"), err.decode("utf-8")
            lines = out.splitlines() + err.splitlines()
            self.assertEqual(len(out.splitlines()), 3, out)
            for ln in lines:
                self.assertFalse(workflow_command(ln), ln)
                self.assertFalse(HIDDEN & set(ln), ascii(ln))
            self.assertIn("a\\u009b31m\\u202eevil\\u200f.c:73:37: warning:",
                          out)
            self.assertIn("./::error file=README.md,line=1::spoofed.c:73:",
                          out)
            self.assertIn("./  ::add-mask::x.c:73:", out)
            self.assertIn("./::warning::broken.c:", err)

    def test_report_lines_on_stderr_and_proofs(self):
        from frontend.ci import report
        import io
        f = {"file": "::error::p.c", "line": 1, "column": 2,
             "severity": "warning", "message": "m\u202e", "rule": "r",
             "proof": {"verdict": "proven", "why": "w\u009b",
                       "report": ["##[error]x", "::error::y"]}}
        result = {"findings": [f], "errors": [
            {"file": "::error::e.c", "message": "3:4: error: x"},
            {"file": "##[error]g.c", "message": "no"}],
            "skipped": [{"file": "::error::s.c", "reason": "not-built",
                         "named": True}],
            "fixed": [dict(f, file="::error::f.c")]}
        out, err = io.StringIO(), io.StringIO()
        report.text(result, out, err)
        lines = out.getvalue().splitlines() + err.getvalue().splitlines()
        self.assertEqual(len(lines), 8, lines)
        for ln in lines:
            self.assertFalse(workflow_command(ln), ln)
            self.assertFalse(HIDDEN & set(ln), ascii(ln))
        self.assertEqual(lines[0], "./::error::p.c:1:2: warning: m\\u202e "
                         "[modlife-r]")
        self.assertIn("##\\x5berror]g.c: error: no", lines)

    def test_json_outputs_are_valid_utf8(self):
        """A name that is not UTF-8: JSON keeps it exact (\\udcNN, as
        os.fsdecode() has it) in ASCII text; SARIF percent-encodes it,
        GitLab's code quality report writes \\xNN: no lone surrogate."""
        with TempDir() as tmp:
            q = os.path.join(os.fsencode(tmp), b"q")
            os.makedirs(q)
            shutil.copy(MCHAR, os.path.join(q, b"b\xff.c"))
            shutil.copy(MCHAR, os.path.join(q, b"##[error]c.c"))
            rc, out, err = self.scan(["--format", "codequality", "q"], tmp)
            self.assertEqual(rc, 1, err)
            doc = json.loads(out.decode("utf-8"))
            self.assertTrue(scalar_values(doc), out)
            self.assertNotIn(b"##[", out)
            self.assertEqual(sorted(i["location"]["path"] for i in doc),
                             ["q/##[error]c.c", "q/b\\xff.c"])
            rc, out, err = self.scan(["--format", "json", "q"], tmp)
            self.assertTrue(out.isascii())
            self.assertNotIn(b"##[", out)
            self.assertEqual(sorted(f["file"] for f in json.loads(out)[
                "findings"]), ["q/##[error]c.c", "q/b\udcff.c"])
            # SARIF from /: %SRCROOT% is file:///, not file:////
            rc, out, err = self.scan(["--format", "sarif",
                                      os.path.join(tmp, "q")], "/")
            self.assertEqual(rc, 1, err)
            doc = json.loads(out.decode("utf-8"))
            self.assertTrue(scalar_values(doc))
            self.assertNotIn(b"##[", out)
            run_ = doc["runs"][0]
            self.assertEqual(run_["originalUriBaseIds"]["%SRCROOT%"]["uri"],
                             "file:///")
            uris = sorted(r["locations"][0]["physicalLocation"][
                "artifactLocation"]["uri"] for r in run_["results"])
            self.assertEqual(uris[1], tmp.lstrip("/") + "/q/b%FF.c")

    def test_strict_json_of_proofs(self):
        """Every string of a SARIF or code quality document, a proof's
        too, is valid Unicode."""
        from frontend.ci import report
        import io
        f = {"file": "b\udcff.c", "line": 1, "column": 2, "rule":
             "missing-owner", "severity": "warning", "message": "m",
             "engine": "sparse", "proof": {"verdict": "proven",
                                           "why": "opened /dev/\udcfe"}}
        for fmt in ("sarif", "codequality"):
            out = io.StringIO()
            report.FORMATS[fmt]({"findings": [f], "errors": []}, out,
                                io.StringIO())
            self.assertTrue(scalar_values(json.loads(out.getvalue())), fmt)


def _mailinfo(mail):
    """git mailinfo's (commit message, patch) of a mail."""
    with TempDir() as tmp:
        msg, patch = os.path.join(tmp, "msg"), os.path.join(tmp, "patch")
        res = subprocess.run(["git", "mailinfo", msg, patch], input=mail,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             cwd=tmp)
        assert res.returncode == 0, res.stderr
        with open(msg, "rb") as m, open(patch, "rb") as p:
            return res.stdout.decode(), m.read().decode(), p.read().decode()


class PatchMailTest(unittest.TestCase):
    def test_body_lines_cannot_end_the_message(self):
        """git am ends a commit message at a line that begins with
        'diff -', '---' or 'Index: ' (and reads 'From:' first in the body
        as the author): no line about a finding begins so."""
        from frontend.fixing import patchmail
        with TempDir() as tmp:
            names = ["diff -x.c", "--- y.c", "Index: z.c", "From: e@vil.c"]
            findings = [{"rule": "missing-owner", "file":
                         os.path.join(tmp, n), "line": 5, "message": "m"}
                        for n in names]
            changes = [("d/a.c", "--- a/d/a.c\n+++ b/d/a.c\n@@ -1 +1 @@\n"
                        "-a\n+b\n", os.path.join(tmp, "n\nSubject: x",
                                                 "a.c"))]
            mail = patchmail.compose({
                "author": "Ann Author <ann@example.org>", "module": "m",
                "changes": changes, "findings": [], "others": findings,
                "rules": ["missing-owner"], "fixes": [], "stable": False,
                "tag": None, "subject": "n\nSubject: x: pin it"}).encode()
        info, msg, patch = _mailinfo(mail)
        self.assertIn("Author: Ann Author", info)
        for n in names:
            self.assertIn("%s:5: m" % n, msg)
        self.assertTrue(patch.startswith("---\n") or
                        patch.lstrip().startswith("d/a.c"), patch)
        self.assertIn("Subject: n\\x0aSubject: x: pin it", info)

    def test_git_am_keeps_the_message(self):
        with TempDir() as tmp:
            d = os.path.join(tmp, "dn")
            os.makedirs(d)
            shutil.copy(MCHAR, os.path.join(d, "diff -x.c"))
            repo = os.path.join(tmp, "am")
            os.makedirs(os.path.join(repo, "dn"))
            shutil.copy(MCHAR, os.path.join(repo, "dn", "diff -x.c"))
            git(repo, "init", "-q")
            git(repo, "add", ".")
            git(repo, "commit", "-qm", "i")
            res = run([MODLIFE, "fix", "--jobs", "1", "--cache-dir",
                       CACHE, "--format-patch",
                       os.path.join(tmp, "p"), d], cwd=tmp)
            self.assertEqual(res.returncode, 0, res.stderr)
            patches = sorted(os.listdir(os.path.join(tmp, "p")))
            self.assertEqual(len(patches), 1)
            git(repo, "am", "-q", os.path.join(tmp, "p", patches[0]))
            msg = git(repo, "log", "-1", "--format=%B")
            self.assertIn("mchar_fops is the operations of misc device",
                          msg)
            self.assertIn("Found by the modlife static checker", msg)
            with open(os.path.join(repo, "dn", "diff -x.c")) as f:
                self.assertIn("THIS_MODULE", f.read())


class ProveInputTest(unittest.TestCase):
    def test_a_fifo_in_the_module_directory_is_refused(self):
        from frontend.proving import prove
        with TempDir() as tmp:
            m = os.path.join(tmp, "m")
            os.makedirs(os.path.join(m, "sub"))
            shutil.copy(MCHAR, os.path.join(m, "mchar.c"))
            write(os.path.join(m, "Kbuild"), "obj-m := mchar.o\n")
            os.symlink("mchar.c", os.path.join(m, "link.c"))
            write(os.path.join(m, "old.o"), "")
            write(os.path.join(m, "sub", "x.h"), "")
            os.mkfifo(os.path.join(m, "sub", "fifo"))
            # refused before the build: cmd_prove says so, exit 2
            with self.assertRaisesRegex(prove.ProveError,
                                        r"sub/fifo: not a regular file "
                                        r"\(a FIFO\)"):
                prove.build(m, kdir(), os.path.join(tmp, "w"))
            os.unlink(os.path.join(m, "sub", "fifo"))
            # else a copy as shutil.copytree(symlinks=True) makes it
            dest = os.path.join(tmp, "copy")
            prove.copy_module(m, dest)
            self.assertEqual(sorted(os.listdir(dest)),
                             ["Kbuild", "link.c", "mchar.c", "sub"])
            self.assertEqual(os.readlink(os.path.join(dest, "link.c")),
                             "mchar.c")
            self.assertTrue(os.path.isfile(os.path.join(dest, "sub", "x.h")))


class WarningTest(unittest.TestCase):
    def test_a_warning_naming_a_tree_file_is_escaped(self):
        """The knowledge's staleness names the tree file that changed:
        a name with terminal escapes (a title, an erased line, a bidi
        override) is written escaped, as report lines are."""
        with TempDir() as tmp:
            t = os.path.join(tmp, "t")
            write(os.path.join(t, "Makefile"), "VERSION = 6\nPATCHLEVEL = "
                  "99\nSUBLEVEL = 0\nEXTRAVERSION =\n")
            for h in ("kconfig.h", "module.h"):
                write(os.path.join(t, "include", "linux", h), "\n")
            os.makedirs(os.path.join(t, "arch", "x86", "include", "asm"))
            os.makedirs(os.path.join(t, "scripts"))
            write(os.path.join(t, "Kconfig"), "config X86\n\tdef_bool y\n")
            bar = os.path.join(t, "drivers", "bar")
            write(os.path.join(bar, "Makefile"), "obj-m := mchar.o\n")
            shutil.copy(MCHAR, bar)
            cache = os.path.join(tmp, "cache")
            run([MODLIFE, "scan", "--cache-dir", cache, bar])
            name = "\x1b]0;owned\x07\x1b[2K\u202ez.h"
            write(os.path.join(bar, name), "\n")
            res = run([MODLIFE, "scan", "-q", "--cache-dir", cache, bar])
            self.assertIn("drivers/bar/\\x1b]0;owned\\x07\\x1b[2K"
                          "\\u202ez.h changed", res.stderr)
            self.assertNotIn("\x1b", res.stderr)
            self.assertNotIn("\u202e", res.stderr)


class ConsoleLogTest(unittest.TestCase):
    """prove --console-log FILE adds the guest console (the module's own
    printk) to FILE: a link planted under the name is replaced, never
    written through, and a run that adds nothing leaves FILE alone."""

    def test_the_console_log_is_not_written_through_a_link(self):
        from unittest import mock
        from frontend.proving import prove

        class Booted:       # a boot that wrote the console, then failed
            def __init__(self, kdir, timeout, kernel, cache, wait, log,
                         progress=None):
                log.write(b"[    4.1] ]; echo PWNED; #\n")
                raise prove.ProveError("no guest")
        with TempDir() as tmp:
            victim = os.path.join(tmp, "outside", "victim.log")
            os.makedirs(os.path.dirname(victim))
            log = os.path.join(tmp, "tree", "console.log")
            os.makedirs(os.path.dirname(log))
            os.symlink(victim, log)
            with mock.patch.object(prove, "Prover", Booted):
                with self.assertRaises(prove.ProveError):
                    prove.run([os.path.join(tmp, "tree", "m")], kdir(),
                              None, console_log=log)
            self.assertFalse(os.path.lexists(victim))
            self.assertFalse(os.path.islink(log))
            with open(log, "rb") as f:
                self.assertEqual(f.read(), b"[    4.1] ]; echo PWNED; #\n")

    def test_a_log_is_added_to_and_left_alone_when_nothing_came(self):
        from frontend.ci import outputs
        with TempDir() as tmp:
            log = os.path.join(tmp, "console.log")
            write(log, "first boot\n")
            out = outputs.Appended(log)
            with out.open() as f:
                f.write(b"second boot\n")
            out.close()
            with open(log) as f:
                self.assertEqual(f.read(), "first boot\nsecond boot\n")
            victim = os.path.join(tmp, "victim")
            write(victim, "precious\n")
            os.unlink(log)
            os.symlink(victim, log)
            outputs.Appended(log).close()      # no boot: nothing added
            self.assertEqual(os.readlink(log), victim)
            with open(victim) as f:
                self.assertEqual(f.read(), "precious\n")
            self.assertEqual(sorted(os.listdir(tmp)),
                             ["console.log", "victim"])


TOKEN = "0123456789abcdef"


def console(*lines):
    return "\n".join(lines) + "\n"


class ProveMarksTest(unittest.TestCase):
    def test_the_module_cannot_forge_a_mark(self):
        """The module under test prints '@@modlife nothing to open': the
        host counts only the marks with the boot's token."""
        from frontend.proving import scenarios
        m = scenarios.mark(TOKEN)
        oops = ["[    3.627613] BUG: unable to handle page fault for "
                "address: ffffffffc0202118",
                "[    3.628668] Oops: 0000 [#1] PREEMPT SMP NOPTI",
                "[    3.629164] RIP: 0010:filp_close+0x1d/0x70"]
        text = console(
            "Booting from ROM..\x1bc\x1b[?7l\x1b[2J\x1b[0m.%s boot" % m,
            "[    1.0] @@modlife nothing to open",
            "@@modlife nothing to open",
            # another boot's token
            "[    1.1] %s nothing to open" % scenarios.mark("feedface"),
            "%s insmod rc=0" % m, "%s opened /dev/tdev" % m,
            "%s unloading" % m, "%s rmmod rc=0" % m, "%s closing" % m,
            *oops, "%s closed" % m, "%s end" % m)
        verdict, why, report = scenarios.verdict("owner", text, True, TOKEN)
        self.assertEqual(verdict, "proven", why)
        self.assertIn("/dev/tdev", why)
        self.assertEqual(report[-1], "RIP: 0010:filp_close+0x1d/0x70")
        # without the boot's token nothing counts, not even the boot
        self.assertEqual(scenarios.verdict("owner", text.replace(
            m, "@@modlife"), True, TOKEN)[0], "error")

    def test_the_guest_scripts_carry_the_token(self):
        from frontend.proving import prove, scenarios
        self.assertNotEqual(scenarios.new_token(), scenarios.new_token())
        with TempDir() as tmp:
            for n in ("bb", "t.ko", "h.ko"):
                write(os.path.join(tmp, n), "x")
            t = object.__new__(prove.Target)
            t.ko, t.module = os.path.join(tmp, "t.ko"), "t"
            t.params, t.triggers = [], []
            path = os.path.join(tmp, "i.gz")
            prove._initrd(path, t, [], os.path.join(tmp, "h.ko"),
                          os.path.join(tmp, "bb"), "owner", 6, TOKEN)
            with gzip.open(path) as f:
                data = f.read()
        self.assertEqual(data.count(b"@@modlife-" + TOKEN.encode()), 4)
        self.assertNotIn(b"@@modlife ", data)
        self.assertIn(b'say() { echo "$MARK $*"; }', data)


def header_module(tmp):
    """mchar.c with its file_operations and miscdevice in fops.h: (the
    directory, the header's text)."""
    with open(MCHAR) as f:
        src = f.read()
    a = src.index("static const struct file_operations mchar_fops")
    b = src.index("};", src.index("struct miscdevice mchar_misc")) + 3
    h = os.path.join(tmp, "h")
    write(os.path.join(h, "fops.h"), src[a:b])
    write(os.path.join(h, "mchar.c"),
          src[:a] + '#include "fops.h"\n' + src[b:])
    return h, src[a:b]


class HeaderFixTest(unittest.TestCase):
    def test_a_finding_in_a_module_header_is_fixed(self):
        """The header is re-scanned through the sources beside it, with
        the fixed text in place."""
        with TempDir() as tmp:
            h, text = header_module(tmp)
            cache = CACHE
            res = run([MODLIFE, "scan", "--jobs", "1", "--cache-dir", cache,
                       "h"], cwd=tmp)
            self.assertEqual(res.returncode, 1, res.stderr)
            self.assertTrue(res.stdout.startswith("h/fops.h:"), res.stdout)
            res = run([MODLIFE, "fix", "--jobs", "1", "--cache-dir", cache,
                       "h"], cwd=tmp)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertNotIn("refused", res.stderr)
            with open(os.path.join(h, "fops.h")) as f:
                self.assertIn("THIS_MODULE", f.read())
            res = run([MODLIFE, "scan", "--jobs", "1", "--cache-dir", cache,
                       "h"], cwd=tmp)
            self.assertEqual((res.returncode, res.stdout), (0, ""),
                             res.stderr)

    def test_a_fix_that_leaves_the_header_finding_is_refused(self):
        from frontend import paths
        from frontend.fixing import fixscan
        from frontend.scanning.scan import Scanner
        with TempDir() as tmp:
            h, text = header_module(tmp)
            cache = CACHE

            def make():
                return Scanner(paths.default_kdir(), 1, None, False,
                               cocci="off", cache_dir=cache, progress=False,
                               warn=lambda m: None)
            found = make().scan([h])["findings"]
            self.assertEqual([f["rule"] for f in found], ["missing-owner"])
            v = fixscan.Verifier(make, found)
            header = os.path.join(h, "fops.h")
            left = v.remaining(header, text.encode(), ["missing-owner"])
            self.assertEqual([f["rule"] for f in left], ["missing-owner"])
            fixed = text.replace("{", "{\n\t.owner = THIS_MODULE,", 1)
            self.assertEqual(v.remaining(header, fixed.encode(),
                                         ["missing-owner"]), [])


if __name__ == "__main__":
    unittest.main()
