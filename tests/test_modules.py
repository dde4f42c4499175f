# SPDX-License-Identifier: GPL-2.0-only
"""Scanning a kernel source tree without kbuild: which files are module
code (Makefile + Kconfig), and how composite objects make one module."""
import json
import os
import shutil
import subprocess
import unittest

from util import cold, CORPUS, MODLIFE, TempDir, kdir, run, scan, write

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
    for sub in (("include", "linux"), ("arch",), ("scripts",)):
        os.makedirs(os.path.join(root, *sub))
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


def prepend(path, text):
    """Puts text before a source file's first line."""
    with open(path) as f:
        old = f.read()
    write(path, text + old)


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
            self.assertEqual([(os.path.basename(s["file"]), s["reason"])
                              for s in result["skipped"]],
                             [("b.c", "bool-only"), ("c.c", "bool-only")])

    def test_a_fifo_named_like_kconfig_or_a_header_does_not_block(self):
        """A scanned tree is untrusted: a FIFO where a Kconfig file, a
        sourced one or a *_shipped header would be is not read."""
        with TempDir() as tmp:
            d = fake_tree(tmp)
            root = os.path.dirname(os.path.dirname(d))
            os.mkfifo(os.path.join(d, "Kconfig.fifo"))
            write(os.path.join(root, "Kconfig"),
                  'source "drivers/foo/Kconfig"\n'
                  'source "drivers/foo/Kconfig.fifo"\n')
            os.mkfifo(os.path.join(d, "foo_reg.h_shipped"))
            prepend(os.path.join(d, "a.c"), '#include "foo_reg.h"\n')
            res = subprocess.run(
                [MODLIFE, "scan", *cold(), "--format", "json",
                 "--cocci", "off", d], stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, timeout=300)
            result = json.loads(res.stdout)
            self.assertEqual(names(result), ["evq-fops.c:44"])
            self.assertIn("unable to open 'foo_reg.h'",
                          result["errors"][0]["message"])

    def test_one_file_of_a_composite_module_links_with_its_parts(self):
        with TempDir() as tmp:
            d = fake_tree(tmp)
            rc, result, _ = scan([os.path.join(d, "evq-fops.c")])
            self.assertEqual(names(result), ["evq-fops.c:44"])
            # the finding is not in the file asked for
            rc, result, _ = scan([os.path.join(d, "evq-main.c")])
            self.assertEqual(names(result), [])
            self.assertEqual(rc, 0)

    def test_a_directory_without_makefile_is_module_code(self):
        """By default; under --config kdir it is skipped as no-makefile
        unless --assume-module, and a file named alone is checked."""
        with TempDir() as tmp:
            d = os.path.join(tmp, "loose")
            os.makedirs(d)
            shutil.copy(os.path.join(CORPUS, "misc-char-bug", "mchar.c"), d)
            rc, result, _ = scan([d])
            self.assertEqual(names(result), ["mchar.c:73"])
            self.assertEqual(result["skipped"], [])
            rc, result, _ = scan([d], "--config", "kdir")
            self.assertEqual(names(result), [])
            self.assertEqual([(os.path.basename(s["file"]), s["reason"])
                              for s in result["skipped"]],
                             [("mchar.c", "no-makefile")])
            rc, result, _ = scan([d], "--config", "kdir", "--assume-module")
            self.assertEqual(names(result), ["mchar.c:73"])
            rc, result, _ = scan([os.path.join(d, "mchar.c")], "--config",
                                 "kdir")
            self.assertEqual(names(result), ["mchar.c:73"])

    def test_a_file_named_alone_is_checked_unless_its_makefile_says_no(self):
        with TempDir() as tmp:
            d = fake_tree(tmp)
            shutil.copy(os.path.join(d, "a.c"), os.path.join(d, "loose.c"))
            rc, result, err = scan([os.path.join(d, "loose.c")])
            self.assertEqual(names(result), ["loose.c:73"], err)
            rc, result, err = scan([os.path.join(d, "b.c")])
            self.assertEqual(names(result), [])
            self.assertEqual([s["reason"] for s in result["skipped"]],
                             ["bool-only"])
            # a file the user named and that is not checked is said so
            res = run([MODLIFE, "scan", *cold(),
                       os.path.join(d, "b.c")])
            self.assertRegex(res.stderr, r"b\.c: note: not checked: "
                             r"bool-only \(")


