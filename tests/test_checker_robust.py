# SPDX-License-Identifier: GPL-2.0-only
"""The checker never fails a build on odd input: keys and messages of any
length, a crash inside the sparse library, sparse's own start-up errors.
"""
import json
import os
import re
import unittest

from util import (cold, CORPUS, KB, ROOT, SPARSE, TempDir, run, scan,
                  shared_cache, write)


def scan_module(name, text):
    """modlife scan of a one-file module made of @text: (rc, [(line,
    rule)], result), and no file left unparsed."""
    with TempDir() as tmp:
        d = os.path.join(tmp, "m")
        write(os.path.join(d, name), text)
        write(os.path.join(d, "Kbuild"), "obj-m += %s.o\n" % name[:-2])
        rc, result, err = scan([d])
    assert result is not None, err
    assert result["errors"] == [], result["errors"]
    return rc, [(f["line"], f["rule"]) for f in result["findings"]], result


def facts_of(out):
    return [json.loads(ln) for ln in out.splitlines() if ln.startswith("{")]


class LongNamesTest(unittest.TestCase):
    def test_200_character_names_give_whole_keys(self):
        """A fops of a 200-character name (and a struct of one) once
        overflowed fixed key buffers: the finding names it whole, and its
        fixed twin, which sets the owner, is silent."""
        long = "x" * 200
        with open(os.path.join(CORPUS, "misc-char-bug", "mchar.c")) as f:
            src = f.read().replace("mchar_fops", long + "_fops")
        rc, got, result = scan_module("mchar.c", src)
        self.assertEqual((rc, got), (1, [(73, "missing-owner")]))
        self.assertIn("'%s_fops'" % long, result["findings"][0]["message"])
        rc, got, _ = scan_module("mchar.c", src.replace(
            "%s_fops = {\n" % long,
            "%s_fops = {\n\t.owner\t\t= THIS_MODULE,\n" % long))
        self.assertEqual((rc, got), (0, []))


    def test_long_access_paths_stay_apart(self):
        """Two work items of a struct with a 248-character name differ
        only after 256 characters of their keys: cancelling one does not
        stop the other (both keys were once cut to the same 255), and
        cancelling the queued one still does."""
        import re as re_
        with open(os.path.join(CORPUS, "work-bug", "fanpoll.c")) as f:
            src = re_.sub(r"struct fanpoll\b", "struct fanpoll_" + "x" * 240,
                          f.read())
        src = src.replace("\tstruct delayed_work poll_work;\n",
                          "\tstruct delayed_work poll_work;\n"
                          "\tstruct delayed_work poll_workz;\n")
        for cancel, want in (("poll_workz", [(47, "exit-pending-work")]),
                             ("poll_work", [])):
            text = src.replace(
                "\twritel(0, fp->base + FANPOLL_CTRL);\n",
                "\twritel(0, fp->base + FANPOLL_CTRL);\n"
                "\tcancel_delayed_work_sync(&fp->%s);\n" % cancel)
            rc, got, _ = scan_module("fanpoll.c", text)
            self.assertEqual(got, want, cancel)


class GnuExtensionTest(unittest.TestCase):
    def test_function_pointer_arithmetic_leaves_the_file_checked(self):
        """gcc takes arithmetic on a function pointer (kvm's fastop
        table steps through one); sparse calls it an error, but the rest
        of the file is whole: its finding stands, nothing is unparsed,
        and a real parse error still is one."""
        with open(os.path.join(CORPUS, "misc-char-bug", "mchar.c")) as f:
            src = f.read()
        step = ("\ntypedef void (*mchar_step_t)(void);\n"
                "static mchar_step_t mchar_next(mchar_step_t s)\n"
                "{\n\treturn s + 16;\n}\n")
        rc, got, _ = scan_module("mchar.c", src + step)
        self.assertEqual((rc, got), (1, [(73, "missing-owner")]))
        with TempDir() as tmp:
            d = os.path.join(tmp, "m")
            write(os.path.join(d, "mchar.c"), src + step.replace(
                "s + 16", "s + mchar_undeclared"))
            write(os.path.join(d, "Kbuild"), "obj-m += mchar.o\n")
            _, result, err = scan([d])
        self.assertEqual([e["message"].split(": error: ")[-1]
                          for e in result["errors"]],
                         ["undefined identifier 'mchar_undeclared'"], err)


