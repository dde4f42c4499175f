# SPDX-License-Identifier: GPL-2.0-only
"""What the front end reads of a scanned tree before the checker runs -
Kconfig and Makefiles, the prefilter of the semantic patches, the headers
a file includes - takes time linear in what is there, however the tree is
crafted (docs/reliability.md). Each crafted input below took from half a
minute to hours before it was bounded."""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

from util import CORPUS, MODLIFE, ROOT, TempDir, seeded, write

sys.path.insert(0, ROOT)
from frontend.tree import includes  # noqa: E402

MCHAR = os.path.join(CORPUS, "misc-char-bug", "mchar.c")


def python(code, timeout):
    """Runs code (the front end importable) in a fresh interpreter;
    (seconds taken, its stdout). A run past timeout fails the test."""
    t0 = time.time()
    res = subprocess.run([sys.executable, "-c",
                          "import sys; sys.path.insert(0, %r)\n" % ROOT + code],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, timeout=timeout)
    if res.returncode != 0:
        raise AssertionError(res.stderr)
    return time.time() - t0, res.stdout


class KconfigTest(unittest.TestCase):
    def test_rsource_between_two_directories_reads_each_file_once(self):
        """a/Kconfig and b/Kconfig each rsource both: as path strings
        ("a/../b/../a/Kconfig") that was 2^33 reads."""
        with TempDir() as tmp:
            write(os.path.join(tmp, "Kconfig"),
                  'config FOO\n\ttristate "foo"\nrsource "a/Kconfig"\n')
            for d in ("a", "b"):
                write(os.path.join(tmp, d, "Kconfig"),
                      'rsource "../a/Kconfig"\nrsource "../b/Kconfig"\n'
                      'config %s_OPT\n\ttristate "x"\n' % d.upper())
            took, out = python(
                "import json\nfrom frontend.tree.kconfig import Kconfig\n"
                "kc = Kconfig()\nkc.add_local(%r)\n"
                "print(json.dumps([sorted(kc.tristate), len(kc._read)]))\n"
                % tmp, timeout=60)
            self.assertEqual(json.loads(out), [
                ["CONFIG_A_OPT", "CONFIG_B_OPT", "CONFIG_FOO"], 3])
            self.assertLess(took, 10)

    def test_a_deeply_nested_tree_is_walked(self):
        """os.walk recurses: 1,200 nested directories raised
        RecursionError."""
        tmp = tempfile.mkdtemp(prefix="modlife-test-")
        try:
            deep = tmp
            for _ in range(1200):       # os.makedirs recurses too
                deep = os.path.join(deep, "d")
                os.mkdir(deep)
            write(os.path.join(deep, "Kconfig"),
                  'config DEEP\n\ttristate "deep"\n')
            took, out = python(
                "from frontend.tree.kconfig import Kconfig\n"
                "print('CONFIG_DEEP' in Kconfig(tree=%r).tristate)\n" % tmp,
                timeout=60)
            self.assertEqual(out.strip(), "True")
        finally:
            _remove_deep(tmp)


def _remove_deep(top):
    """rmtree recurses too: the deepest directory first."""
    for dirpath, dirnames, filenames in list(_walk_bottom_up(top)):
        for f in filenames:
            os.unlink(os.path.join(dirpath, f))
        os.rmdir(dirpath)


def _walk_bottom_up(top):
    from frontend.tree import fswalk
    return reversed(list(fswalk.walk(top)))


class MakefileTest(unittest.TestCase):
    def test_the_expansion_budget_is_per_makefile(self):
        """40 doubling variables and 200 lines using the last one: each
        line spent the whole budget again (about 25 s)."""
        with TempDir() as tmp:
            lines = ["V0 = xxxxxxxxxxxxxxxx.o"]
            lines += ["V%d = $(V%d) $(V%d)" % (i, i - 1, i - 1)
                      for i in range(1, 40)]
            lines += ["X%d := $(V39)" % j for j in range(200)]
            lines += ["V1b := $(V0) $(V0)", "obj-m := b.o",
                      "b-y := c.o $(V1b)"]
            write(os.path.join(tmp, "Makefile"), "\n".join(lines) + "\n")
            took, out = python(
                "from frontend.tree.modules import DirInfo\n"
                "i = DirInfo(%r)\nprint(sorted(i.obj), i.parts['b'])\n"
                % tmp, timeout=60)
            self.assertLess(took, 10)
            # the lines after the costly ones are still read
            self.assertIn("['b.o']", out)
            self.assertIn("'c.o'", out)

    def test_a_kernel_makefiles_variables_still_expand(self):
        with TempDir() as tmp:
            write(os.path.join(tmp, "Makefile"),
                  "CORE = core.o util.o\nHW := $(addprefix hw/,a.o b.o)\n"
                  "m-y := $(CORE) $(HW)\nobj-m += m.o\n")
            _, out = python(
                "from frontend.tree.modules import DirInfo\n"
                "print(DirInfo(%r).parts['m'])\n" % tmp, timeout=60)
            self.assertEqual(out.strip(), str(["core.o", "util.o",
                                                "hw/a.o", "hw/b.o"]))