class MakefileReadingTest(unittest.TestCase):
    """What kbuild would build and with which flags, read from Makefiles
    under a known configuration (ON=y, MOD=m, OFF unset; UNKNOWN is not
    decided, so both of its branches count)."""

    def setUp(self):
        import sys
        sys.path.insert(0, os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))))
        from frontend.tree.kconfig import Kconfig
        from frontend.tree.modules import ModuleMap
        self.Kconfig, self.ModuleMap = Kconfig, ModuleMap

    def tree(self, tmp, makefile, parent="", extra=None):
        root = os.path.join(tmp, "linux")
        for sub in (("include", "linux"), ("arch",), ("scripts",)):
            os.makedirs(os.path.join(root, *sub))
        write(os.path.join(root, "Makefile"), "VERSION = 99\n")
        write(os.path.join(root, "Kconfig"), "")
        write(os.path.join(root, "drivers", "Makefile"), parent)
        d = os.path.join(root, "drivers", "foo")
        write(os.path.join(d, "Makefile"), makefile)
        for name, text in (extra or {}).items():
            write(os.path.join(d, name), text)
        for name in ("a.c", "b.c", "c.c", "d.c", "e.c"):
            write(os.path.join(d, name), "int x;\n")
        kc = self.Kconfig()
        kc.config = {"CONFIG_ON": "y", "CONFIG_MOD": "m", "CONFIG_OFF": "n",
                     "CONFIG_HZ": "250"}
        return root, d, self.ModuleMap(kc, root=root, mode="kdir")

    def test_conditionals_and_parts_whose_option_is_off(self):
        mk = """\
obj-$(CONFIG_MOD) += foo.o
foo-y := a.o
foo-$(CONFIG_OFF) += b.o
foo-$(CONFIG_ON) += c.o
ifdef CONFIG_OFF
foo-y += d.o
else ifeq ($(CONFIG_ON),y)
foo-y += e.o
else
foo-y += d.o
endif
ifneq ($(CONFIG_UNKNOWN),)
CFLAGS_a.o += -DBOTH_A
else
CFLAGS_a.o += -DBOTH_B
endif
"""
        with TempDir() as tmp:
            root, d, mm = self.tree(tmp, mk)
            place = mm.resolve(os.path.join(d, "a.c"))
            self.assertTrue(place.module)
            self.assertEqual(place.modname, "foo")
            self.assertEqual(sorted(os.path.basename(m)
                                    for m in place.members),
                             ["a.c", "c.c", "e.c"])
            for off in ("b.c", "d.c"):
                self.assertFalse(mm.resolve(os.path.join(d, off))[0], off)
            flags = mm.flags(os.path.join(d, "a.c"))
            self.assertIn("-DBOTH_A", flags)
            self.assertIn("-DBOTH_B", flags)

    def test_make_syntax_that_must_not_lose_objects(self):
        mk = ("ifdef CONFIG_HZ\nobj-m += a.o\nendif\n"
              "define HELP\nifeq (x,y)\nendef\n"
              "ifeq ($(CONFIG_OFF),y)\nobj-m += d.o\n"
              "else\tifeq ($(CONFIG_ON),y)\nobj-m += b.o\nendif\n"
              "A = $(A)$(A)$(A)$(A)$(A)$(A)$(A)$(A)\n"
              "obj-m += c.o $(A)\n"
              "F := -I$(src)/inc\nF := $(F) -DX\n"
              "F ?= -DNOT_USED\n"
              "ccflags-y += -DOLD\nccflags-y := $(F)\n"
              "ccflags-$(CONFIG_MOD) += -DMODULAR_ONLY\n"
              "CFLAGS_sub/e.o += -DSUB\n")
        with TempDir() as tmp:
            root, d, mm = self.tree(tmp, mk)
            for name in ("a.c", "b.c", "c.c"):
                self.assertTrue(mm.resolve(os.path.join(d, name))[0], name)
            self.assertFalse(mm.resolve(os.path.join(d, "d.c"))[0])
            a = mm.flags(os.path.join(d, "a.c"))
            self.assertEqual([f for f in a if f.startswith(("-I", "-D"))],
                             ["-I" + os.path.join(d, "inc"), "-DX"])
            e = os.path.join(d, "sub", "e.c")
            self.assertIn("-DSUB", mm.flags(e, d))

    def test_substitution_references_m_to_y(self):
        """kbuild's "$(CONFIG_X:m=y)" is y wherever X is on: ixgbe's
        "ixgbe-$(CONFIG_FCOE:m=y) += ixgbe_fcoe.o" is a part of ixgbe,
        go7007's ccflags for a modular loader apply, powermac's
        "obj-$(CONFIG_NVRAM:m=y)" is never a module."""
        mk = """\
obj-$(CONFIG_MOD) += foo.o
foo-y := a.o
foo-$(CONFIG_MOD:m=y) += b.o
foo-$(CONFIG_OFF:m=y) += c.o
obj-$(CONFIG_MOD:m=y) += d.o
ccflags-$(CONFIG_MOD:m=y) += -DMODULAR_TOO
ccflags-$(CONFIG_OFF:m=y) += -DNEVER
"""
        with TempDir() as tmp:
            root, d, mm = self.tree(tmp, mk)
            place = mm.resolve(os.path.join(d, "a.c"))
            self.assertEqual(sorted(os.path.basename(m)
                                    for m in place.members),
                             ["a.c", "b.c"])
            self.assertFalse(mm.resolve(os.path.join(d, "c.c"))[0])
            self.assertEqual(mm.resolve(os.path.join(d, "d.c")).reason,
                             "bool-only")
            flags = mm.flags(os.path.join(d, "a.c"))
            self.assertIn("-DMODULAR_TOO", flags)
            self.assertNotIn("-DNEVER", flags)

    def test_list_variables_functions_and_included_makefiles(self):
        """i915 splices a list variable into its composite ("gt-y" into
        "i915-y"), fs/xfs uses $(addprefix), amdgpu includes several
        Makefiles at once: the parts belong to the composite object."""
        mk = """\
obj-$(CONFIG_MOD) += foo.o
gt-y += a.o
foo-y += $(gt-y)
SUBS = $(addsuffix /Makefile.sub, $(addprefix $(srctree)/$(src)/,x y))
include $(SUBS)
foo-y += $(addprefix sub/,$(FROM_X) $(FROM_Y))
"""
        with TempDir() as tmp:
            root, d, mm = self.tree(tmp, mk, extra={
                "x/Makefile.sub": "FROM_X := b.o\n",
                "y/Makefile.sub": "FROM_Y := c.o\n"})
            for n in ("sub/b.c", "sub/c.c"):
                write(os.path.join(d, n), "int x;\n")
            for n in ("a.c", "sub/b.c", "sub/c.c"):
                place = mm.resolve(os.path.join(d, n))
                self.assertEqual((place.module, place.modname),
                                 (True, "foo"), n)

    def test_ccflags_as_kbuild_passes_them(self):
        mk = """\
obj-m += foo.o
foo-objs := a.o b.o
LOCAL_INC := $(srctree)/$(src)/inc
include $(src)/Makefile.extra
ccflags-y += -I$(src)/include -I $(LOCAL_INC) -I$(UNDEFINED)/x
ccflags-y += '-DTAG="foo: "' -DPLAIN=1
ccflags-$(CONFIG_OFF) += -DNEVER
ccflags-$(CONFIG_ON) += -DALWAYS
CFLAGS_b.o := -Iinclude/b-only -O0 -fno-stack-protector
"""
        with TempDir() as tmp:
            root, d, mm = self.tree(
                tmp, mk, parent="subdir-ccflags-y += -DFROM_PARENT\n",
                extra={"Makefile.extra": "ccflags-y += -DEXTRA\n"})
            a = mm.flags(os.path.join(d, "a.c"))
            b = mm.flags(os.path.join(d, "b.c"))
            self.assertIn("-DFROM_PARENT", a)
            self.assertIn("-I" + os.path.join(d, "include"), a)
            self.assertIn("-I" + os.path.join(d, "inc"), a)
            self.assertIn('-DTAG="foo: "', a)
            self.assertIn("-DPLAIN=1", a)
            self.assertIn("-DALWAYS", a)
            self.assertIn("-DEXTRA", a)
            self.assertNotIn("-DNEVER", a)
            self.assertFalse([f for f in a if "UNDEFINED" in f or
                              f.endswith("/x")])
            self.assertNotIn("-I" + os.path.join(root, "include", "b-only"),
                             a)
            self.assertIn("-I" + os.path.join(root, "include", "b-only"), b)
            # an optimization level decides __OPTIMIZE__ (jitterentropy.c
            # stops with #error unless built -O0); other options are not
            # the parse's
            self.assertIn("-O0", b)
            self.assertNotIn("-O0", a)
            self.assertNotIn("-fno-stack-protector", b)

    def test_scan_applies_the_include_path_of_ccflags(self):
        """A module whose header is found only through ccflags-y parses."""
        with TempDir() as tmp:
            d = os.path.join(tmp, "mod")
            shutil.copytree(os.path.join(CORPUS, "misc-char-bug"), d)
            os.makedirs(os.path.join(d, "include"))
            write(os.path.join(d, "include", "mchar-extra.h"),
                  "#define MCHAR_EXTRA 1\n")
            src = os.path.join(d, "mchar.c")
            with open(src) as f:
                text = f.read()
            write(src, '#include "mchar-extra.h"\n' + text.replace(
                "\n", "\n", 1))
            write(os.path.join(d, "Kbuild"), "obj-m += mchar.o\n"
                  "ccflags-y += -I$(src)/include\n")
            rc, result, err = scan([d])
            self.assertEqual(result["errors"], [], err)
            self.assertEqual(names(result), ["mchar.c:74"])


def one_module(d, option, line, name):
    """d: a Kconfig with the tristate option (and its line), a Makefile
    building name.o under it, name.c."""
    write(os.path.join(d, "Kconfig"), "config %s\n\ttristate \"%s\"\n\t%s\n"
          % (option, name, line))
    write(os.path.join(d, "Makefile"), "obj-$(CONFIG_%s) += %s.o\n"
          % (option, name))
    write(os.path.join(d, "%s.c" % name), "int %s;\n" % name[0])


class KdirTree:
    """A fake tree of KDIR's kernel version, and the front end's
    modules."""

    def setUp(self):
        import sys
        sys.path.insert(0, os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))))
        from frontend.scanning import scan as scanmod
        from frontend.tree import kconfig, modules
        self.modules, self.scanmod = modules, scanmod
        self.Kconfig, self.version = kconfig.Kconfig, kconfig._version

    def module_map(self, root):
        """The ModuleMap of root read with KDIR's configuration."""
        return self.modules.ModuleMap(self.Kconfig(tree=root, kdir=kdir()))

    def same_kernel_tree(self, tmp):
        """fake_tree() claiming KDIR's version: KDIR's .config decides
        its options under --config kdir (and knows none of them)."""
        d = fake_tree(tmp)
        root = os.path.dirname(os.path.dirname(d))
        kc = self.Kconfig(kdir=kdir())
        ver = self.version(kdir())
        write(os.path.join(root, "Makefile"),
              "VERSION = %s\nPATCHLEVEL = %s\n" % ver)
        self.assertIn("CONFIG_MODULES", kc.config)
        return root, d


