# SPDX-License-Identifier: GPL-2.0-only
"""What the findings say: the reader a missing-owner message cites is the
one on the object's own path, the advice fits the object, and the
semantic patches say what the checker says (for every corpus line both
engines report, the same words, coccicheck's "WARNING: " aside; their
copies of kb/ tables are the tables)."""
import ast
import os
import re
import unittest

from util import CORPUS, MODLIFE, ROOT, TempDir, run, scan, write

REPORT = re.compile(r"^(.*?):(\d+):\d+-\d+: WARNING: (.*)$")


def kb_rows(name):
    with open(os.path.join(ROOT, "kb", name)) as f:
        return [tuple(ln.rstrip("\n").split("\t")) for ln in f
                if ln.strip() and not ln.startswith("#")]


def cocci_table(script, name):
    """The list literal after "# kb-table: NAME" in a semantic patch."""
    with open(os.path.join(ROOT, "cocci", script)) as f:
        text = f.read()
    m = re.search(r"# kb-table: %s\n\w+ = (\[.*?\n\])" % re.escape(name),
                  text, re.S)
    return ast.literal_eval(m.group(1)) if m else None


class SameWordsTest(unittest.TestCase):
    def test_both_engines_say_the_same_on_the_corpus(self):
        res = run([MODLIFE, "cocci", "--jobs", "2", "."], cwd=CORPUS)
        self.assertEqual(res.returncode, 0, res.stderr)
        cocci = {}
        for ln in res.stdout.splitlines():
            m = REPORT.match(ln)
            if m:
                cocci[(m.group(1), int(m.group(2)))] = m.group(3)
        rc, result, err = scan(["."], "--cocci", "off", cwd=CORPUS)
        self.assertIsNotNone(result, err)
        sparse = {(f["file"], f["line"]): f for f in result["findings"]}
        rules = set()
        for key, words in sorted(cocci.items()):
            if key in sparse:
                self.assertEqual(words, sparse[key]["message"],
                                 "%s:%d" % key)
                rules.add(sparse[key]["rule"])
        self.assertEqual(rules, {"missing-owner", "cdev-owner",
                                 "empty-release", "static-object",
                                 "exit-no-rcu-barrier",
                                 "unregister-wait-in-exit"})


def messages(*modules):
    rc, result, err = scan([os.path.join(CORPUS, m) for m in modules],
                           "--cocci", "off")
    assert result is not None, err
    return {"%s:%d" % (os.path.basename(f["file"]), f["line"]):
            f["message"] for f in result["findings"]}


class ReaderOnOwnPathTest(unittest.TestCase):
    def test_each_table_names_the_reader_of_its_way_in(self):
        got = messages("debugfs-fops-bug", "misc-char-bug", "cdev-bug",
                       "blk-bug", "crypto-alg-bug")
        want = {"dbgstat.c:56": "full_proxy_open() in fs/debugfs/file.c",
                "mchar.c:73": "misc_open() in drivers/char/misc.c",
                "scratch.c:59": "chrdev_open() in fs/char_dev.c",
                "tinyram.c:65": "blkdev_get_by_dev() in block/bdev.c",
                # one reader in the knowledge file, no way in needed
                "xorblk.c:41": "crypto_mod_get() in crypto/api.c"}
        for where, reader in want.items():
            self.assertIn(": %s reads it to pin the module" % reader,
                          got[where], where)
        self.assertIn("without .cra_module = THIS_MODULE", got["xorblk.c:41"])


    def test_the_owner_path_named_exists(self):
        """A table embedded in a wrapper (b43's debugfs files) has its
        owner at .fops.owner, and the embedded table handed to the core
        by itself (&x.fops, at offset 0) is exposed without it."""
        with TempDir() as tmp:
            d = os.path.join(tmp, "rawdbg")
            write(os.path.join(d, "Kbuild"), "obj-m += rawdbg.o\n")
            write(os.path.join(d, "rawdbg.c"), RAWDBG_C)
            rc, result, err = scan([d], "--cocci", "off")
            self.assertEqual([(f["line"], f["rule"]) for f in
                              result["findings"]], [(18, "missing-owner")],
                             err)
            self.assertEqual(result["findings"][0]["message"],
                             "'rawdbg_stats' (struct rawdbg_file) is exposed "
                             "without .fops.owner = THIS_MODULE: "
                             "full_proxy_open() in fs/debugfs/file.c reads "
                             "it to pin the module, so it can be unloaded "
                             "while in use")

    def test_a_driver_without_a_reader_on_its_way_in(self):
        """A device_driver's owner is read by bus- and subsystem-specific
        code only: one registered by itself is not reported."""
        with TempDir() as tmp:
            d = os.path.join(tmp, "rawmdio")
            write(os.path.join(d, "Kbuild"), "obj-m += rawmdio.o\n")
            write(os.path.join(d, "rawmdio.c"), RAWMDIO_C)
            rc, result, err = scan([d], "--cocci", "off")
            self.assertEqual(result["findings"], [], err)


