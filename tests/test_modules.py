# SPDX-License-Identifier: GPL-2.0-only
"""Scanning a kernel source tree without kbuild: which files are module
code (Makefile + Kconfig), and how composite objects make one module."""
import os
import shutil
import unittest

from util import CORPUS, TempDir, scan, write

MAKEFILE = """\
obj-$(CONFIG_FOO_A) += a.o
obj-$(CONFIG_FOO_B) += b.o
obj-y += c.o
obj-$(CONFIG_FOO_A) += evq.o
evq-y := evq-main.o \\
	evq-fops.o
"""
KCONFIG = """\
config FOO_A
	tristate "A, can be a module"

config FOO_B
	bool "B, built in or not at all"
"""


def fake_tree(tmp):
    root = os.path.join(tmp, "linux")
    os.makedirs(os.path.join(root, "include", "linux"))
    # not the kernel KDIR configures: its .config cannot decide FOO_A
    write(os.path.join(root, "Makefile"), "VERSION = 99\nPATCHLEVEL = 1\n")
    write(os.path.join(root, "Kconfig"), 'source "drivers/foo/Kconfig"\n')
    d = os.path.join(root, "drivers", "foo")
    write(os.path.join(d, "Makefile"), MAKEFILE)
    write(os.path.join(d, "Kconfig"), KCONFIG)
    for name in ("a.c", "b.c", "c.c"):
        shutil.copy(os.path.join(CORPUS, "misc-char-bug", "mchar.c"),
                    os.path.join(d, name))
    for name in ("evq-main.c", "evq-fops.c", "evq.h"):
        shutil.copy(os.path.join(CORPUS, "multi-file-bug", name),
                    os.path.join(d, name))
    return d


def names(result):
    return sorted("%s:%d" % (os.path.basename(f["file"]), f["line"])
                  for f in result["findings"])


class TreeScanTest(unittest.TestCase):
    def test_tristate_object_is_module_bool_and_obj_y_are_not(self):
        with TempDir() as tmp:
            d = fake_tree(tmp)
            rc, result, err = scan([d])
            self.assertEqual(result["errors"], [], err)
            self.assertEqual(names(result), ["a.c:73", "evq-fops.c:44"])

    def test_one_file_of_a_composite_module_links_with_its_parts(self):
        with TempDir() as tmp:
            d = fake_tree(tmp)
            rc, result, _ = scan([os.path.join(d, "evq-fops.c")])
            self.assertEqual(names(result), ["evq-fops.c:44"])
            # the finding is not in the file asked for
            rc, result, _ = scan([os.path.join(d, "evq-main.c")])
            self.assertEqual(names(result), [])
            self.assertEqual(rc, 0)

    def test_assume_module_for_files_no_makefile_names(self):
        with TempDir() as tmp:
            d = os.path.join(tmp, "loose")
            os.makedirs(d)
            shutil.copy(os.path.join(CORPUS, "misc-char-bug", "mchar.c"), d)
            rc, result, _ = scan([d])
            self.assertEqual(names(result), [])
            rc, result, _ = scan([d], "--assume-module")
            self.assertEqual(names(result), ["mchar.c:73"])


if __name__ == "__main__":
    unittest.main()
