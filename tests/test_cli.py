# SPDX-License-Identifier: GPL-2.0-only
"""The front end's interface: formats, exit status, rule selection, and
bad input that is reported by file while the scan goes on."""
import json
import os
import unittest

from util import (cold, CORPUS, MODLIFE, TempDir, copy_module,
                  copy_module_headed, run, scan,
                  shared_cache, write)


class OutputTest(unittest.TestCase):
    def test_text_is_gcc_style(self):
        d = os.path.join(CORPUS, "misc-char-bug")
        res = run([MODLIFE, "scan", d])
        self.assertEqual(res.returncode, 1)
        lines = res.stdout.splitlines()
        self.assertEqual(len(lines), 1)
        self.assertRegex(lines[0], r"^\S*corpus/misc-char-bug/mchar\.c:73:37: "
                         r"warning: 'mchar_fops' \(struct file_operations\) "
                         r".* \[modlife-missing-owner\]$")

    def test_json_shape(self):
        rc, result, err = scan([os.path.join(CORPUS, "cdev-bug")])
        self.assertEqual(sorted(result), ["errors", "findings", "skipped"])
        for f in result["findings"]:
            self.assertEqual(sorted(f), ["column", "engine", "file", "line",
                                         "message", "rule", "severity"])
            self.assertEqual(f["engine"], "sparse")
            self.assertEqual(f["severity"], "warning")

    def test_sarif_required_fields(self):
        res = run([MODLIFE, "scan", "--format", "sarif",
                   os.path.join(CORPUS, "blk-bug")])
        doc = json.loads(res.stdout)
        self.assertEqual(doc["version"], "2.1.0")
        run0 = doc["runs"][0]
        driver = run0["tool"]["driver"]
        self.assertEqual(driver["name"], "modlife")
        ids = [r["id"] for r in driver["rules"]]
        self.assertIn("missing-owner", ids)
        for r in driver["rules"]:
            self.assertTrue(r["help"]["text"])
        (result,) = run0["results"]
        self.assertEqual(result["ruleId"], "missing-owner")
        self.assertEqual(ids[result["ruleIndex"]], "missing-owner")
        self.assertTrue(result["message"]["text"])
        loc = result["locations"][0]["physicalLocation"]
        self.assertTrue(loc["artifactLocation"]["uri"].endswith("tinyram.c"))
        self.assertEqual(loc["region"]["startLine"], 65)

    def test_output_file(self):
        with TempDir() as tmp:
            out = os.path.join(tmp, "r.json")
            res = run([MODLIFE, "scan", "--format", "json", "-o", out,
                       os.path.join(CORPUS, "blk-bug")])
            self.assertEqual(res.returncode, 1)
            self.assertEqual(res.stdout, "")
            with open(out) as f:
                self.assertEqual(len(json.load(f)["findings"]), 1)


class RulesTest(unittest.TestCase):
    def test_select_and_disable(self):
        d = os.path.join(CORPUS, "cdev-bug")
        rc, result, _ = scan([d], "--rules", "cdev-owner")
        self.assertEqual([f["rule"] for f in result["findings"]],
                         ["cdev-owner"])
        rc, result, _ = scan([d], "--disable", "cdev-owner,missing-owner")
        self.assertEqual(result["findings"], [])
        self.assertEqual(rc, 0)

    def test_experimental_rules_are_off_by_default(self):
        d = os.path.join(CORPUS, "timer-bug")
        res = run([MODLIFE, "scan", *cold(), "--format", "json", d])
        self.assertEqual((res.returncode, json.loads(res.stdout)["findings"]),
                         (0, []))
        rc, result, _ = scan([d], "--rules", "all")
        self.assertEqual([f["rule"] for f in result["findings"]],
                         ["exit-pending-timer"])

    def test_rules_lists_docs_pages_that_exist(self):
        from frontend.rules import RULES
        res = run([MODLIFE, "rules"])
        self.assertEqual(res.returncode, 0)
        for name in RULES:
            self.assertIn(name, res.stdout)
            page = os.path.join(os.path.dirname(MODLIFE), "docs", "rules",
                                name + ".md")
            self.assertTrue(os.path.isfile(page), page)


