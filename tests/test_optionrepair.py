# SPDX-License-Identifier: GPL-2.0-only
"""A file whose parse fails on a name that a header defines only under
an option (or on an #error that asks for one) is parsed again with the
option on: some configuration builds it."""
import os
import sys
import unittest

from test_modules import fake_tree, prepend
from util import TempDir, scan, write

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
from frontend.tree import optionrepair  # noqa: E402

BOARD_H = """\
#ifndef BOARD_H
#define BOARD_H
#if defined(CONFIG_BOARD_A) || defined(CONFIG_BOARD_B)
#define BOARD_REG 0x10
#elif defined(CONFIG_BOARD_C)
#define BOARD_REG 0x20
#else
#define BOARD_OTHER 1
#endif
#ifndef CONFIG_NOT_THIS
#define NEGATED 1
#endif
struct map {
	int size;
#ifdef CONFIG_COMPLEX
	int (*read)(struct map *m);	/* not a member: width */
	int (*xlate)(struct map *m,
		     const void *spec, unsigned int *flags);
#endif
};
#ifdef CONFIG_OLPC
static inline int board_at_least(unsigned int rev)
{
	return inner_call(rev) > 0;
}
extern int board_revs[4];
/* a comment's words (comment_word(x)) define nothing
#define IN_COMMENT 1 */
#define BODY(x) { \
	body_call(x); \
}
int after_body(void);
#endif
#ifdef CONFIG_PPC_DCR
typedef struct { unsigned int base; } dcr_native_t;
typedef dcr_native_t dcr_host_t;
typedef void (*dcr_fn_t)(int);
typedef struct dcr_pair {
	int a, b;
} dcr_pair_t;
#endif
#endif
"""

SOC_C = """\
#if defined(CONFIG_SOC_X) && defined(CONFIG_SOC_FAST)
#include "x.h"
#elif defined(CONFIG_SOC_Y)
#include "y.h"
#else
#error no SoC chosen
#endif
"""


class OptionsForTest(unittest.TestCase):
    def test_options_of_the_block_around_the_definition(self):
        with TempDir() as tmp:
            inc = os.path.join(tmp, "inc")
            write(os.path.join(inc, "board.h"), BOARD_H)
            src = os.path.join(tmp, "drv", "a.c")
            write(src, '#include <board.h>\nint x = BOARD_REG;\n')
            soc = os.path.join(tmp, "drv", "soc.c")
            write(soc, SOC_C)
            flags = ["-I" + inc]

            def known(sym):
                return sym != "CONFIG_UNKNOWN"

            def options(err, path=src):
                return optionrepair.options_for(err, path, flags, known)
            # the first definition, the first option of an "||"
            self.assertEqual(options(
                "2:9: error: undefined identifier 'BOARD_REG'"),
                ["CONFIG_BOARD_A"])
            self.assertEqual(options(
                "2:9: error: undefined identifier 'BOARD_REG' (as sh)"),
                ["CONFIG_BOARD_A"])
            # one declared over two lines too (gpio_chip's of_xlate)
            for member in ("read", "xlate"):
                self.assertEqual(options(
                    "5:3: error: no member '%s' in struct map" % member),
                    ["CONFIG_COMPLEX"], member)
            # a function (defined or declared), an extern variable
            for name in ("board_at_least", "board_revs", "after_body"):
                self.assertEqual(options(
                    "2:9: error: undefined identifier '%s'" % name),
                    ["CONFIG_OLPC"], name)
            # a type: sparse's error is at the declarator after it (the
            # column counts a tab to the next multiple of 8)
            decl = os.path.join(tmp, "drv", "decl.h")
            write(decl, "struct mal {\n\tdcr_host_t\t\tdcr_host;\n"
                  "\tdcr_fn_t __iomem *fn;\n\tdcr_pair_t p;\n"
                  "\tunknown_t u;\n};\n")
            for line, col in ((2, 25), (3, 27), (4, 20)):
                self.assertEqual(options(
                    "%s:%d:%d: error: expected ; at end of declaration"
                    % (decl, line, col)), ["CONFIG_PPC_DCR"], line)
            self.assertEqual(options(
                "%s:5:19: error: expected ; at end of declaration" % decl),
                [])
            # an #error in a later branch: the first branch's options
            self.assertEqual(options("6:2: error: no SoC chosen", soc),
                             ["CONFIG_SOC_FAST", "CONFIG_SOC_X"])
            # nothing to turn on: a definition in an #else branch, under
            # a negated option, no definition, an unknown option, a
            # header that is not where the parse looks
            for err in ("1:1: error: undefined identifier 'BOARD_OTHER'",
                        "1:1: error: undefined identifier 'NEGATED'",
                        "1:1: error: undefined identifier 'NOWHERE'",
                        "1:1: error: no member 'size' in struct map",
                        "1:1: error: no member 'width' in struct map",
                        "1:1: error: undefined identifier 'inner_call'",
                        "1:1: error: undefined identifier 'body_call'",
                        "1:1: error: undefined identifier 'comment_word'",
                        "1:1: error: undefined identifier 'IN_COMMENT'",
                        "1:1: error: unable to open 'x.h'"):
                self.assertEqual(options(err), [], err)
            self.assertEqual(optionrepair.options_for(
                "2:9: error: undefined identifier 'BOARD_REG'", src, [],
                known), [])
            self.assertEqual(optionrepair.options_for(
                "2:9: error: undefined identifier 'BOARD_REG'", src, flags,
                lambda s: s != "CONFIG_BOARD_A"), ["CONFIG_BOARD_C"])
            # a directory the scan does not allow is not read
            self.assertEqual(optionrepair.options_for(
                "2:9: error: undefined identifier 'BOARD_REG'", src, flags,
                known, lambda d: d != inc), [])


