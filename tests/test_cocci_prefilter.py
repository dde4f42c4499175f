# SPDX-License-Identifier: GPL-2.0-only
"""The // Prefilter lines of the semantic patches: token groups and regex
chains. A prefilter may admit too much, never too little: every file a
script can report must get through."""
import os
import re
import sys
import unittest

from util import ROOT, TempDir, write

sys.path.insert(0, ROOT)
from frontend.scanning import cocci_run  # noqa: E402
from frontend.scanning.atomic_re import portable  # noqa: E402

COCCI = os.path.join(ROOT, "cocci")


def admits(script, text):
    want = cocci_run.prefilter(os.path.join(COCCI, script))
    return want.admits(text.encode())


EXIT = "module_exit(foo_exit);\n"


class ChainTest(unittest.TestCase):
    def script(self, tmp, *lines):
        p = os.path.join(tmp, "x.cocci")
        write(p, "".join(ln + "\n" for ln in lines) + "virtual report\n")
        return p

    def test_captured_name_feeds_next_step(self):
        with TempDir() as tmp:
            want = cocci_run.prefilter(self.script(
                tmp, "// Prefilter: module_exit",
                r"// Prefilter-re: void (?P<f>\w+)\(void\) \{\}",
                r"// Prefilter-and: = @f@;"))
            self.assertTrue(want.admits(
                EXIT.encode() + b"void a(void) {}\nvoid b(void) {}\n"
                b"p = b;\n"))
            # an empty function, but not the one installed
            self.assertFalse(want.admits(
                EXIT.encode() + b"void a(void) {}\np = c;\n"))
            # the tokens still rule
            self.assertFalse(want.admits(b"void a(void) {}\np = a;\n"))

    def test_any_chain_admits(self):
        with TempDir() as tmp:
            want = cocci_run.prefilter(self.script(
                tmp, "// Prefilter-re: alpha", "// Prefilter-and: beta",
                "// Prefilter-re: gamma"))
            self.assertTrue(want.admits(b"beta alpha"))
            self.assertTrue(want.admits(b"gamma"))
            self.assertFalse(want.admits(b"alpha"))

    def test_same_regex_as_last_and_middle_step(self):
        """One regex ends a chain and starts another: the answers of the
        two uses must not be confused."""
        with TempDir() as tmp:
            want = cocci_run.prefilter(self.script(
                tmp, r"// Prefilter-re: x", r"// Prefilter-and: \b(?P<n>y\w)",
                r"// Prefilter-re: \b(?P<n>y\w)", r"// Prefilter-and: z@n@"))
            self.assertTrue(want.admits(b"x ya"))
            self.assertTrue(want.admits(b"yb zyb"))
            self.assertFalse(want.admits(b"yb zya"))
            # the first chain's last step fails, then the second starts
            # with the same regex
            self.assertFalse(want.admits(b"x z"))

    def test_bad_lines_name_the_script_line(self):
        with TempDir() as tmp:
            p = self.script(tmp, "// Prefilter: a", "// Prefilter-re: (")
            with self.assertRaisesRegex(ValueError, r"x\.cocci:2: bad"):
                cocci_run.prefilter(p)
            p = self.script(tmp, "// Prefilter-and: b")
            with self.assertRaisesRegex(ValueError, "without"):
                cocci_run.prefilter(p)

    def test_bad_script_stops_modlife_cocci_cleanly(self):
        with TempDir() as tmp:
            p = self.script(tmp, "// Prefilter-re: [")
            with self.assertRaises(ValueError):
                cocci_run.candidates([p], [], [])