class BadInputTest(unittest.TestCase):
    def test_usage_errors_exit_2(self):
        for args in (["scan", "--jobs", "0", CORPUS],
                     ["scan", "--jobs", "x", CORPUS],
                     ["scan", "--rules", "no-such-rule", CORPUS],
                     ["scan", "--format", "xml", CORPUS],
                     ["scan"], ["frobnicate"], []):
            res = run([MODLIFE] + args)
            self.assertEqual(res.returncode, 2, args)
            self.assertTrue(res.stderr.startswith("modlife:") or
                            "usage" in res.stderr, res.stderr)
            self.assertNotIn("Traceback", res.stderr)

    def test_unparsable_file_is_an_error_and_scan_goes_on(self):
        with TempDir() as tmp:
            d = copy_module("misc-char-bug", tmp)
            write(os.path.join(d, "broken.c"),
                  "#include <linux/module.h>\nstatic int x( {\n")
            write(os.path.join(d, "nohdr.c"),
                  "#include <linux/no_such_header.h>\nint y;\n")
            with open(os.path.join(d, "latin1.c"), "wb") as f:
                f.write(b"/* caf\xe9 */\n#include <linux/module.h>\n"
                        b"static const char s[] = \"\xff\";\n"
                        b"const char *get_s(void) { return s; }\n")
            write(os.path.join(d, "Kbuild"), "obj-m += mchar.o broken.o "
                  "nohdr.o latin1.o\n")
            rc, result, err = scan([d])
            self.assertEqual(rc, 1)
            files = sorted(os.path.basename(e["file"])
                           for e in result["errors"])
            self.assertEqual(files, ["broken.c", "nohdr.c"])
            msgs = " ".join(e["message"] for e in result["errors"])
            self.assertIn("no_such_header.h", msgs)
            self.assertEqual([os.path.basename(f["file"]) + ":%d" % f["line"]
                              for f in result["findings"]], ["mchar.c:73"])

    def test_missing_path_and_non_c_file(self):
        with TempDir() as tmp:
            write(os.path.join(tmp, "notes.txt"), "hello\n")
            rc, result, err = scan([os.path.join(tmp, "notes.txt"),
                                    os.path.join(tmp, "gone")])
            # inputs that could not be checked
            self.assertEqual(rc, 2)
            self.assertEqual(len(result["errors"]), 2)
            self.assertEqual(result["findings"], [])

    def test_a_directory_inside_another_named_is_no_error(self):
        """A directory named twice, or inside another one named (a list
        of directories a finding came from), holds files already
        checked: no error, exit status 1 for the finding, found once."""
        with TempDir() as tmp:
            d = copy_module("misc-char-bug", tmp)
            rc, result, err = scan([tmp, d, d + os.sep])
            self.assertEqual((rc, result["errors"]), (1, []), err)
            self.assertEqual([f["line"] for f in result["findings"]], [73])

    def test_path_with_spaces_and_symlink_loop(self):
        with TempDir() as tmp:
            d = copy_module("blk-bug", os.path.join(tmp, "my drivers"))
            os.symlink("..", os.path.join(d, "loop"))
            rc, result, err = scan([os.path.join(tmp, "my drivers")])
            self.assertEqual(rc, 1, err)
            self.assertEqual([os.path.basename(f["file"])
                              for f in result["findings"]], ["tinyram.c"])

    def test_truncated_file_and_dangling_link(self):
        with TempDir() as tmp:
            d = copy_module("blk-bug", tmp)
            src = os.path.join(d, "tinyram.c")
            with open(src) as f:
                text = f.read()
            with open(src, "w") as f:
                f.write(text[:len(text) // 2])
            os.symlink("nowhere.c", os.path.join(d, "gone.c"))
            rc, result, err = scan([d, os.path.join(d, "gone.c")])
            self.assertEqual(rc, 2)     # gone.c, named, was not checked
            self.assertEqual([os.path.basename(e["file"])
                              for e in result["errors"]],
                             ["gone.c", "tinyram.c"])

    @unittest.skipIf(os.geteuid() == 0, "root reads any file")
    def test_unreadable_file(self):
        with TempDir() as tmp:
            d = copy_module("blk-bug", tmp)
            os.chmod(os.path.join(d, "tinyram.c"), 0)
            rc, result, err = scan([d])
            self.assertIn("cannot read", result["errors"][0]["message"])

    def test_unparsable_for_sparse_falls_back_to_cocci(self):
        with TempDir() as tmp:
            d, src = copy_module_headed(
                "misc-char-bug", tmp, "mchar.c",
                "#include <linux/not_in_this_kernel.h>\n")
            rc, result, err = scan([d])
            self.assertEqual(rc, 1)
            self.assertEqual([(f["engine"], f["rule"], f["line"])
                              for f in result["findings"]],
                             [("cocci", "missing-owner", 74)])
            self.assertIn("not_in_this_kernel.h",
                          result["errors"][0]["message"])
            # in the checker's words, without coccicheck's "WARNING: "
            self.assertEqual(result["findings"][0]["message"],
                             "'mchar_fops' (struct file_operations) is "
                             "exposed without .owner = THIS_MODULE: "
                             "misc_open() in drivers/char/misc.c reads it "
                             "to pin the module, so it can be unloaded "
                             "while in use")

    def test_big_generated_file_and_spatch_timeout(self):
        with TempDir() as tmp:
            d = copy_module("misc-char-bug", tmp)
            src = os.path.join(d, "mchar.c")
            with open(src) as f:
                parts = [f.read()]
            i, size = 0, len(parts[0])
            while size < 5000000:
                p = ("static int gen_%d[] = { 0, 1, 2, 3, 4, 5, 6, 7 };\n"
                     "int gen_fn_%d(int x)\n{\n\treturn gen_%d[x & 7] + "
                     "%d;\n}\n" % (i, i, i, i))
                parts.append(p)
                size += len(p)
                i += 1
            with open(src, "w") as f:
                f.write("".join(parts))
            rc, result, err = scan([d])
            self.assertEqual(rc, 1, err)
            self.assertEqual([f["line"] for f in result["findings"]], [73])
            # the semantic patches on every file, with a timeout too short
            env = dict(os.environ, MODLIFE_SPATCH_TIMEOUT="1")
            import subprocess
            # (the checker's facts of the file from the cache the scan
            # above filled: the semantic patches run all the same)
            res = subprocess.run([MODLIFE, "scan", "--cache-dir",
                                  shared_cache(), "--format", "json",
                                  "--cocci", "all", d], env=env,
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            out = json.loads(res.stdout)
            self.assertEqual([f["line"] for f in out["findings"]], [73])
            self.assertTrue(any("timed out" in e["message"]
                                for e in out["errors"]), out["errors"])

    def test_bad_kdir(self):
        res = run([MODLIFE, "scan", "--kdir", "/nonexistent",
                   os.path.join(CORPUS, "blk-bug")])
        self.assertEqual(res.returncode, 2)
        self.assertIn("/nonexistent", res.stderr)


class CocciCommandTest(unittest.TestCase):
    def test_prefiltered_run_finds_what_spatch_dir_finds(self):
        """modlife cocci skips the files a script's Prefilter line rules
        out; over the corpus it must report exactly what a plain
        'spatch --dir' (coccicheck's way) reports, script by script."""
        import glob
        import re
        scripts = sorted(glob.glob(os.path.join(os.path.dirname(CORPUS),
                                                "cocci", "*.cocci")))
        self.assertGreater(len(scripts), 5)
        ours = run([MODLIFE, "cocci", "--jobs", "2", CORPUS],
                   cwd=CORPUS)
        self.assertEqual(ours.returncode, 0, ours.stderr)
        mine = sorted(ln for ln in ours.stdout.splitlines() if ln)
        want = []
        for s in scripts:
            with open(s) as f:
                opts = re.search(r"^// Options:(.*)$", f.read(),
                                 re.M).group(1).split()
            res = run(["spatch", "-D", "report", "--very-quiet",
                       "--no-show-diff"] + opts + ["--sp-file", s,
                                                   "--dir", "."],
                      cwd=CORPUS)
            want += [ln[2:] if ln.startswith("./") else ln
                     for ln in res.stdout.splitlines() if ln]
        self.assertEqual(mine, sorted(want))
        self.assertGreater(len(mine), 10)

    def test_modes_and_bad_input(self):
        with TempDir() as tmp:
            d = copy_module("timer-bug", tmp)
            write(os.path.join(d, "notes.c"), "\xff\xfe not C at all {")
            org = run([MODLIFE, "cocci", "--mode", "org", d], cwd=tmp)
            self.assertIn("* TODO [[view:", org.stdout)
            patch = run([MODLIFE, "cocci", "--mode", "patch", "--rules",
                         "exit-pending-timer", d], cwd=tmp)
            self.assertIn("+\tdel_timer_sync(", patch.stdout)
            bad = run([MODLIFE, "cocci", os.path.join(tmp, "missing")],
                      cwd=tmp)
            self.assertEqual(bad.returncode, 2)
            self.assertIn("no such file", bad.stderr)


if __name__ == "__main__":
    unittest.main()
