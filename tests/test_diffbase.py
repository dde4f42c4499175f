# SPDX-License-Identifier: GPL-2.0-only
"""scan --diff-base REV checks the modules a git change touches, at REV
and now, and reports the findings that are new anywhere in them; the
ones the change took away are listed as fixed."""
import json
import os
import shutil
import unittest

from util import cold, CORPUS, MODLIFE, TempDir, edit, git, run

HM_C = """// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include "hm.h"

static ssize_t hm_read(struct file *f, char __user *b, size_t n, loff_t *p)
{
	return 0;
}

static const struct file_operations hm_fops = {
	HM_OWNER
	.read = hm_read,
};

static struct miscdevice hm_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "hm",
	.fops = &hm_fops,
};

static int __init hm_init(void)
{
	return misc_register(&hm_dev);
}

static void __exit hm_exit(void)
{
	misc_deregister(&hm_dev);
}

module_init(hm_init);
module_exit(hm_exit);
MODULE_LICENSE("GPL");
"""


def repo(tmp, *modules):
    """A git repository of corpus modules, one directory each, plus a
    two-file module whose fops take their owner from a local header."""
    r = os.path.join(tmp, "tree")
    os.makedirs(r)
    for m in modules:
        shutil.copytree(os.path.join(CORPUS, m), os.path.join(r, m))
    hm = os.path.join(r, "hm")
    os.makedirs(hm)
    with open(os.path.join(hm, "hm.c"), "w") as f:
        f.write(HM_C)
    with open(os.path.join(hm, "hm.h"), "w") as f:
        f.write("#define HM_OWNER .owner = THIS_MODULE,\n")
    with open(os.path.join(hm, "Makefile"), "w") as f:
        f.write("obj-m += hm.o\n")
    git(r, "init", "-q")
    git(r, "add", "-A")
    git(r, "commit", "-q", "-m", "base")
    return r


def scan(r, *extra, rev="HEAD"):
    res = run([MODLIFE, "scan", *cold(), "--format", "json",
               "--stats"] + list(extra) + ["--diff-base", rev, "."], cwd=r)
    data = json.loads(res.stdout) if res.stdout else None
    return res.returncode, data, res.stderr


def where(findings):
    return ["%s:%d:%s" % (f["file"], f["line"], f["rule"]) for f in findings]