class AnyConfigurationTest(KdirTree, unittest.TestCase):
    """The default: module code is what kbuild can build as a module in
    some configuration, whatever KDIR's .config says."""

    def test_kdir_config_decides_only_under_config_kdir(self):
        with TempDir() as tmp:
            root, d = self.same_kernel_tree(tmp)
            rc, result, err = scan([d])
            self.assertEqual(names(result), ["a.c:73", "evq-fops.c:44"], err)
            rc, result, err = scan([d], "--config", "kdir")
            self.assertEqual(names(result), [], err)
            self.assertEqual(sorted((os.path.basename(s["file"]),
                                     s["reason"])
                                    for s in result["skipped"]),
                             [("a.c", "config"), ("b.c", "bool-only"),
                              ("c.c", "bool-only"), ("evq-fops.c", "config"),
                              ("evq-main.c", "config")])
            res = run([MODLIFE, "scan", *cold(), "--stats", "--config",
                       "kdir", d])
            self.assertIn("5 skipped (not module code: bool-only 2, "
                          "config 3)", res.stderr)

    def test_tristate_on_another_architecture_and_parts_beside(self):
        """An option tristate only in arch/arm's Kconfig is a module
        option; a bool part of a module is in the module; a part named
        from a neighbour directory ("../common/") belongs to the module
        that names it; an option no Kconfig defines builds nothing, nor
        one nothing can turn on (no prompt, default, select or imply)."""
        with TempDir() as tmp:
            root, d = self.same_kernel_tree(tmp)
            write(os.path.join(root, "arch", "arm", "Kconfig"),
                  "config FOO_ARM\n\ttristate \"arm only\"\n"
                  "\tselect FOO_SEL\n\timply FOO_IMP\n"
                  "config FOO_FEATURE\n\tbool \"a feature\"\n"
                  "config FOO_DEAD\n\ttristate\n\tselect FOO_ARM\n"
                  "config FOO_SEL\n\ttristate\n"
                  "config FOO_IMP\n\ttristate\n"
                  "config FOO_DEF\n\ttristate\n\tdefault m if FOO_ARM\n"
                  "config FOO_QUOTED\n\ttristate 'a prompt'\n")
            write(os.path.join(d, "Makefile"), "\n".join([
                "obj-${CONFIG_FOO_ARM} += armfoo.o",
                "armfoo-y := arm-main.o",
                "armfoo-$(CONFIG_FOO_FEATURE) += arm-feature.o",
                "armfoo-y += ../common/shared.o",
                "obj-$(CONFIG_NOWHERE) += gone.o",
                "obj-$(CONFIG_FOO_DEAD) += dead.o"] + [
                "obj-$(CONFIG_FOO_%s) += %s.o" % (n.upper(), n)
                for n in ("sel", "imp", "def", "quoted")] + [""]))
            built = ("sel.c", "imp.c", "def.c", "quoted.c")
            for n in ("arm-main.c", "arm-feature.c", "gone.c", "dead.c",
                      "../common/shared.c") + built:
                write(os.path.join(d, n), "int x;\n")
            write(os.path.join(root, "drivers", "common", "Makefile"), "")
            mm = self.module_map(root)
            got = {}
            for n in ("arm-main.c", "arm-feature.c", "gone.c", "dead.c",
                      "../common/shared.c") + built:
                p = mm.resolve(os.path.normpath(os.path.join(d, n)))
                got[n] = (p.module, p.reason, p.modname)
            self.assertEqual(got, dict({
                "arm-main.c": (True, None, "armfoo"),
                "arm-feature.c": (True, None, "armfoo"),
                "../common/shared.c": (True, None, "armfoo"),
                "gone.c": (False, "not-built", "gone"),
                "dead.c": (False, "not-built", "dead")}, **{
                    n: (True, None, n[:-2]) for n in built}))

    def test_an_option_that_needs_broken_builds_nothing(self):
        """BROKEN is a bool nothing can turn on: an option that needs it
        (directly, through another option or an "if" block) is never
        on, nor one only such an option selects, nor one that needs an
        option no Kconfig file defines; "|| BROKEN", a
        negation, a macro and a loop of dependencies leave it
        buildable."""
        with TempDir() as tmp:
            root, d = self.same_kernel_tree(tmp)
            write(os.path.join(root, "init", "Kconfig"),
                  "config BROKEN\n\tbool\n"
                  "config FOO_BASE\n\tbool \"base\"\n")
            write(os.path.join(d, "Kconfig"),
                  "config FOO_BROKEN\n\ttristate \"b\"\n"
                  "\tdepends on FOO_BASE && BROKEN\n\tselect FOO_SELECTED\n"
                  "config FOO_CHAIN\n\ttristate \"c\"\n"
                  "\tdepends on FOO_BROKEN\n"
                  "config FOO_SELECTED\n\ttristate\n"
                  "if BROKEN\nconfig FOO_IN_IF\n\ttristate \"i\"\nendif\n"
                  "config FOO_EITHER\n\ttristate \"e\"\n"
                  "\tdepends on (FOO_BASE && !FOO_BASE) || BROKEN\n"
                  "config FOO_NOT\n\ttristate \"n\"\n"
                  "\tdepends on !BROKEN\n"
                  "config FOO_MACRO\n\ttristate \"m\"\n"
                  "\tdepends on $(cc-option,-mfoo)\n"
                  "config FOO_LOOP_A\n\ttristate \"a\"\n"
                  "\tdepends on FOO_LOOP_B\n"
                  "config FOO_LOOP_B\n\ttristate \"b\"\n"
                  "\tdepends on FOO_LOOP_A || FOO_BASE\n"
                  "config FOO_NOWHERE\n\ttristate \"w\"\n"
                  "\tdepends on MFD_NOWHERE\n"
                  "config FOO_NOT_NOWHERE\n\ttristate \"v\"\n"
                  "\tdepends on !MFD_NOWHERE\n")
            write(os.path.join(root, "Kconfig"),
                  'source "init/Kconfig"\nsource "drivers/foo/Kconfig"\n')
            names = ("broken", "chain", "selected", "in_if", "either",
                     "not", "macro", "loop_a", "loop_b", "nowhere",
                     "not_nowhere")
            write(os.path.join(d, "Makefile"), "".join(
                "obj-$(CONFIG_FOO_%s) += %s.o\n" % (n.upper(), n)
                for n in names))
            for n in names:
                write(os.path.join(d, n + ".c"), "int x;\n")
            mm = self.module_map(root)
            got = {n: mm.resolve(os.path.join(d, n + ".c")).reason
                   for n in names}
            self.assertEqual(got, dict(
                {n: "not-built" for n in ("broken", "chain", "selected",
                                          "in_if", "nowhere")},
                **{n: None for n in ("either", "not", "macro", "loop_a",
                                     "loop_b", "not_nowhere")}))

    def test_own_options_are_parsed_as_modules(self):
        """The option selecting the object, and the options of the same
        Kconfig file the source tests, are =m for the parse: code under
        IS_ENABLED() of them is seen. Options of other Kconfig files, and
        what KDIR already builds as =m, are left to KDIR."""
        with TempDir() as tmp:
            root, d = self.same_kernel_tree(tmp)
            write(os.path.join(d, "Kconfig"),
                  "config FOO_A\n\ttristate \"A\"\n"
                  "config FOO_A_EXTRA\n\ttristate \"A extra\"\n"
                  "config FOO_A_DEBUG\n\tbool \"A debug\"\n")
            write(os.path.join(root, "lib", "Kconfig"),
                  "config OTHER_LIB\n\ttristate \"elsewhere\"\n"
                  "config MODULES\n\tbool \"modules\"\n")
            src = os.path.join(d, "a.c")
            prepend(src, "#if IS_ENABLED(CONFIG_FOO_A_EXTRA) || "
                    "defined(CONFIG_FOO_A_DEBUG) || "
                    "IS_ENABLED(CONFIG_OTHER_LIB)\n#endif\n")
            mm = self.module_map(root)
            place = mm.resolve(src)
            self.assertEqual(mm.module_options(src, place),
                             [("CONFIG_FOO_A", "m"),
                              ("CONFIG_FOO_A_EXTRA", "m")])
            kdir_map = self.modules.ModuleMap(self.Kconfig(
                tree=root, kdir=kdir()), mode="kdir")
            self.assertEqual(kdir_map.module_options(src, place), [])

    def test_a_bool_only_a_built_in_build_has_is_off(self):
        """A bool the file tests that depends on its own option =y (a
        tty driver's console: "depends on FOO=y") is off for the parse,
        whatever its default or the configuration says; one that a
        module build can have is left alone, and what the own option
        depends on counts as on."""
        with TempDir() as tmp:
            root, d = self.same_kernel_tree(tmp)
            write(os.path.join(d, "Kconfig"),
                  "config FOO_CORE\n\ttristate \"core\"\n"
                  "config FOO_A\n\ttristate \"A\"\n"
                  "\tdepends on FOO_CORE\n"
                  "config FOO_A_CONSOLE\n\tbool \"console\"\n"
                  "\tdefault y\n\tdepends on FOO_CORE=y && FOO_A=y\n"
                  "config FOO_A_LEDS\n\tbool \"leds\"\n"
                  "\tdefault y\n\tdepends on FOO_A\n")
            write(os.path.join(d, "Makefile"), "obj-$(CONFIG_FOO_A) += a.o\n")
            src = os.path.join(d, "a.c")
            prepend(src, "#if defined(CONFIG_FOO_A_CONSOLE) || "
                    "defined(CONFIG_FOO_A_LEDS)\n#endif\n")
            mm = self.module_map(root)
            self.assertEqual(mm.module_options(src, mm.resolve(src)),
                             [("CONFIG_FOO_A", "m"),
                              ("CONFIG_FOO_A_CONSOLE", "n")])

    def test_a_bool_part_option_and_valued_options(self):
        """A part built under a bool option ("foo-$(CONFIG_FOO_CFM) +=
        cfm.o") is parsed with it =y; an int option the file uses that
        KDIR lacks gets its Kconfig default, one without a literal
        default nothing."""
        with TempDir() as tmp:
            root, d = self.same_kernel_tree(tmp)
            write(os.path.join(d, "Kconfig"),
                  "config FOO_A\n\ttristate \"A\"\n"
                  "config FOO_CFM\n\tbool \"cfm\"\n"
                  "config FOO_RATE\n\tint \"rate\"\n\tdefault 48000\n"
                  "config FOO_NAME\n\tstring \"name\"\n"
                  "\tdefault \"foo\"\n"
                  "config FOO_DEP\n\tint\n\tdefault FOO_RATE\n"
                  "config FOO_QLEN\n\tint \"queue\"\n\tdefault \"128\"\n")
            write(os.path.join(d, "Makefile"),
                  "obj-$(CONFIG_FOO_A) += foo.o\nfoo-y := a.o\n"
                  "foo-$(CONFIG_FOO_CFM) += cfm.o\n")
            write(os.path.join(d, "cfm.c"),
                  "int rate = CONFIG_FOO_RATE; /* not CONFIG_FOO_DEP */\n"
                  "const char *name = CONFIG_FOO_NAME;\n"
                  "static int queue[CONFIG_FOO_QLEN];\n"
                  "int *q = queue;\n")
            mm = self.module_map(root)
            cfm = os.path.join(d, "cfm.c")
            self.assertEqual(mm.module_options(cfm, mm.resolve(cfm)), [
                ("CONFIG_FOO_A", "m"), ("CONFIG_FOO_CFM", "y"),
                ("CONFIG_FOO_NAME", '"foo"'), ("CONFIG_FOO_QLEN", "128"),
                ("CONFIG_FOO_RATE", "48000")])
            a = os.path.join(d, "a.c")
            self.assertEqual(mm.module_options(a, mm.resolve(a)),
                             [("CONFIG_FOO_A", "m")])
            # and the parse sees them: no error
            rc, result, err = scan([d])
            self.assertEqual(result["errors"], [], err)

    def test_valued_options_what_is_on_makes_visible(self):
        """An int option a header needs that depends on what the file's
        option depends on (ColdFire's CLOCK_FREQ under COLDFIRE), through
        a bool that defaults to y there, gets its default; one under an
        option that stays off does not."""
        with TempDir() as tmp:
            root, d = self.same_kernel_tree(tmp)
            write(os.path.join(d, "Kconfig"),
                  "config FOO_PLAT\n\tbool \"platform\"\n"
                  "config FOO_PLAT_COMMON\n\tbool\n\tdefault y\n"
                  "\tdepends on FOO_PLAT\n"
                  "config FOO_SPACE\n\tint \"space\"\n\tdefault 4\n"
                  "\tdepends on FOO_PLAT_COMMON\n"
                  "config FOO_OTHER\n\tbool \"other\"\n"
                  "config FOO_OTHER_N\n\tint \"n\"\n\tdefault 2\n"
                  "\tdepends on FOO_OTHER\n"
                  "config FOO_A\n\ttristate \"A\"\n"
                  "\tdepends on FOO_PLAT\n"
                  # kconfig writes a visible string without a default
                  # as empty (xe's FORCE_PROBE), not a hidden one
                  "config FOO_PROBE\n\tstring \"ids\"\n"
                  "\tdepends on FOO_A\n"
                  "config FOO_HIDDEN\n\tstring\n\tdepends on FOO_A\n")
            write(os.path.join(d, "Makefile"), "obj-$(CONFIG_FOO_A) += a.o\n")
            write(os.path.join(d, "plat.h"),
                  "static int plat_gap[CONFIG_FOO_SPACE];\n"
                  "static const char *probe = CONFIG_FOO_PROBE;\n")
            src = os.path.join(d, "a.c")
            prepend(src, '#include "plat.h"\nint *gap = plat_gap;\n')
            mm = self.module_map(root)
            self.assertEqual(mm.dependencies(mm.resolve(src), src),
                             [("CONFIG_FOO_PLAT", "y"),
                              ("CONFIG_FOO_PLAT_COMMON", "y"),
                              ("CONFIG_FOO_PROBE", '""'),
                              ("CONFIG_FOO_SPACE", "4")])
            rc, result, err = scan([d])
            self.assertEqual(result["errors"], [], err)
            # a bool the configuration turns off stays off, and what
            # depends on it unset
            from frontend.tree import kconfeval
            kc = self.Kconfig(tree=root, kdir=kdir())
            # as does another architecture's bool, and what needs it
            write(os.path.join(root, "arch", "bar", "Kconfig"),
                  "config BAR_MMU32\n\tbool\n\tdefault y\n"
                  "\tdepends on FOO_PLAT\n"
                  "config BAR_PAGES\n\tint\n\tdefault 2\n"
                  "\tdepends on BAR_MMU32\n")
            with open(os.path.join(root, "Kconfig"), "a") as f:
                f.write('source "arch/bar/Kconfig"\n')
            kc = self.Kconfig(tree=root, kdir=kdir())
            on = {"CONFIG_FOO_PLAT": "y"}
            self.assertNotIn("CONFIG_BAR_PAGES", kconfeval.valued_defaults(
                kc, on, set(on)))
            self.assertEqual(kconfeval.valued_defaults(
                kc, on, set(on), "bar", "bar"), {
                    "CONFIG_BAR_MMU32": "y", "CONFIG_BAR_PAGES": "2",
                    "CONFIG_FOO_PLAT_COMMON": "y", "CONFIG_FOO_SPACE": "4"})
            self.assertEqual(kconfeval.valued_defaults(
                kc, {"CONFIG_FOO_PLAT": "y", "CONFIG_FOO_PLAT_COMMON": "n"},
                {"CONFIG_FOO_PLAT"}), {})

    def test_the_default_member_of_the_modules_choice(self):
        """Some member of a choice is on in every configuration: the
        first default of a choice under the module's option is =y for
        the parse (a header's struct members under "IS_ENABLED(HOST) ||
        IS_ENABLED(DUAL)"), one member set by a part's option stays the
        only one, and a choice the module has nothing to do with is left
        alone."""
        with TempDir() as tmp:
            root, d = self.same_kernel_tree(tmp)
            write(os.path.join(d, "Kconfig"),
                  "config FOO_A\n\ttristate \"A\"\nif FOO_A\nchoice\n"
                  "\tbool \"mode\"\n\tdefault FOO_DUAL if FOO_A\n"
                  "\tdefault FOO_HOST\n"
                  "config FOO_HOST\n\tbool \"host\"\n"
                  "config FOO_DUAL\n\tbool \"dual\"\nendchoice\nendif\n"
                  "choice\n\tbool \"other\"\n\tdefault BAR_X\n"
                  "config BAR_X\n\tbool \"x\"\nendchoice\n")
            write(os.path.join(d, "Makefile"),
                  "obj-$(CONFIG_FOO_A) += foo.o\nfoo-y := a.o\n"
                  "foo-$(CONFIG_FOO_HOST) += host.o\n")
            write(os.path.join(d, "foo.h"),
                  "struct foo {\n\tint id;\n"
                  "#if IS_ENABLED(CONFIG_FOO_HOST) || "
                  "IS_ENABLED(CONFIG_FOO_DUAL)\n\tint channels;\n#endif\n};\n")
            write(os.path.join(d, "a.c"),
                  "#include \"foo.h\"\n"
                  "int foo_channels(struct foo *f)\n"
                  "{\n\treturn f->channels;\n}\n")
            write(os.path.join(d, "host.c"), "int foo_host;\n")
            mm = self.module_map(root)
            a, host = os.path.join(d, "a.c"), os.path.join(d, "host.c")
            self.assertEqual(mm.module_options(a, mm.resolve(a)), [
                ("CONFIG_FOO_A", "m"), ("CONFIG_FOO_DUAL", "y")])
            self.assertEqual(mm.module_options(host, mm.resolve(host)), [
                ("CONFIG_FOO_A", "m"), ("CONFIG_FOO_HOST", "y")])
            rc, result, err = scan([d])
            self.assertEqual(result["errors"], [], err)

    def test_config_kdir_without_a_config_is_an_error(self):
        """A KDIR without .config would make nothing module code under
        --config kdir: an error, not an empty report; the default does
        not read it for that."""
        with TempDir() as tmp:
            d = fake_tree(tmp)
            empty = os.path.join(tmp, "kdir")
            os.makedirs(empty)
            sc = self.scanmod.Scanner(empty, 1, config="kdir")
            files = [os.path.join(d, "a.c")]
            with self.assertRaisesRegex(self.scanmod.ScanError,
                                        "has no .config"):
                sc._plan(files, [])
            sc = self.scanmod.Scanner(empty, 1)
            info, modules, skipped, options = sc._plan(files, [])
            self.assertEqual(list(info), files)

    def test_sarif_and_json_list_what_was_not_checked(self):
        import json
        trap = os.path.join(CORPUS, "trap-bool-option")
        res = run([MODLIFE, "scan", *cold(), "--format", "sarif",
                   trap])
        self.assertEqual(res.returncode, 0, res.stderr)
        notes = json.loads(res.stdout)["runs"][0]["invocations"][0][
            "toolExecutionNotifications"]
        self.assertEqual([(n["level"], n["properties"]["reason"],
                           os.path.basename(n["locations"][0][
                               "physicalLocation"]["artifactLocation"][
                                   "uri"])) for n in notes],
                         [("note", "bool-only", "clkstat.c")])
        self.assertTrue(notes[0]["message"]["text"].startswith(
            "not checked: bool-only"))
        rc, result, err = scan(["."], cwd=trap)
        self.assertEqual(result["skipped"], [{"file": "clkstat.c",
                                              "reason": "bool-only"}])