class ScanTest(unittest.TestCase):
    def test_a_board_register_parses_with_its_board_on(self):
        with TempDir() as tmp:
            d = fake_tree(tmp)
            write(os.path.join(d, "board.h"),
                  "#ifdef CONFIG_FOO_BOARD\n#define FOO_REG 4\n#endif\n")
            with open(os.path.join(d, "Kconfig"), "a") as f:
                f.write('\nconfig FOO_BOARD\n\tbool "the board"\n')
            a = os.path.join(d, "a.c")
            prepend(a, '#include "board.h"\nstatic int foo_reg = FOO_REG;\n')
            rc, result, err = scan([a])
            self.assertEqual(result["errors"], [], err)
            self.assertTrue(result["findings"], err)
            # a header directory outside the tree that a Makefile names
            # (it might be "/") is not looked through
            outside = os.path.join(tmp, "outside")
            write(os.path.join(outside, "board.h"),
                  "#ifdef CONFIG_FOO_BOARD\n#define FOO_REG 4\n#endif\n")
            os.unlink(os.path.join(d, "board.h"))
            with open(os.path.join(d, "Makefile"), "a") as f:
                f.write("ccflags-y += -I%s\n" % outside)
            rc, result, err = scan([a])
            self.assertEqual([e["message"] for e in result["errors"]],
                             ["2:22: error: undefined identifier "
                              "'FOO_REG'"], err)
            os.rename(os.path.join(outside, "board.h"),
                      os.path.join(d, "board.h"))
            rc, result, err = scan([a])
            self.assertEqual(result["errors"], [], err)
            # an option no Kconfig file defines is not turned on
            write(os.path.join(d, "board.h"),
                  "#ifdef CONFIG_FOO_NOWHERE\n#define FOO_REG 4\n#endif\n")
            rc, result, err = scan([a])
            self.assertEqual([e["message"] for e in result["errors"]],
                             ["2:22: error: undefined identifier "
                              "'FOO_REG'"], err)


if __name__ == "__main__":
    unittest.main()