class CrashTest(unittest.TestCase):
    def test_deep_nesting_is_an_error_fact_and_exit_0(self):
        with TempDir() as tmp:
            p = os.path.join(tmp, "deep.c")
            write(p, "int f(int x) { return %sx%s; }\nint ok;\n"
                  % ("(" * 20000, ")" * 20000))
            res = run([SPARSE, "--modlife-facts=-", p])
            self.assertEqual(res.returncode, 0, res.stderr)
            errs = [f for f in facts_of(res.stdout) if f["k"] == "error"]
            self.assertEqual(len(errs), 1, res.stdout[-500:])
            self.assertEqual(errs[0]["file"], p)
            self.assertIn("crashed", errs[0]["message"])
            self.assertIn("%s: error: modlife-sparse crashed" % p,
                          res.stderr)
            res = run([SPARSE, "--modlife-werror", p])
            self.assertEqual(res.returncode, 1)

    def test_scan_goes_on_past_a_crash(self):
        with TempDir() as tmp:
            d = os.path.join(tmp, "m")
            write(os.path.join(d, "Kbuild"), "obj-m += deep.o\n")
            write(os.path.join(d, "deep.c"),
                  "int f(int x) { return %sx%s; }\n"
                  % ("(" * 20000, ")" * 20000))
            rc, result, err = scan([d, os.path.join(CORPUS, "cdev-bug")],
                                   "--cocci", "off")
            self.assertIsNotNone(result, err)
            self.assertEqual([os.path.basename(e["file"])
                              for e in result["errors"]], ["deep.c"])
            self.assertIn("crashed", result["errors"][0]["message"])
            self.assertEqual(len(result["findings"]), 2)

    def test_a_fact_cut_by_a_crash_is_not_read(self):
        """stdio flushes facts in blocks: a crash while the checker walks
        a file cuts the fact being written. The crash fact starts on a
        line of its own, and the front end drops the cut fact (the link
        would call it malformed)."""
        from frontend.scanning import sparse_engine
        with open(os.path.join(ROOT, "sparse-plugin", "main.c")) as f:
            self.assertIn('"\\n{\\"k\\":\\"error\\"', f.read())
        with TempDir() as tmp:
            fake = os.path.join(tmp, "fake-sparse")
            write(fake, "#!/bin/sh\n"
                  "printf '%s\\n' '{\"k\":\"tu\",\"file\":\"x.c\"}'\n"
                  "printf '%s' '{\"k\":\"call\",\"from\":\"f'\n"
                  "printf '\\n%s\\n' '{\"k\":\"error\",\"file\":"
                  "\"x.c\",\"message\":\"crashed\",\"fatal\":1}'\n")
            os.chmod(fake, 0o755)
            lines, err = sparse_engine.run(fake, KB, [], "x.c")
            self.assertEqual([sparse_engine.kind(ln) for ln in lines],
                             ["tu", "error"])
            self.assertEqual(err, "crashed")

    def test_start_up_errors_are_printed_not_fatal(self):
        with TempDir() as tmp:
            p = os.path.join(tmp, "x.c")
            write(p, "int x;\n")
            res = run([SPARSE, "-include", "/nonexistent/inc.h", p])
            self.assertEqual(res.returncode, 0)
            self.assertTrue(re.search(r"modlife-sparse: .*/nonexistent/inc.h",
                                      res.stderr), res.stderr)
            res = run([SPARSE] + ["-include", p] * 40 + [p])
            self.assertEqual(res.returncode, 0)
            self.assertIn("too many include files", res.stderr)