class OtherArchitectureTest(unittest.TestCase):
    """A driver for another architecture's hardware includes headers
    KDIR's architecture lacks: it is parsed with the tree's headers of the
    architecture that has them, after KDIR's."""

    def tree(self, tmp, header_in_arch):
        d = fake_tree(tmp)
        root = os.path.dirname(os.path.dirname(d))
        if header_in_arch:
            write(os.path.join(root, "arch", "powerpc", "include", "asm",
                               "modlife-vio.h"),
                  "#include <asm/modlife-hv.h>\n"
                  "struct vio_fake { int unit; };\n")
            write(os.path.join(root, "arch", "powerpc", "include", "asm",
                               "modlife-hv.h"), "#define HV_FAKE 1\n")
        src = os.path.join(d, "a.c")
        # one line more: the finding moves from 73 to 74
        prepend(src, "#include <asm/modlife-vio.h>\n")
        return d

    def test_parsed_with_the_architecture_that_has_the_header(self):
        with TempDir() as tmp:
            d = self.tree(tmp, True)
            rc, result, err = scan([os.path.join(d, "a.c")])
            self.assertEqual(result["errors"], [], err)
            self.assertEqual(names(result), ["a.c:74"])

    def test_a_header_no_architecture_has_stays_an_error(self):
        with TempDir() as tmp:
            d = self.tree(tmp, False)
            rc, result, err = scan([os.path.join(d, "a.c")])
            # the semantic patches decide a file sparse cannot parse
            self.assertEqual([(f["line"], f["engine"])
                              for f in result["findings"]], [(74, "cocci")])
            self.assertEqual(len(result["errors"]), 1, result["errors"])
            self.assertIn("unable to open 'asm/modlife-vio.h'",
                          result["errors"][0]["message"])