# text that made a prefilter regular expression of each script
# backtrack (quadratic or worse); the sizes took 30 s to hours before
CRAFTED = {
    "static_object.cocci": [
        "int f(void) { return device_register(&x0, 0); }\n/* " +
        "static a x0 b " * 1200 + " */\n",
        "cdev_device_add(a, &" * 20000],
    "exit_pending_timer.cocci": [
        "a(\n" * 80000, "a() {\n" * 20000,
        # thousands of captures, each a search of the whole text
        "".join("f%d() {\ndel_timer(x);\n}\n" % i for i in range(4000))],
    "unregister_wait_in_exit.cocci": [
        "wait_for_completion\n" * 20000, "wait_for_completion " * 20000],
    "missing_owner.cocci": [
        "struct file_operations a = {" +
        ("/* struct file_operations a = { */" + "x" * 10) * 10000,
        "struct file_operations a = { /*" * 10000],
    "empty_release.cocci": [
        "void " * 100000,
        "void a(struct device *d) { struct x *y = " * 10000],
}
TOKENS = ("// module_exit release del_timer wait_for_completion "
          "device_register file_operations\n")


class PrefilterTest(unittest.TestCase):
    def test_crafted_texts_are_decided_in_linear_time(self):
        with TempDir() as tmp:
            code = ["from frontend.scanning import cocci_run", "import time",
                    "took = {}"]
            for script, texts in sorted(CRAFTED.items()):
                for n, text in enumerate(texts):
                    path = os.path.join(tmp, "%s.%d.c" % (script, n))
                    write(path, TOKENS + text)
                    code += [
                        "w = cocci_run.prefilter(%r)" % os.path.join(
                            ROOT, "cocci", script),
                        "t = time.time()",
                        "w.admits(open(%r, 'rb').read())" % path,
                        "took[%r] = time.time() - t" % os.path.basename(
                            path)]
            code.append("print(max(took.items(), key=lambda x: x[1]))")
            took, out = python("\n".join(code) + "\n", timeout=120)
            # each was over 30 s (the capture case 60 s) before
            self.assertLess(took, 20, out)

    def test_too_many_captures_admit_the_file(self):
        """A file whose chains would need more searches than the bound
        is left to spatch: admitted, never dropped."""
        from frontend.scanning import cocci_run
        want = cocci_run.prefilter(os.path.join(ROOT, "cocci",
                                                "exit_pending_timer.cocci"))
        text = ("module_exit(g);\n" + "".join(
            "f%d() {\ndel_timer(x);\n}\n" % i for i in range(3000)))
        self.assertTrue(want.admits(text.encode()))
        # fewer functions: decided, and nothing calls them from the exit
        self.assertFalse(want.admits(("module_exit(g);\n" + "".join(
            "f%d() {\ndel_timer(x);\n}\n" % i for i in range(5))).encode()))

    def test_reshaped_expressions_still_admit_the_real_shapes(self):
        from frontend.scanning import cocci_run

        def admits(script, text):
            return cocci_run.prefilter(os.path.join(
                ROOT, "cocci", script)).admits(text.encode())
        # an exit function whose head spans lines and carries an
        # annotation; the timer stopped in a helper it calls
        timer = ("static void helper(struct foo *f)\n{\n"
                 "\tdel_timer(&f->t);\n}\n"
                 "static void __exit foo_exit(void)\n"
                 "\t__releases(x)\n{\n\thelper(&foo);\n}\n"
                 "module_exit(foo_exit);\n")
        self.assertTrue(admits("exit_pending_timer.cocci", timer))
        self.assertFalse(admits("exit_pending_timer.cocci", timer.replace(
            "\thelper(&foo);\n", "")))
        wait = ("static void __exit foo_exit(void)\n{\n"
                "\twait_for_completion(&done);\n\tfoo_unregister(&f);\n}\n"
                "module_exit(foo_exit);\n")
        self.assertTrue(admits("unregister_wait_in_exit.cocci", wait))
        self.assertFalse(admits("unregister_wait_in_exit.cocci",
                                wait.replace("\tfoo_unregister", "}\n"
                                             "void g(void)\n{\n\tfoo_unregister")))
        static = ("static struct device x0 __aligned(8) = { };\n"
                  "int f(void) { return device_register(&x0); }\n"
                  "module_exit(e);\n")
        self.assertTrue(admits("static_object.cocci", static))
        self.assertFalse(admits("static_object.cocci",
                                static.replace("static struct", "struct")))
        # a comment that mentions another file_operations ends the scan:
        # the file is admitted (a superset), never dropped
        fops = ("static const struct file_operations f = {\n"
                "\t/* like struct file_operations g */\n\t.owner = X,\n};\n"
                "int x(void) { return misc(&f); }\nmodule_exit(e);\n")
        self.assertTrue(admits("missing_owner.cocci", fops))
        self.assertFalse(admits("missing_owner.cocci", fops.replace(
            "struct file_operations g", "g")))
        release = ("static void r(struct device *d)\n{\n"
                   "\t/* void: nothing to free */\n}\n"
                   "static int i(void) { x.dev.release = r; return 0; }\n"
                   "module_exit(e);\n")
        self.assertTrue(admits("empty_release.cocci", release))
        self.assertFalse(admits("empty_release.cocci", release.replace(
            "\t/* void: nothing to free */\n", "\tkfree(d);\n")))