class SanitizerTest(unittest.TestCase):
    def test_asan_ubsan_over_the_corpus(self):
        """The checker and its link mode built with AddressSanitizer and
        UBSan: the whole corpus (and the odd inputs above) gives no report,
        and the same findings as the plain build."""
        from util import ROOT, MODLIFE
        sparse_src = [os.path.join(ROOT, "build", d)
                      for d in sorted(os.listdir(os.path.join(ROOT, "build")))
                      if d.startswith("sparse-") and
                      os.path.isdir(os.path.join(ROOT, "build", d))]
        self.assertTrue(sparse_src, "no sparse source under build/")
        res = run(["make", "-s", "-C", os.path.join(ROOT, "sparse-plugin"),
                   "SPARSE_SRC=" + sparse_src[0], "asan"])
        self.assertEqual(res.returncode, 0, res.stderr[-2000:])
        asan = os.path.join(ROOT, "sparse-plugin", "modlife-sparse-asan")
        with TempDir() as tmp:
            logs = os.path.join(tmp, "logs")
            os.makedirs(logs)
            env = dict(os.environ, MODLIFE_SPARSE=asan,
                       ASAN_OPTIONS="detect_leaks=0:log_path=%s/asan" % logs,
                       UBSAN_OPTIONS="print_stacktrace=1:log_path=%s/ub"
                       % logs)
            deep = os.path.join(tmp, "deep")
            write(os.path.join(deep, "Kbuild"), "obj-m += deep.o\n")
            write(os.path.join(deep, "deep.c"), "int f(int x) { return "
                  "%sx%s; }\n" % ("(" * 300, ")" * 300))
            args = [MODLIFE, "scan", "--cocci", "off", "--rules", "all",
                    "--format", "json", CORPUS, deep]
            got = run(args[:2] + cold() + args[2:], env=env)
            # the plain build's facts may come from the shared cache
            want = run(args[:2] + ["--cache-dir", shared_cache()] + args[2:])
            reports = sorted(os.listdir(logs))
            self.assertEqual(reports, [], "".join(
                open(os.path.join(logs, r)).read()[:3000] for r in reports))
            self.assertEqual(json.loads(got.stdout)["findings"],
                             json.loads(want.stdout)["findings"])
            self.assertGreater(len(json.loads(want.stdout)["findings"]), 30)


class LinkFailureTest(unittest.TestCase):
    def test_a_link_that_dies_is_an_error_of_its_module(self):
        """The link process dies on the first module: that module's file
        is listed under errors, and the next module gets a new process."""
        from util import MODLIFE
        with TempDir() as tmp:
            flag = os.path.join(tmp, "died")
            fake = os.path.join(tmp, "modlife-sparse")
            write(fake, "#!/usr/bin/env python3\n"
                  "import os, sys\n"
                  "real, flag = %r, %r\n"
                  "if sys.argv[1:2] == ['--modlife-link'] and "
                  "not os.path.exists(flag):\n"
                  "    open(flag, 'w').close()\n"
                  "    sys.stdin.buffer.readline()\n"
                  "    sys.exit(3)\n"
                  "os.execv(real, [real] + sys.argv[1:])\n" % (SPARSE, flag))
            os.chmod(fake, 0o755)
            env = dict(os.environ, MODLIFE_SPARSE=fake)
            res = run([MODLIFE, "scan", *cold(), "--cocci", "off",
                       "--format", "json",
                       os.path.join(CORPUS, "blk-bug"),
                       os.path.join(CORPUS, "cdev-bug")], env=env)
            self.assertTrue(os.path.exists(flag))
            out = json.loads(res.stdout)
            self.assertEqual(len(out["errors"]), 1, out)
            self.assertIn("link step failed", out["errors"][0]["message"])
            bad = os.path.basename(out["errors"][0]["file"])
            files = {os.path.basename(f["file"]) for f in out["findings"]}
            self.assertTrue(files, out)
            self.assertNotIn(bad, files)


if __name__ == "__main__":
    unittest.main()