class ScriptPrefilterTest(unittest.TestCase):
    """Shapes the real scripts report, written in ways a careless regex
    would miss."""

    def test_empty_release_with_awkward_comment(self):
        src = EXIT + """
static void foo_release(struct device *dev)
{
	/* don't free: '}' is static */
	struct foo *f = container_of(dev, struct foo, dev);
	dev_dbg(dev, "release {%p}\\n", f);
}
static int foo_init(void) { foo.dev.release = foo_release; return 0; }
"""
        self.assertTrue(admits("empty_release.cocci", src))
        # a release that frees is no candidate
        self.assertFalse(admits("empty_release.cocci", src.replace(
            "dev_dbg(dev,", "kfree(f); dev_dbg(dev,")))
        # nor an empty function installed elsewhere than .release
        self.assertFalse(admits("empty_release.cocci", src.replace(
            ".release =", ".probe =")))

    def test_missing_owner_commented_out(self):
        src = EXIT + """
static const struct file_operations foo_fops = {
	/* .owner = THIS_MODULE, */
	.open = foo_open,
};
int x(void) { return misc(&foo_fops); }
"""
        self.assertTrue(admits("missing_owner.cocci", src))
        self.assertFalse(admits("missing_owner.cocci", src.replace(
            "/* .owner = THIS_MODULE, */", ".owner = THIS_MODULE,")))
        # address never taken in the file
        self.assertFalse(admits("missing_owner.cocci", src.replace(
            "&foo_fops", "foo_fops")))

    def test_unregister_wait_put_and_wait_in_one_function(self):
        src = EXIT + """
static void __exit foo_exit(void)
{
	wait_for_completion(&done);
	bar_unregister(&foo);
}
"""
        # a loop could run the wait after the put: either order counts
        self.assertTrue(admits("unregister_wait_in_exit.cocci", src))
        # wait and put in two functions
        self.assertFalse(admits("unregister_wait_in_exit.cocci", src.replace(
            "\tbar_unregister(&foo);\n",
            "}\nvoid y(void)\n{\n\tbar_unregister(&foo);\n")))

    def test_static_object_member_registration(self):
        src = EXIT + """
static struct foo_priv foo __refdata = { .name = "foo" };
static int __init foo_init(void) { return device_register(&foo.dev); }
"""
        self.assertTrue(admits("static_object.cocci", src))
        self.assertFalse(admits("static_object.cocci", src.replace(
            "&foo.dev", "&p->dev")))


class PortableTest(unittest.TestCase):
    """Possessive quantifiers and atomic groups as lookaheads: the same
    matches on every Python 3.11 (3.11.2, Debian 12's, gets some of the
    native forms wrong)."""

    def test_rewritten_forms(self):
        self.assertEqual(portable(r"a*+b"), r"(?=(?P<_a1>a*))(?P=_a1)b")
        self.assertEqual(portable(r"(?>x|y)z"),
                         r"(?=(?P<_a1>x|y))(?P=_a1)z")
        # inner ones first; classes, escapes and plain '+' left alone
        self.assertEqual(portable(r"(?:[^*]++|\*(?!/))*+\*/"),
                         r"(?=(?P<_a2>(?:(?=(?P<_a1>[^*]+))(?P=_a1)|"
                         r"\*(?!/))*))(?P=_a2)\*/")
        self.assertEqual(portable(r"[]*+]++\*+"),
                         r"(?=(?P<_a1>[]*+]+))(?P=_a1)\*+")
        self.assertEqual(portable(r"(?P<i>\w+)\s{1,3}+x{2}a{x}+"),
                         r"(?P<i>\w+)(?=(?P<_a1>\s{1,3}))(?P=_a1)x{2}a{x}+")

    def test_a_comment_scan_that_3_11_2_misses(self):
        pat = portable(r"(?:[^*]++|\*(?!/))*+\*/")
        self.assertEqual(re.search(pat, "ab */").group(0), "ab */")

    def test_nothing_given_back(self):
        self.assertIsNone(re.search(portable("^a*+a"), "aaa"))
        self.assertIsNone(re.search(portable("^(?>a|ab)c"), "abc"))
        self.assertIsNotNone(re.search(portable("^(?>ab|a)c"), "abc"))

    def test_captures_are_the_scripts_own(self):
        with TempDir() as tmp:
            p = os.path.join(tmp, "x.cocci")
            write(p, "// Prefilter: module_exit\n"
                  r"// Prefilter-re: void (?P<f>\w++)\(void\)*+ \{\}"
                  "\n// Prefilter-and: = @f@;\nvirtual report\n")
            want = cocci_run.prefilter(p)
            text = EXIT + "void a(void) {}\nvoid b(void) {}\np = b;\n"
            seen = {"budget": 100}
            caps = cocci_run._matches(text, want.chains[0][0], seen)
            self.assertEqual(caps, [{"f": "a"}, {"f": "b"}])
            self.assertTrue(want.admits(text.encode()))
            self.assertFalse(want.admits(text.replace("p = b", "p = c")
                                         .encode()))


if __name__ == "__main__":
    unittest.main()