class IncludesTest(unittest.TestCase):
    """A header that is a FIFO or a device held the checker until its
    300 s timeout, per file."""

    def test_irregular_headers_are_found_without_opening_them(self):
        with TempDir() as tmp:
            src = os.path.join(tmp, "a.c")
            write(src, '#include <linux/fs.h>\n#include "t.h"\n')
            # (each text of t.h has a size of its own: the include lines
            # of a header are kept by its size and time)
            write(os.path.join(tmp, "t.h"), "int t;\n")
            inc = os.path.join(tmp, "inc")
            write(os.path.join(inc, "u.h"), '#include "f.h"\n')
            os.mkfifo(os.path.join(inc, "f.h"))
            kernel = ["-I" + os.path.join(tmp, "kernel")]
            write(os.path.join(tmp, "kernel", "linux", "fs.h"),
                  "int fs;\n")
            flags = kernel + ["-I" + tmp, "-I", inc]
            self.assertIsNone(includes.irregular_include(src, flags, kernel))
            # quoted, through a header of the module's -I directory
            write(os.path.join(tmp, "t.h"), '#include <u.h> /* u */\n')
            self.assertEqual(includes.irregular_include(src, flags, kernel),
                             "includes inc/f.h (from inc/u.h): a FIFO, not "
                             "a regular file")
            # the checker takes the first one found: a regular f.h beside
            # u.h hides nothing, one in an earlier -I directory does
            os.unlink(os.path.join(inc, "f.h"))
            write(os.path.join(inc, "f.h"), "int f;\n")
            os.mkfifo(os.path.join(tmp, "f.h"))
            self.assertIsNone(includes.irregular_include(src, flags, kernel))
            write(os.path.join(tmp, "t.h"), '#include "f.h"\n')
            self.assertIn("includes f.h (from t.h): a FIFO",
                          includes.irregular_include(src, flags, kernel))
            # a link to a device, and an absolute name
            os.unlink(os.path.join(tmp, "f.h"))
            os.symlink("/dev/zero", os.path.join(tmp, "z.h"))
            write(os.path.join(tmp, "t.h"), '#  include "z.h"\n')
            self.assertIn("z.h (from t.h): a character device",
                          includes.irregular_include(src, flags, kernel))
            write(src, '#include "/dev/null"\n')
            self.assertIn("includes /dev/null: a character device",
                          includes.irregular_include(src, flags, kernel))

    def test_the_scan_reports_a_fifo_header_at_once(self):
        with TempDir() as tmp:
            d = os.path.join(tmp, "m")
            os.makedirs(os.path.join(d, "inc"))
            with open(MCHAR) as f:
                text = f.read()
            write(os.path.join(d, "mchar.c"),
                  text.replace("#include <linux/module.h>",
                               '#include <linux/module.h>\n#include "t.h"',
                               1))
            write(os.path.join(d, "inc", "t.h"), '#include "f.h"\n')
            os.mkfifo(os.path.join(d, "inc", "f.h"))
            write(os.path.join(d, "Makefile"),
                  "obj-m := mchar.o\nccflags-y := -I$(src)/inc\n")
            c = seeded(os.path.join(tmp, "c"))
            t0 = time.time()
            res = subprocess.run(
                [MODLIFE, "scan", "--cache-dir", c, "--cocci", "off", d], stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, timeout=150)
            self.assertLess(time.time() - t0, 100)
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn("mchar.c: error: includes inc/f.h (from inc/t.h): "
                          "a FIFO, not a regular file", res.stderr)
            # the semantic patches read the file alone: they still check it
            res = subprocess.run(
                [MODLIFE, "scan", "--cache-dir", c, d],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                timeout=250)
            self.assertEqual(res.returncode, 1, res.stderr)
            self.assertIn("[modlife-missing-owner]", res.stdout)


if __name__ == "__main__":
    unittest.main()