class FallbackOrderTest(KdirTree, unittest.TestCase):
    def test_likeliest_architecture_without_configured_headers(self):
        """The likeliest architecture (sparc) has no configured headers, a
        less likely one (s390) has: after the s390 try fails, the file is
        parsed with sparc's arch/ headers first, and that clean parse
        wins; if it fails too, the configured try's error is the one
        reported."""
        from frontend.tree import archheaders
        with TempDir() as tmp:
            d = fake_tree(tmp)
            root = os.path.dirname(os.path.dirname(d))
            sparc = os.path.join(root, "arch", "sparc", "include")
            os.makedirs(sparc)
            tries = []

            def run(flags):
                tries.append(flags[-1])
                if "-I" + sparc in flags and ok:
                    return ["fact"], None
                return [], "1:1: error: no vio_driver_state"

            def for_arch(flags, arch):
                return flags + ["--as-s390"] if arch == "s390" else None

            for ok, want in ((True, (["fact"], None)),
                             (False, ([], "1:1: error: no vio_driver_state"
                                      " (as s390)"))):
                del tries[:]
                got = archheaders.parse_with_fallback(
                    run, root, ["-DX"], os.path.join(d, "a.c"),
                    ["sparc", "s390"], None, for_arch)
                self.assertEqual(got, want)
                self.assertEqual(tries[1], "--as-s390")
                self.assertEqual(len(tries), 3)


class DependencyOptionsTest(KdirTree, unittest.TestCase):
    def test_what_the_option_depends_on_is_on_for_the_parse(self):
        """depends on FOO_OF || COMPILE_TEST: both are =y for the parse
        when KDIR leaves them off; an architecture's own symbol and a
        negated one are not; KDIR's =y stays."""
        with TempDir() as tmp:
            root, d = self.same_kernel_tree(tmp)
            write(os.path.join(d, "Kconfig"),
                  "config FOO_A\n\ttristate \"A\"\n"
                  "\tdepends on FOO_OF || COMPILE_TEST\n"
                  "\tdepends on ARCH_FOO || !FOO_NOT\n"
                  "\tdepends on MODULES && FOO_LIB\n")
            write(os.path.join(root, "lib", "Kconfig"),
                  "config FOO_OF\n\tbool \"of\"\n"
                  "config COMPILE_TEST\n\tbool \"compile test\"\n"
                  "config FOO_NOT\n\tbool \"not\"\n"
                  "config FOO_LIB\n\ttristate \"lib\"\n"
                  "config MODULES\n\tbool \"modules\"\n")
            write(os.path.join(root, "arch", "arm", "Kconfig"),
                  "config ARCH_FOO\n\tbool \"arm platform\"\n")
            mm = self.module_map(root)
            place = mm.resolve(os.path.join(d, "a.c"))
            self.assertEqual(mm.dependencies(place), [
                ("CONFIG_COMPILE_TEST", "y"), ("CONFIG_FOO_LIB", "m"),
                ("CONFIG_FOO_OF", "y")])

    def test_what_every_selector_of_a_bare_option_needs(self):
        """A tristate only a select turns on (REBOOT_MODE) is on only
        with one of its selectors: what each of them needs, directly or
        through a dependency, is on for its parse (OF); what one of
        them does not need is not."""
        with TempDir() as tmp:
            root, d = self.same_kernel_tree(tmp)
            write(os.path.join(d, "Kconfig"),
                  "config FOO_A\n\ttristate\n"
                  "config FOO_SYSCON\n\ttristate \"syscon\"\n"
                  "\tdepends on FOO_OF && FOO_LIB\n\tselect FOO_A\n"
                  "config FOO_PON\n\ttristate \"pon\"\n"
                  "\tdepends on FOO_PMIC\n\tselect FOO_A\n"
                  "config FOO_PMIC\n\ttristate \"pmic\"\n"
                  "\tdepends on FOO_OF\n"
                  "config FOO_B\n\ttristate\n\tdefault m if FOO_PMIC\n")
            write(os.path.join(root, "lib", "Kconfig"),
                  "config FOO_OF\n\tbool \"of\"\n"
                  "config FOO_LIB\n\ttristate \"lib\"\n")
            write(os.path.join(d, "Makefile"),
                  "obj-$(CONFIG_FOO_A) += a.o\nobj-$(CONFIG_FOO_B) += b.o\n")
            write(os.path.join(d, "b.c"), "int b;\n")
            mm = self.module_map(root)
            place = mm.resolve(os.path.join(d, "a.c"))
            self.assertEqual(mm.dependencies(place), [("CONFIG_FOO_OF", "y")])
            # one with a default is not judged by what selects it
            place = mm.resolve(os.path.join(d, "b.c"))
            self.assertEqual(mm.dependencies(place), [])

    def test_blocks_sources_selects_and_help_texts(self):
        """An option inherits the "if"/"menu" blocks it is sourced under,
        selects count, and a help text that reads like Kconfig ("if you
        say Y", "source") changes nothing."""
        with TempDir() as tmp:
            root, d = self.same_kernel_tree(tmp)
            write(os.path.join(root, "Kconfig"),
                  'source "lib/Kconfig"\n'
                  'menuconfig FOO_BUS\n\tbool "bus"\n\thelp\n'
                  '\t  if you say Y here\n\t  source of trouble\n\n'
                  'if FOO_BUS\nmenu "drivers"\n\tdepends on FOO_OF\n'
                  'source "drivers/foo/Kconfig"\nendmenu\nendif\n')
            write(os.path.join(d, "Kconfig"),
                  "config FOO_A\n\ttristate \"A\"\n\tselect FOO_LIB\n")
            write(os.path.join(root, "lib", "Kconfig"),
                  "config FOO_OF\n\tbool \"of\"\n"
                  "config FOO_LIB\n\ttristate \"lib\"\n")
            mm = self.module_map(root)
            place = mm.resolve(os.path.join(d, "a.c"))
            self.assertEqual(mm.dependencies(place), [
                ("CONFIG_FOO_BUS", "y"), ("CONFIG_FOO_LIB", "m"),
                ("CONFIG_FOO_OF", "y")])


