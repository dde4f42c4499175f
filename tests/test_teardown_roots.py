# SPDX-License-Identifier: GPL-2.0-only
"""What makes the stops of two corpus traps count, one edit at a time:
each trap is silent as shipped, and reports the pending work again when
the one thing that lets its stop run before unload is taken away."""
import os
import unittest

from util import TempDir, copy_module, finding_keys, scan, write

# a library: the device is registered for dependent modules, through a
# function that the module's other file exports
GADLIB_MAIN = """\
#include <linux/device.h>
#include <linux/module.h>

int gadlib_add(void);

static struct device gadlib_dev;

int gadlib_add(void)
{
	dev_set_name(&gadlib_dev, "gadlib");
	return device_register(&gadlib_dev);
}

static int __init gadlib_init(void)
{
	return 0;
}

static void __exit gadlib_exit(void)
{
}

module_init(gadlib_init);
module_exit(gadlib_exit);
MODULE_LICENSE("GPL");
"""
GADLIB_EXPORTS = """\
#include <linux/export.h>

int gadlib_add(void);
EXPORT_SYMBOL_GPL(gadlib_add);
"""


def edit(path, old, new):
    with open(path) as f:
        text = f.read()
    assert old in text, (path, old)
    with open(path, "w") as f:
        f.write(text.replace(old, new))


class TeardownRootTest(unittest.TestCase):
    def scan_edited(self, name, filename, *edits):
        with TempDir() as tmp:
            d = copy_module(name, tmp)
            for old, new in edits:
                edit(os.path.join(d, filename), old, new)
            rc, data, err = scan([d], "--no-cocci")
            self.assertIsNotNone(data, err)
            # a file that did not parse is silent for the wrong reason
            self.assertEqual(data["errors"], [], err)
            return finding_keys(data, d)

    def test_traps_are_silent_as_shipped(self):
        for name in ("trap-work-fs-unmount", "trap-work-export-elsewhere"):
            self.assertEqual(self.scan_edited(name, None), [], name)

    def test_cast_accessor_names_the_member_it_reaches(self):
        # a stop through TLOGFS_SB(sb) of another member stops nothing
        got = self.scan_edited(
            "trap-work-fs-unmount", "tlogfs.c",
            ("cancel_delayed_work_sync(&TLOGFS_SB(sb)->mdb_work);",
             "cancel_delayed_work_sync(&TLOGFS_SB(sb)->wbuf_dwork);"))
        self.assertEqual(got, ["tlogfs.c:74:exit-pending-work"])

    def test_disable_sync_stops_too(self):
        # Linux 6.10's disable_delayed_work_sync() cancels and waits as
        # cancel_delayed_work_sync() does (declared here: 6.1 lacks it)
        got = self.scan_edited(
            "trap-work-fs-unmount", "tlogfs.c",
            ("#include <linux/workqueue.h>\n",
             "#include <linux/workqueue.h>\n\nbool disable_delayed_work_"
             "sync(struct delayed_work *dwork);\n"),
            ("cancel_delayed_work_sync(&TLOGFS_SB(sb)->mdb_work);",
             "disable_delayed_work_sync(&TLOGFS_SB(sb)->mdb_work);"))
        self.assertEqual(got, [])

    def test_kill_sb_destroys_the_queue(self):
        # without .sync_fs's flush, only .kill_sb stops the commit work
        no_flush = ("\tif (wait)\n\t\tflush_work(&sbi->commit_work);\n", "")
        got = self.scan_edited("trap-work-fs-unmount", "tlogfs.c", no_flush)
        self.assertEqual(got, [])
        got = self.scan_edited(
            "trap-work-fs-unmount", "tlogfs.c", no_flush,
            ("\t.kill_sb\t= tlogfs_kill_sb,\n",
             "\t.kill_sb\t= kill_litter_super,\n"))
        self.assertEqual(got, ["tlogfs.c:51:exit-pending-work"])

    def test_sync_fs_cancels_the_flush(self):
        got = self.scan_edited(
            "trap-work-fs-unmount", "tlogfs.c",
            ("\t.sync_fs\t= tlogfs_sync_fs,\n", ""))
        self.assertEqual(got, ["tlogfs.c:70:exit-pending-work"])

    def test_export_in_another_file_makes_the_stop_count(self):
        got = self.scan_edited(
            "trap-work-export-elsewhere", "sampq-main.c",
            ("EXPORT_SYMBOL_GPL(sampq_close_chan);\n", ""))
        self.assertEqual(got, ["sampq-core.c:27:exit-pending-work"])

    def test_export_in_another_file_counts_for_the_exit_file(self):
        # the exit function's file must not decide "nothing exports it"
        with TempDir() as tmp:
            d = os.path.join(tmp, "gadlib")
            write(os.path.join(d, "Kbuild"), "obj-m += gadlib.o\n"
                  "gadlib-y := gadlib-main.o gadlib-exports.o\n")
            write(os.path.join(d, "gadlib-main.c"), GADLIB_MAIN)
            write(os.path.join(d, "gadlib-exports.c"), GADLIB_EXPORTS)
            rc, data, err = scan([d], "--no-cocci")
            self.assertEqual(data["errors"], [], err)
            self.assertEqual(finding_keys(data, d), [], err)
            write(os.path.join(d, "gadlib-exports.c"), "")
            rc, data, err = scan([d], "--no-cocci")
            self.assertEqual(finding_keys(data, d),
                             ["gadlib-main.c:6:static-object"], err)


if __name__ == "__main__":
    unittest.main()
