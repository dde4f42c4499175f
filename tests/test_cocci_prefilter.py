# SPDX-License-Identifier: GPL-2.0-only
"""The // Prefilter lines of the semantic patches: token groups and regex
chains. A prefilter may admit too much, never too little: every file a
script can report must get through."""
import os
import sys
import unittest

from util import ROOT, TempDir, write

sys.path.insert(0, ROOT)
from frontend.scanning import cocci_run  # noqa: E402

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


if __name__ == "__main__":
    unittest.main()