class GeneratedHeadersTest(unittest.TestCase):
    """Headers the build generates are made from the tree's own data:
    <asm/mach-types.h> from arch/arm/tools/mach-types, "x.h" from the
    "x.h_shipped" kbuild would copy."""

    def test_mach_types_and_shipped_headers(self):
        with TempDir() as tmp:
            d = fake_tree(tmp)
            root = os.path.dirname(os.path.dirname(d))
            write(os.path.join(root, "arch", "arm", "tools", "mach-types"),
                  "# machine_is_xxx\tCONFIG_xxxx\tMACH_TYPE_xxx\tnumber\n"
                  "ebsa110\t\t\tARCH_EBSA110\t\tEBSA110\t\t\t0\n"
                  "bad line\n")
            write(os.path.join(d, "foo_reg.h_shipped"),
                  "#define FOO_REG_CTRL 0x10\n")
            # a table that is no header (wanxl's firmware)
            write(os.path.join(d, "foo_fw.inc_shipped"), "0x01,0x02,\n")
            src = os.path.join(d, "a.c")
            prepend(src, "#include <asm/mach-types.h>\n"
                    "#include \"foo_reg.h\"\n"
                    "int board(void) { return machine_is_ebsa110() + "
                    "MACH_TYPE_EBSA110 + FOO_REG_CTRL; }\n"
                    "static const unsigned char fw[] = {\n"
                    "#include \"foo_fw.inc\"\n};\n")
            rc, result, err = scan([src])
            self.assertEqual(result["errors"], [], err)
            self.assertEqual(names(result), ["a.c:79"])

    def test_an_empty_stand_in_for_what_the_build_makes(self):
        """A file the directory's Makefile makes (speakup's keymap table)
        that nothing here can make is parsed with an empty stand-in, and
        said so in each format, from the cache too; one no Makefile
        makes, or one whose stand-in does not do, stays an error naming
        the missing file."""
        with TempDir() as tmp:
            d = fake_tree(tmp)
            with open(os.path.join(d, "Makefile"), "a") as f:
                f.write("$(obj)/foo_map.h: $(src)/foo.map $(obj)/genmap\n"
                        "\t$(obj)/genmap $< > $@\n"
                        "$(obj)/a.o: $(obj)/foo_map.h\n"
                        "clean-files := foo_tbl.h\n")
            src = os.path.join(d, "a.c")
            prepend(src, "static const unsigned char keys[] = {\n"
                    "#include \"foo_map.h\"\n};\n")
            cache = os.path.join(tmp, "cache")
            for _ in range(2):
                rc, result, err = scan([src], "--stats", "--cache-dir",
                                       cache)
                self.assertEqual(result["errors"], [], err)
                self.assertEqual(names(result), ["a.c:76"])
                self.assertEqual(result["stand_ins"], [
                    {"file": src, "header": "foo_map.h"}])
                self.assertIn("1 with a stand-in", err)
            self.assertIn("1 from cache", err)
            res = run([MODLIFE, "scan", "--cache-dir", cache, src])
            self.assertIn("%s: note: parsed with an empty stand-in for "
                          "'foo_map.h', which the build makes" % src,
                          res.stderr)
            res = run([MODLIFE, "scan", "--format", "sarif", "--cache-dir",
                       cache, src])
            notes = json.loads(res.stdout)["runs"][0]["invocations"][0][
                "toolExecutionNotifications"]
            self.assertEqual([n["properties"] for n in notes
                              if n["level"] == "note"],
                             [{"standIn": "foo_map.h"}])
            # what it declares is used: the missing file is the error
            prepend(src, '#include "foo_tbl.h"\nint n = FOO_KEYS;\n')
            rc, result, err = scan([src], "--cache-dir", cache)
            self.assertEqual([e["message"] for e in result["errors"]],
                             ["1:10: error: unable to open 'foo_tbl.h'"])
            self.assertNotIn("stand_ins", result)
            write(src, '#include "other.h"\nint x;\n')
            rc, result, err = scan([src], "--cache-dir", cache)
            self.assertEqual([e["message"] for e in result["errors"]],
                             ["1:10: error: unable to open 'other.h'"])

    def test_what_a_makefile_says_the_build_makes(self):
        """Rule targets (msm's pattern rule), targets and clean-files of
        the including file's directory or of one above it, in the tree;
        no path that could leave the overlay; a FIFO named Makefile is
        not read (Makefiles are read as the Kconfig reader reads them)."""
        from frontend.tree import buildmade
        with TempDir() as tmp:
            root = os.path.join(tmp, "linux")
            d = os.path.join(root, "drivers", "msm")
            write(os.path.join(d, "Makefile"),
                  "ccflags-y += -I $(obj)/generated\n"
                  "$(obj)/generated/%.xml.h: $(src)/registers/%.xml \\\n"
                  "\t\t$(src)/gen.py\n\t$(call cmd,headergen)\n"
                  "targets += tbl.inc\nfoo := not_made.h\n")
            src = os.path.join(d, "adreno", "a6xx_gpu.c")
            write(src, "")
            for name, made in (("a6xx.xml.h", True), (".xml.h", False),
                               ("tbl.inc", True), ("not_made.h", False),
                               ("gen.py", False), ("../a6xx.xml.h", False),
                               ("/x/a6xx.xml.h", False)):
                self.assertEqual(buildmade.made_by_build(root, src, name),
                                 made, name)
            # not from the tree's top, nor above it
            write(os.path.join(root, "Makefile"), "targets += top.h\n")
            self.assertFalse(buildmade.made_by_build(root, src, "top.h"))
            self.assertFalse(buildmade.made_by_build(d, src, "a6xx.xml.h"))
            os.remove(os.path.join(d, "Makefile"))
            os.mkfifo(os.path.join(d, "Makefile"))
            self.assertFalse(buildmade.made_by_build(root, src,
                                                     "a6xx.xml.h"))
            self.assertEqual(buildmade.stand_ins([
                os.path.join(tmp, "o", buildmade.PREFIX + "ab", "gen",
                             "x.h"), os.path.join(tmp, "gen-ab", "y.h")]),
                ["gen/x.h"])

    def test_a_compilers_header_has_a_stand_in(self):
        """<larchintrin.h> comes with LoongArch's compiler, not the tree:
        the shipped stand-in declares its built-ins for the parse; a
        compiler header without one stays an error."""
        with TempDir() as tmp:
            d = fake_tree(tmp)
            src = os.path.join(d, "a.c")
            prepend(src, "#include <larchintrin.h>\n"
                    "unsigned int cfg(void) { return __cpucfg(2) + "
                    "__csrrd_w(0x20); }\n")
            rc, result, err = scan([src])
            self.assertEqual(result["errors"], [], err)
            self.assertEqual(names(result), ["a.c:75"])
            write(src, "#include <arm_sve.h>\nint x;\n")
            rc, result, err = scan([src])
            self.assertEqual([e["message"] for e in result["errors"]],
                             ["1:11: error: unable to open 'arm_sve.h'"])