RAWDBG_C = """\
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>

struct rawdbg_file {
	struct file_operations fops;
	int id;
};

static ssize_t rawdbg_read(struct file *file, char __user *buf,
			   size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, "0\\n", 2);
}

static struct dentry *rawdbg_dir;

static struct rawdbg_file rawdbg_stats = {
	.fops = { .read = rawdbg_read, .llseek = default_llseek },
	.id = 1,
};

static int __init rawdbg_init(void)
{
	rawdbg_dir = debugfs_create_dir("rawdbg", NULL);
	debugfs_create_file("stats", 0444, rawdbg_dir, NULL,
			    &rawdbg_stats.fops);
	return 0;
}

static void __exit rawdbg_exit(void)
{
	debugfs_remove_recursive(rawdbg_dir);
}

module_init(rawdbg_init);
module_exit(rawdbg_exit);
MODULE_LICENSE("GPL");
"""
RAWMDIO_C = """\
#include <linux/mdio.h>
#include <linux/module.h>

static int rawmdio_probe(struct mdio_device *mdiodev)
{
	return -ENODEV;
}

static struct mdio_driver rawmdio_driver = {
	.probe = rawmdio_probe,
	.mdiodrv.driver = {
		.name = "rawmdio",
	},
};

static int __init rawmdio_init(void)
{
	return driver_register(&rawmdio_driver.mdiodrv.driver);
}

static void __exit rawmdio_exit(void)
{
	driver_unregister(&rawmdio_driver.mdiodrv.driver);
}

module_init(rawmdio_init);
module_exit(rawmdio_exit);
MODULE_LICENSE("GPL");
"""


class AdviceFitsTheObjectTest(unittest.TestCase):
    def test_static_objects_are_allocated_by_their_own_constructor(self):
        got = messages("static-kobj-bug", "static-pdev-bug",
                       "static-kset-ns-bug", "empty-release-bug")
        tail = {
            "tunables.c:19": "; allocate it with kobject_create_and_add()",
            "vbuzzer.c:37": "; allocate it with "
                            "platform_device_register_simple() or "
                            "platform_device_alloc()",
            "nsgroups.c:18": "; kzalloc() it and free it in its kobj_type's "
                             "release() (kset_create_and_add() cannot give "
                             "its children a namespace)",
            "nsgroups.c:19": "; kzalloc() it and free it in its kobj_type's "
                             "release() (kobject_create_and_add() cannot "
                             "give it a namespace)",
            # the empty release of a static object: nothing to free
            "vbuzzer.c:41": "; 'vbuzzer_pdev' is static: allocate it with "
                            "platform_device_register_simple() or "
                            "platform_device_alloc()",
            "tunables.c:93": "; the object it releases is static: the "
                             "static-object warning says how to allocate it",
            # a kzalloc()ed device's: free it
            "hbeat.c:94": "; free the containing object, or let the core "
                          "own it"}
        for where, end in tail.items():
            self.assertTrue(got[where].endswith(end), got[where])
        for where in ("vbuzzer.c:41", "tunables.c:93", "nsgroups.c:33"):
            self.assertNotIn("free the containing", got[where])
            self.assertNotIn("leaks", got[where])


    def test_objects_a_subsystem_helper_registers(self):
        """A static object handed to a subsystem's helper is told the
        subsystem's allocator; a module-text release of one names the
        helper and does not send it to the driver core's constructors."""
        got = messages("static-input-bug", "virtio-release-bug")
        self.assertTrue(got["vkeys.c:16"].endswith(
            "; allocate it with input_allocate_device()"), got["vkeys.c:16"])
        release = got["vnull.c:116"]
        self.assertIn("registers through register_virtio_device(), is "
                      "module text", release)
        self.assertTrue(release.endswith(
            "; the fix is the subsystem's: an allocator whose release is "
            "core code, as input_allocate_device() is for input devices"),
            release)
        self.assertNotIn("device_create", release)


class TableCopiesTest(unittest.TestCase):
    def test_owner_paths(self):
        want = [r for r in kb_rows("owner-paths.tsv") if r[1] in (
            "struct file_operations", "struct block_device_operations")]
        self.assertGreater(len(want), 10)
        self.assertEqual(cocci_table("missing_owner.cocci", "owner-paths"),
                         want)

    def test_constructors(self):
        want = kb_rows("constructors.tsv")
        self.assertIn(("struct kset",
                       "allocate it with kset_create_and_add()"), want)
        for script in ("static_object.cocci", "empty_release.cocci"):
            self.assertEqual(cocci_table(script, "constructors"), want,
                             script)

    def test_a_changed_row_is_caught(self):
        rows = kb_rows("constructors.tsv")
        self.assertNotEqual(cocci_table("static_object.cocci",
                                        "constructors"), rows[1:])


if __name__ == "__main__":
    unittest.main()