class DiffBaseTest(unittest.TestCase):
    def test_owner_deleted_reports_the_table_line(self):
        with TempDir() as tmp:
            r = repo(tmp, "misc-char-fixed", "misc-char-bug")
            rc, data, err = scan(r)
            self.assertEqual((rc, data["findings"], data["fixed"]),
                             (0, [], []), err)
            self.assertIn("0 files, 0 checked", err)
            # line 74 goes; the finding is on line 73, which did not change
            edit(os.path.join(r, "misc-char-fixed", "mchar.c"),
                 "\t.owner\t\t= THIS_MODULE,\n", "")
            rc, data, err = scan(r)
            self.assertEqual(rc, 1, err)
            self.assertEqual(where(data["findings"]),
                             ["misc-char-fixed/mchar.c:73:missing-owner"])
            self.assertEqual(data["findings"][0]["baseline"], "new")
            # misc-char-bug's own finding is not the change's: not checked
            self.assertIn("1 files, 1 checked", err)

    def test_timer_stop_removed_from_exit(self):
        with TempDir() as tmp:
            r = repo(tmp, "timer-fixed")
            edit(os.path.join(r, "timer-fixed", "tickmon.c"),
                 "\tdel_timer_sync(&tickmon.timer);\n", "")
            rc, data, err = scan(r, "--rules", "exit-pending-timer")
            self.assertEqual(rc, 1, err)
            self.assertEqual(where(data["findings"]),
                             ["timer-fixed/tickmon.c:40:exit-pending-timer"])

    def test_change_elsewhere_in_a_module_with_findings_passes(self):
        with TempDir() as tmp:
            r = repo(tmp, "misc-char-bug")
            src = os.path.join(r, "misc-char-bug", "mchar.c")
            edit(src, "#include", "/* a comment */\n#include")
            rc, data, err = scan(r)
            # the module was checked: its finding moved a line, not new
            self.assertIn("1 files, 1 checked", err)
            self.assertEqual((rc, data["findings"], data["fixed"]),
                             (0, [], []), err)

    def test_fixed_findings_are_listed(self):
        with TempDir() as tmp:
            r = repo(tmp, "misc-char-bug")
            edit(os.path.join(r, "misc-char-bug", "mchar.c"),
                 "static const struct file_operations mchar_fops = {\n",
                 "static const struct file_operations mchar_fops = {\n"
                 "\t.owner = THIS_MODULE,\n")
            git(r, "add", "-A")     # staged counts as well as unstaged
            rc, data, err = scan(r)
            self.assertEqual((rc, data["findings"]), (0, []), err)
            self.assertEqual(where(data["fixed"]),
                             ["misc-char-bug/mchar.c:73:missing-owner"])
            res = run([MODLIFE, "scan", *cold(), "--diff-base", "HEAD",
                       "."], cwd=r)
            self.assertEqual(res.stdout.split(": note: fixed: ")[0],
                             "misc-char-bug/mchar.c:73:37")

    def test_local_header_change_checks_its_includers_at_rev(self):
        with TempDir() as tmp:
            r = repo(tmp, "misc-char-fixed")
            with open(os.path.join(r, "hm", "hm.h"), "w") as f:
                f.write("#define HM_OWNER\n")
            rc, data, err = scan(r)
            self.assertEqual(rc, 1, err)
            # hm.c did not change; at REV its header set the owner
            self.assertEqual(where(data["findings"]),
                             ["hm/hm.c:12:missing-owner"])

    def test_new_file_and_deleted_file(self):
        with TempDir() as tmp:
            r = repo(tmp, "misc-char-fixed")
            os.unlink(os.path.join(r, "hm", "hm.c"))
            shutil.copytree(os.path.join(CORPUS, "misc-char-bug"),
                            os.path.join(r, "added"))
            rc, data, err = scan(r)
            self.assertEqual(rc, 1, err)
            self.assertEqual(where(data["findings"]),
                             ["added/mchar.c:73:missing-owner"])

    def test_a_revision_that_does_not_parse_is_named(self):
        with TempDir() as tmp:
            r = repo(tmp, "misc-char-bug")
            src = os.path.join(r, "misc-char-bug", "mchar.c")
            with open(src) as f:
                good = f.read()
            with open(src, "a") as f:
                f.write("int broken( {\n")
            git(r, "commit", "-q", "-am", "broken")
            with open(src, "w") as f:
                f.write(good)
            rc, data, err = scan(r)
            # the semantic patches checked REV's text (sparse could not):
            # its finding is the same; the report says REV did not parse
            self.assertEqual((rc, data["findings"]), (0, []), err)
            (e,) = data["errors"]
            self.assertEqual(e["file"], "misc-char-bug/mchar.c")
            self.assertTrue(e["message"].startswith("at HEAD: "), e)

    def test_bad_revision_and_no_repository(self):
        with TempDir() as tmp:
            r = repo(tmp)
            rc, data, err = scan(r, rev="no-such")
            self.assertEqual(rc, 2)
            self.assertIn("no-such is not a commit", err)
            plain = os.path.join(tmp, "plain")
            shutil.copytree(os.path.join(CORPUS, "misc-char-bug"), plain)
            res = run([MODLIFE, "scan", "--diff-base", "HEAD", plain],
                      cwd=tmp, env=dict(os.environ,
                                        GIT_CEILING_DIRECTORIES=tmp))
            self.assertEqual(res.returncode, 2)
            self.assertIn("is not in a git work tree", res.stderr)


if __name__ == "__main__":
    unittest.main()