class ArchFlagsTest(unittest.TestCase):
    """A file of another architecture's driver is parsed as for that
    architecture's configured headers when they were fetched."""

    def test_flags_for_another_architecture(self):
        import sys
        sys.path.insert(0, os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))))
        from frontend.tree import kflags
        with TempDir() as tmp:
            other = os.path.join(tmp, "ppc")
            write(os.path.join(other, "modlife-arch"),
                  "--arch=ppc64le -mlittle-endian "
                  "-I@COMMON@/arch/powerpc/include/extra\n")
            base = ["-D__x86_64__", "--arch=x86", "-m64", "-nostdinc",
                    "-I/src/common/arch/x86/include",
                    "-I/src/amd64/arch/x86/include/generated",
                    "-I/src/common/include", "-I/src/amd64/include",
                    "-include", "/src/common/include/linux/kconfig.h",
                    "-D__KERNEL__", "-DMODULE", "-I/tree/drivers/foo"]
            got = kflags.arch_flags(base, "/src/amd64", "powerpc", other)
            self.assertEqual(got, [
                "-nostdinc", "-I/src/common/arch/powerpc/include",
                "-I%s/arch/powerpc/include/generated" % other,
                "-I/src/common/include", "-I%s/include" % other,
                "-include", "/src/common/include/linux/kconfig.h",
                "-D__KERNEL__", "-DMODULE", "-I/tree/drivers/foo",
                "--arch=ppc64le", "-mlittle-endian",
                "-I/src/common/arch/powerpc/include/extra"])
            self.assertIsNone(kflags.arch_flags(base, "/src/amd64", "arm",
                                                os.path.join(tmp, "none")))


