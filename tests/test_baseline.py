# SPDX-License-Identifier: GPL-2.0-only
"""--write-baseline/--baseline survive line shifts; --diff-base reports
only findings on lines a git change touched."""
import os
import subprocess
import unittest

from util import TempDir, copy_module, scan

NEW_FOPS = """
static const struct file_operations mchar_spare_fops = {
	.read = mchar_read,
};

const struct file_operations *mchar_spare(void)
{
	return &mchar_spare_fops;
}
"""


def lines(result):
    return ["%s:%d" % (os.path.basename(f["file"]), f["line"])
            for f in result["findings"]]


class BaselineTest(unittest.TestCase):
    def test_baseline_survives_shift_and_reports_new(self):
        with TempDir() as tmp:
            d = copy_module("misc-char-bug", tmp)
            base = os.path.join(tmp, "baseline.json")
            rc, result, _ = scan([d], "--write-baseline", base)
            self.assertEqual(lines(result), ["mchar.c:73"])
            rc, result, _ = scan([d], "--baseline", base)
            self.assertEqual((rc, result["findings"]), (0, []))
            src = os.path.join(d, "mchar.c")
            with open(src) as f:
                text = f.read()
            with open(src, "w") as f:
                f.write("/* moved */\n/* down */\n" + text + NEW_FOPS)
            rc, result, _ = scan([d], "--baseline", base)
            self.assertEqual(rc, 1)
            self.assertEqual(lines(result), ["mchar.c:%d" % (
                text.count("\n") + 4)])

    def test_bad_baseline(self):
        with TempDir() as tmp:
            d = copy_module("misc-char-bug", tmp)
            bad = os.path.join(tmp, "b.json")
            with open(bad, "w") as f:
                f.write("[]")
            rc, result, err = scan([d], "--baseline", bad)
            self.assertEqual(rc, 2)
            self.assertIn("baseline", err)

    def test_diff_base(self):
        with TempDir() as tmp:
            d = copy_module("misc-char-bug", tmp)
            git = ["git", "-C", d, "-c", "user.name=t", "-c",
                   "user.email=t@example.org"]
            subprocess.run(git + ["init", "-q"], check=True)
            subprocess.run(git + ["add", "."], check=True)
            subprocess.run(git + ["commit", "-qm", "base"], check=True)
            rc, result, _ = scan([d], "--diff-base", "HEAD")
            self.assertEqual((rc, result["findings"]), (0, []))
            src = os.path.join(d, "mchar.c")
            with open(src) as f:
                n = f.read().count("\n")
            with open(src, "a") as f:
                f.write(NEW_FOPS)
            rc, result, _ = scan([d], "--diff-base", "HEAD")
            self.assertEqual(rc, 1)
            self.assertEqual(lines(result), ["mchar.c:%d" % (n + 2)])
            rc, result, err = scan([d], "--diff-base", "no-such-rev")
            self.assertEqual(rc, 2)


if __name__ == "__main__":
    unittest.main()