class ArchitectureOrderTest(KdirTree, unittest.TestCase):
    def test_the_likeliest_architecture_first(self):
        """A symbol of one architecture outweighs one many define, and
        what the native architecture also defines names none."""
        with TempDir() as tmp:
            root, d = self.same_kernel_tree(tmp)
            write(os.path.join(d, "Kconfig"),
                  "config FOO_A\n\ttristate \"A\"\n"
                  "\tdepends on PPC_FOO && MMU\n")
            write(os.path.join(root, "arch", "powerpc", "Kconfig"),
                  "config PPC_FOO\n\tbool \"foo\"\n"
                  "\tdepends on CPU_BIG_ENDIAN\n"
                  "config CPU_BIG_ENDIAN\n\tbool \"big-endian\"\n"
                  "config MMU\n\tdef_bool y\n")
            for a in ("arm", "mips"):
                write(os.path.join(root, "arch", a, "Kconfig"),
                      "config CPU_BIG_ENDIAN\n\tbool \"big-endian\"\n")
            write(os.path.join(root, "arch", "x86", "Kconfig"),
                  "config MMU\n\tdef_bool y\n")
            mm = self.module_map(root)
            place = mm.resolve(os.path.join(d, "a.c"))
            self.assertEqual(mm.architectures(place, ["x86"]),
                             ["powerpc", "arm", "mips"])

    def test_symbols_architectures_select_and_a_third_step(self):
        """A symbol only architectures' options select (HAVE_ARM_SMCCC)
        names them, unless a user can set it anywhere (WATCHDOG, which
        only arm's options select) or it has a default; a prompt only
        under COMPILE_TEST is no such prompt; what the dependencies'
        dependencies need counts too, less."""
        with TempDir() as tmp:
            root, d = self.same_kernel_tree(tmp)
            write(os.path.join(d, "Kconfig"),
                  "config FOO_A\n\ttristate \"A\"\n"
                  "\tdepends on HAVE_SMC\n"
                  "config FOO_B\n\ttristate \"B\"\n\tdepends on FOO_FW\n"
                  "config FOO_FW\n\ttristate \"fw\"\n"
                  "\tdepends on FOO_SOC\n"
                  "config FOO_SOC\n\tbool\n\tdepends on ARCH_FOO\n"
                  "config HAVE_SMC\n\tbool\n"
                  "config FOO_C\n\ttristate \"C\"\n"
                  "\tdepends on FOO_DOG && FOO_ON && FOO_TIMER\n"
                  "config FOO_DOG\n\tbool \"watchdogs\"\n"
                  "config FOO_ON\n\tbool\n\tdefault y\n"
                  "config FOO_TIMER\n\tbool \"timer\" if COMPILE_TEST\n")
            write(os.path.join(d, "Makefile"),
                  "obj-$(CONFIG_FOO_A) += a.o\n"
                  "obj-$(CONFIG_FOO_B) += b.o\n"
                  "obj-$(CONFIG_FOO_C) += c.o\n")
            write(os.path.join(d, "b.c"), "int b;\n")
            write(os.path.join(root, "arch", "arm64", "Kconfig"),
                  "config ARM64\n\tdef_bool y\n\tselect HAVE_SMC\n"
                  "config ARCH_FOO\n\tbool \"foo SoC\"\n")
            write(os.path.join(root, "arch", "arm", "Kconfig"),
                  "config ARM\n\tdef_bool y\n\tselect HAVE_SMC\n"
                  "\tselect FOO_DOG\n\tselect FOO_ON\n")
            write(os.path.join(root, "arch", "mips", "Kconfig"),
                  "config MIPS\n\tdef_bool y\n\tselect FOO_TIMER\n")
            mm = self.module_map(root)
            for c, want in (("a.c", ["arm", "arm64"]), ("b.c", ["arm64"]),
                            ("c.c", ["mips"])):
                place = mm.resolve(os.path.join(d, c))
                self.assertEqual(mm.architectures(place, ["x86"]), want)
            # x86 selecting it too: the native architecture has it
            write(os.path.join(root, "arch", "x86", "Kconfig"),
                  "config X86\n\tdef_bool y\n\tselect HAVE_SMC\n")
            mm = self.module_map(root)
            place = mm.resolve(os.path.join(d, "a.c"))
            self.assertEqual(mm.architectures(place, ["x86"]), [])


    def test_an_option_no_user_sets_by_its_defaults_and_selects(self):
        """A tristate without a prompt is on where its defaults'
        conditions hold and what it selects exists (imx-pcm-fiq:
        "default y if ... MXC_AVIC", "select FIQ"); one with a prompt
        is not judged by them."""
        with TempDir() as tmp:
            root, d = self.same_kernel_tree(tmp)
            write(os.path.join(d, "Kconfig"),
                  "config FOO_A\n\ttristate\n"
                  "\tdefault y if FOO_B=m && MXC_AVIC\n\tselect FIQ\n"
                  "config FOO_B\n\ttristate \"B\"\n\tselect FIQ\n"
                  "\tdefault y if MXC_AVIC\n")
            write(os.path.join(d, "Makefile"),
                  "obj-$(CONFIG_FOO_A) += a.o\n"
                  "obj-$(CONFIG_FOO_B) += b.o\n")
            write(os.path.join(d, "b.c"), "int b;\n")
            write(os.path.join(root, "arch", "arm", "Kconfig"),
                  "config FIQ\n\tbool\nconfig MXC_AVIC\n\tbool\n")
            mm = self.module_map(root)
            for c, want in (("a.c", ["arm"]), ("b.c", [])):
                place = mm.resolve(os.path.join(d, c))
                self.assertEqual(mm.architectures(place, ["x86"]), want)


    def test_a_file_under_arch_is_that_architectures(self):
        """arm64's crypto drivers depend on KERNEL_MODE_NEON, which arm
        defines too: a file under arch/arm64/ is tried as arm64 alone."""
        with TempDir() as tmp:
            root, _ = self.same_kernel_tree(tmp)
            d = os.path.join(root, "arch", "arm64", "crypto")
            one_module(d, "FOO_NEON", "depends on KERNEL_MODE_NEON && "
                       "ARM_ONLY", "neon")
            write(os.path.join(root, "arch", "arm64", "Kconfig"),
                  'source "arch/arm64/crypto/Kconfig"\n'
                  "config KERNEL_MODE_NEON\n\tdef_bool y\n")
            write(os.path.join(root, "arch", "arm", "Kconfig"),
                  "config KERNEL_MODE_NEON\n\tbool \"neon\"\n"
                  "config ARM_ONLY\n\tbool \"arm\"\n")
            mm = self.module_map(root)
            src = os.path.join(d, "neon.c")
            place = mm.resolve(src)
            self.assertEqual(mm.architectures(place, ["x86"]),
                             ["arm", "arm64"])
            self.assertEqual(mm.architectures(place, ["x86"], src),
                             ["arm64"])
            # native: its own error, not a last try as another
            self.assertEqual(mm.architectures(place, ["arm64"], src), [])

    def test_where_an_option_can_be_on_and_who_sources_its_kconfig(self):
        """SBUS is a bare bool in x86's and arm's Kconfig (never on
        there) and on by default in sparc's: a driver that depends on it
        is sparc's, not the native one's. A Kconfig file only sparc's
        Kconfig sources makes its options sparc's, with no dependency
        saying so."""
        with TempDir() as tmp:
            root, _ = self.same_kernel_tree(tmp)
            write(os.path.join(root, "Kconfig"),
                  'source "drivers/foo/Kconfig"\n'
                  'source "arch/$(SRCARCH)/Kconfig"\n')
            for a, text in (("x86", "config SBUS\n\tbool\n"),
                            ("arm", "config SBUS\n\tbool\n"),
                            ("sparc", "config SBUS\n\tbool\n\tdefault y\n"
                             'source "drivers/sbus/char/Kconfig"\n')):
                write(os.path.join(root, "arch", a, "Kconfig"), text)
            lance = os.path.join(root, "drivers", "lance")
            write(os.path.join(root, "drivers", "foo", "Kconfig"),
                  'source "drivers/lance/Kconfig"\n')
            one_module(lance, "LANCE", "depends on SBUS", "lance")
            prom = os.path.join(root, "drivers", "sbus", "char")
            one_module(prom, "PROM", "help", "prom")
            mm = self.module_map(root)
            for d, name in ((lance, "lance"), (prom, "prom")):
                f = os.path.join(d, name + ".c")
                self.assertEqual(mm.architectures(mm.resolve(f), ["x86"], f),
                                 ["sparc"], name)

    def test_an_option_only_a_32_bit_kernel_has(self):
        """APM depends on X86_32 ("depends on !64BIT"), sun4m's LED on
        SPARC32 ("def_bool !64BIT"): such a file is tried as the 32-bit
        kernel of its architecture (i386, sparc32), in place of the
        64-bit one; X86_64 ("depends on 64BIT") and a symbol whose
        condition does not hold either way ask for nothing."""
        with TempDir() as tmp:
            root, _ = self.same_kernel_tree(tmp)
            write(os.path.join(root, "Kconfig"),
                  'source "drivers/foo/Kconfig"\n'
                  'source "arch/$(SRCARCH)/Kconfig"\n')
            write(os.path.join(root, "arch", "x86", "Kconfig"),
                  'config 64BIT\n\tbool "64-bit kernel"\n'
                  'config X86_32\n\tdef_bool y\n\tdepends on !64BIT\n'
                  'config X86_64\n\tdef_bool y\n\tdepends on 64BIT\n'
                  'config X86_NEVER\n\tdef_bool y\n'
                  '\tdepends on !64BIT && 64BIT\n'
                  'source "arch/x86/apm/Kconfig"\n')
            write(os.path.join(root, "arch", "sparc", "Kconfig"),
                  'config 64BIT\n\tbool "64-bit kernel"\n'
                  'config SPARC32\n\tdef_bool !64BIT\n')
            d = os.path.join(root, "arch", "x86", "apm")
            one_module(d, "APM", "depends on X86_32", "apm")
            drv = os.path.join(root, "drivers", "led")
            write(os.path.join(root, "drivers", "foo", "Kconfig"),
                  'source "drivers/led/Kconfig"\n')
            one_module(drv, "LED", "depends on SPARC32", "led")
            for opt, line, name in (("X64", "depends on X86_64", "x64"),
                                    ("NEVER", "depends on X86_NEVER",
                                     "never")):
                one_module(os.path.join(root, "drivers", name), opt, line,
                           name)
            mm = self.module_map(root)
            src = os.path.join(d, "apm.c")
            place = mm.resolve(src)
            self.assertEqual(mm.architectures(place, ["x86"], src), ["i386"])
            led = os.path.join(drv, "led.c")
            self.assertEqual(mm.architectures(mm.resolve(led), ["x86"], led),
                             ["sparc32"])
            for name in ("x64", "never"):
                f = os.path.join(root, "drivers", name, name + ".c")
                self.assertEqual(mm.architectures(mm.resolve(f), ["x86"], f),
                                 [], name)

    def test_an_architectures_own_types_and_selects(self):
        """KVM is bool in arch/arm64's Kconfig, tristate in x86's: arm64's
        kvm/ is never a module. A file under arch/riscv/ parses with
        riscv's own symbols it depends on, what riscv's KVM selects (not
        x86's), and what that selects in turn when unconditionally."""
        with TempDir() as tmp:
            root, _ = self.same_kernel_tree(tmp)
            write(os.path.join(root, "arch", "x86", "Kconfig"),
                  "config KVM\n\ttristate \"kvm\"\n"
                  "\tselect KVM_X86_ONLY\n")
            write(os.path.join(root, "arch", "riscv", "Kconfig"),
                  "config KVM\n\ttristate \"kvm\"\n"
                  "\tdepends on RISCV_SBI\n"
                  "\tselect KVM_MMU_NOTIFIER\n"
                  "config RISCV_SBI\n\tbool \"sbi\"\n")
            write(os.path.join(root, "virt", "Kconfig"),
                  "config KVM_MMU_NOTIFIER\n\tbool\n"
                  "\tselect MMU_NOTIFIER\n\tselect KVM_IF if KVM_X86_ONLY\n"
                  "config MMU_NOTIFIER\n\tbool\n"
                  "config KVM_IF\n\tbool\n"
                  "config KVM_X86_ONLY\n\tbool\n")
            # every architecture reads arch/Kconfig; a driver that may
            # depend on arm64 does not get what ARM64 selects
            write(os.path.join(root, "arch", "Kconfig"),
                  "config KPROBES\n\tbool \"kprobes\"\n"
                  "\tselect KALLSYMS\n"
                  "config KALLSYMS\n\tbool\n")
            write(os.path.join(root, "arch", "arm64", "Kconfig"),
                  "config KVM\n\tbool \"kvm\"\n"
                  "config ARM64\n\tdef_bool y\n\tselect ARM_GIC\n")
            write(os.path.join(root, "lib", "Kconfig"),
                  "config ARM_GIC\n\tbool\n")
            write(os.path.join(root, "arch", "riscv", "Kconfig.debug"),
                  "config RISCV_PROBE\n\ttristate \"probe\"\n"
                  "\tselect KPROBES\n")
            dd = os.path.join(root, "drivers", "gic")
            one_module(dd, "GIC_DRV", "depends on ARM64 || COMPILE_TEST",
                       "gic")
            write(os.path.join(root, "arch", "riscv", "debug", "Makefile"),
                  "obj-$(CONFIG_RISCV_PROBE) += probe.o\n")
            write(os.path.join(root, "arch", "riscv", "debug", "probe.c"),
                  "int p;\n")
            for a in ("arm64", "riscv", "x86"):
                d = os.path.join(root, "arch", a, "kvm")
                write(os.path.join(d, "Makefile"),
                      "obj-$(CONFIG_KVM) += kvm.o\n")
                write(os.path.join(d, "kvm.c"), "int k;\n")
            mm = self.module_map(root)
            got = {}
            for a in ("arm64", "riscv", "x86"):
                p = mm.resolve(os.path.join(root, "arch", a, "kvm", "kvm.c"))
                got[a] = (p.module, p.reason)
            self.assertEqual(got, {"arm64": (False, "bool-only"),
                                   "riscv": (True, None),
                                   "x86": (True, None)})
            src = os.path.join(root, "arch", "riscv", "kvm", "kvm.c")
            place = mm.resolve(src)
            self.assertEqual(mm.dependencies(place, src, ["x86"]), [
                ("CONFIG_KVM_MMU_NOTIFIER", "y"),
                ("CONFIG_MMU_NOTIFIER", "y"), ("CONFIG_RISCV_SBI", "y")])
            # the second try, without riscv's own symbols
            self.assertEqual(mm.dependencies(place, src, ["x86"], False), [
                ("CONFIG_KVM_MMU_NOTIFIER", "y"),
                ("CONFIG_MMU_NOTIFIER", "y")])
            # the native architecture's own symbols stay KDIR's
            self.assertEqual(mm.dependencies(place, src, ["riscv"]), [
                ("CONFIG_KVM_MMU_NOTIFIER", "y")])
            gic = os.path.join(dd, "gic.c")
            self.assertNotIn(("CONFIG_ARM_GIC", "y"), mm.dependencies(
                mm.resolve(gic), gic, ["x86"]))
            probe = os.path.join(root, "arch", "riscv", "debug", "probe.c")
            self.assertEqual(mm.dependencies(
                mm.resolve(probe), probe, ["x86"]), [
                    ("CONFIG_KALLSYMS", "y"), ("CONFIG_KPROBES", "y")])
            # the architecture is not known: every definition's selects,
            # no architecture's own symbols, and what KDIR's .config sets
            # (MMU_NOTIFIER=y) is left to it
            self.assertEqual(mm.dependencies(place), [
                ("CONFIG_KVM_MMU_NOTIFIER", "y"),
                ("CONFIG_KVM_X86_ONLY", "y")])


if __name__ == "__main__":
    unittest.main()
