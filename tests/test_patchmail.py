# SPDX-License-Identifier: GPL-2.0-only
"""fix --format-patch as a maintainer reads it: subject prefixes as the
subsystems write them (learnt from a git history made of real kernel
commit subjects, or from MAINTAINERS without one), the user as author
under git am, Fixes: and Cc: stable from history, the table's alignment
kept, and checkpatch.pl --strict quiet on the patches."""
import os
import re
import shutil
import subprocess
import sys
import unittest

from util import MODLIFE, ROOT, TempDir, cold, copy_module, write

sys.path.insert(0, ROOT)

from frontend.fixing import align, history, patchmail, subjects  # noqa

CHECKPATCH_TREE = os.path.join(ROOT, "build", "linux", "linux-source-6.1")

# path: subjects of commits that changed it, oldest first (real subjects
# of Linux commits; the files hold placeholders)
HISTORY = [
    ("drivers/hwmon/asus_atk0110.c", [
        "hwmon: (asus_atk0110) Check ACPI_COMPANION() against NULL",
        "hwmon: (asus_atk0110) Check package count before accessing "
        "element"]),
    ("drivers/hwmon/pmbus/ibm-cffps.c", [
        "hwmon: (pmbus/ibm-cffps) Switch LEDs to blocking brightness call",
        "hwmon: (pmbus/ibm-cffps) max_power_out swap changes",
        "hwmon: (pmbus/ibm-cffps) Fix write bits for LED control",
        "hwmon: (pmbus/ibm-cffps) fix Wvoid-pointer-to-enum-cast warning"]),
    ("drivers/hwmon/pmbus/tps53679.c", [
        "hwmon: (pmbus/tps53679) fix Wvoid-pointer-to-enum-cast warning"]),
    ("drivers/hwmon/pmbus/pmbus_core.c", [
        "hwmon: (pmbus/core) honor vrm_version in pmbus_data2reg_vid()"]),
    ("drivers/input/touchscreen/edt-ft5x06.c", [
        "Input: edt-ft5x06 - Convert to i2c's .probe_new()",
        "Input: edt-ft5x06 - add support for FocalTech FT8201",
        "Input: edt-ft5x06 - fix use-after-free in debugfs teardown"]),
    ("sound/soc/intel/skylake/skl-debug.c", [
        "ASoC: Intel: Skylake: Fix mem leak in few functions",
        "ASoC: intel: skylake: Set max DMA segment size",
        "ASoC: Intel: Skylake: Fix driver hang during shutdown",
        "ASoC: Intel: Skylake: Zero snd_ctl_elem_value"]),
    ("drivers/net/wireless/mediatek/mt76/mt7915/debugfs.c", [
        "wifi: mt76: fix tx packet loss when scanning on DBDC",
        "wifi: mt76: mt7915: initialize rssi on adding stations",
        "wifi: mt76: mt7915: fix rx filter setting for bfee functionality",
        "wifi: mt76: mt7915: Fix null-ptr-deref in mt7915_mmio_wed_init()"]),
    ("drivers/usb/host/xhci-ring.c", [
        "USB: xhci: fix U1/U2 handling for hardware with XHCI_INTEL_HOST "
        "quirk set",
        "Revert \"USB: xhci: fix U1/U2 handling for hardware with "
        "XHCI_INTEL_HOST quirk set\"",
        "usb: xhci: Fix problem with xhci resume from suspend",
        "usb: xhci: bail out of setup if the controller is inaccessible",
        "usb: xhci: Avoid Stop Endpoint retry loop if the endpoint seems "
        "Running"]),
    ("net/sched/sch_taprio.c", [
        "net/sched: sch_taprio: properly cancel timer from "
        "taprio_destroy()",
        "net/sched: sch_taprio: ensure to reset/destroy all child qdiscs",
        "net/sched: sch_taprio: do not schedule in taprio_reset()",
        "net/sched: sch_taprio: fix possible use-after-free"]),
    ("drivers/media/pci/ddbridge/ddbridge-core.c", [
        "media: ddbridge: remove unneeded *fe vars from attach functions",
        "media: ddbridge: improve error handling logic on fe attach "
        "failures",
        "media: ddbridge: fix an error code problem in ddb_probe"]),
    ("net/l2tp/l2tp_core.c", [
        "l2tp: convert l2tp_tunnel_list to idr",
        "l2tp: Serialize access to sk_user_data with sk_callback_lock"]),
    ("drivers/mmc/core/core.c", [
        "mmc: core: Fix inconsistent sd3_bus_mode at UHS-I SD voltage "
        "switch failure",
        "mmc: core: fix return value check in devm_mmc_alloc_host()",
        "mmc: core: Fix partition switch time for eMMC"]),
    ("drivers/bluetooth/hci_vhci.c", [
        "Bluetooth: hci_vhci: Fix to set the force_wakeup value",
        "Bluetooth: hci_vhci: convert timeouts to secs_to_jiffies()",
        "Bluetooth: hci_vhci: Pin module for debugfs file operations"]),
    ("drivers/edac/i5100_edac.c", [
        "EDAC/i5100: Fix typo in comment",
        "EDAC/i5100: Fix error handling order in i5100_init_one()",
        "EDAC/i5100: disable error reporting at teardown and create "
        "helper",
        "EDAC/i5100: convert to read/write iterators"]),
]

EXPECTED = {
    "drivers/hwmon/asus_atk0110.c": "hwmon: (asus_atk0110)",
    "drivers/hwmon/pmbus/ibm-cffps.c": "hwmon: (pmbus/ibm-cffps)",
    "drivers/input/touchscreen/edt-ft5x06.c": "Input: edt-ft5x06 -",
    "sound/soc/intel/skylake/skl-debug.c": "ASoC: Intel: Skylake:",
    "drivers/net/wireless/mediatek/mt76/mt7915/debugfs.c":
        "wifi: mt76: mt7915:",
    "drivers/usb/host/xhci-ring.c": "usb: xhci:",
    "net/sched/sch_taprio.c": "net/sched: sch_taprio:",
    "drivers/media/pci/ddbridge/ddbridge-core.c": "media: ddbridge:",
    "net/l2tp/l2tp_core.c": "l2tp:",
    "drivers/mmc/core/core.c": "mmc: core:",
    "drivers/bluetooth/hci_vhci.c": "Bluetooth: hci_vhci:",
    "drivers/edac/i5100_edac.c": "EDAC/i5100:",
    # files without a commit of their own: their directory's form
    "drivers/usb/host/xhci-debugfs.c": "usb: xhci:",
    "drivers/hwmon/pmbus/max20730.c": "hwmon: (pmbus/max20730)",
    "drivers/input/touchscreen/ili210x.c": "Input: ili210x -",
}

MAINTAINERS = """\
List of maintainers

USB XHCI DRIVER
L:\tlinux-usb@vger.kernel.org
F:\tdrivers/usb/host/pci-quirks*
F:\tdrivers/usb/host/xhci*

USB SUBSYSTEM
T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/gregkh/usb.git
F:\tdrivers/usb/

MEDIATEK MT76 WIRELESS LAN DRIVER
T:\tgit https://github.com/nbd168/wireless
F:\tdrivers/net/wireless/mediatek/mt76/

NETWORKING DRIVERS (WIRELESS)
T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/wireless/wireless.git
F:\tdrivers/net/wireless/

NETWORKING DRIVERS
T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/netdev/net.git
F:\tdrivers/net/

PMBUS HARDWARE MONITORING DRIVERS
F:\tdrivers/hwmon/pmbus/

CBS/ETF/TAPRIO QDISCS
F:\tnet/sched/sch_taprio.c

NETWORKING [GENERAL]
T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/netdev/net.git
F:\tnet/

BLUETOOTH SUBSYSTEM
T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/bluetooth/bluetooth.git
F:\tnet/bluetooth/
"""


def git_env(tmp):
    return dict(os.environ, GIT_CONFIG_GLOBAL=os.path.join(tmp, "nogit"),
                GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="K",
                GIT_AUTHOR_EMAIL="k@example.org", GIT_COMMITTER_NAME="K",
                GIT_COMMITTER_EMAIL="k@example.org")


def g(repo, env, *args):
    res = subprocess.run(["git", "-C", repo, "-c", "init.defaultBranch=main"]
                         + list(args), env=env, capture_output=True,
                         text=True)
    if res.returncode:
        raise AssertionError("git %s: %s" % (args[0], res.stderr))
    return res.stdout


def kernel_history(repo, env):
    """A repository whose commits carry HISTORY's subjects, in an order
    that mixes the files (as a real log does)."""
    os.makedirs(repo)
    g(repo, env, "init", "-q")
    todo = [(p, list(s)) for p, s in HISTORY]
    n = 0
    while any(s for _, s in todo):
        for path, subjects_left in todo:
            if not subjects_left:
                continue
            n += 1
            write(os.path.join(repo, path), "placeholder %d\n" % n)
            g(repo, env, "add", "--", path)
            g(repo, env, "commit", "-q", "-m", subjects_left.pop(0))
    for path in ("drivers/usb/host/xhci-debugfs.c",
                 "drivers/hwmon/pmbus/max20730.c",
                 "drivers/input/touchscreen/ili210x.c"):
        write(os.path.join(repo, path), "not committed\n")


class SubjectTest(unittest.TestCase):
    def test_parse_the_forms_subsystems_write(self):
        for subj, parts in (
                ("hwmon: (pmbus/ibm-cffps) Fix write bits for LED control",
                 ["hwmon:", "(pmbus/ibm-cffps)"]),
                ("Input: edt-ft5x06 - add support for FocalTech FT8201",
                 ["Input:", "edt-ft5x06 -"]),
                ("wifi: mt76: mt7915: initialize rssi on adding stations",
                 ["wifi:", "mt76:", "mt7915:"]),
                ("EDAC/i5100: Fix typo in comment", ["EDAC/i5100:"]),
                ("Revert \"usb: xhci: foo\"", None),
                ("Merge branch 'bridge-fixes'", None),
                ("no prefix here", None)):
            self.assertEqual(history.parse(subj), parts, subj)

    @staticmethod
    def in_history(ask):
        """ask(repo, tmp) run in a repository of real kernel subjects,
        under its git identity."""
        with TempDir() as tmp:
            repo = os.path.join(tmp, "linux")
            env = git_env(tmp)
            kernel_history(repo, env)
            old = dict(os.environ)
            os.environ.update(env)
            try:
                history.Repo._cache.clear()
                return ask(repo, tmp)
            finally:
                os.environ.clear()
                os.environ.update(old)

    def test_prefixes_from_a_history_of_kernel_subjects(self):
        got = self.in_history(lambda repo, tmp: {
            p: subjects.prefix(os.path.join(repo, p)) for p in EXPECTED})
        self.assertEqual(got, EXPECTED)
        self.assertEqual(len({p.split()[0] for p in got.values()}), 11)

    def test_first_word_written_as_the_history_writes_it(self):
        want = {"sound/soc/intel/skylake/skl-debug.c": True,
                "drivers/mmc/core/core.c": True,
                "drivers/bluetooth/hci_vhci.c": True,
                "net/sched/sch_taprio.c": False,
                "net/l2tp/l2tp_core.c": False,
                "drivers/input/touchscreen/edt-ft5x06.c": False,
                # no commit of its own: its directory's
                "drivers/input/touchscreen/ili210x.c": False}
        got, outside = self.in_history(lambda repo, tmp: (
            {p: history.capitalized(os.path.join(repo, p)) for p in want},
            history.capitalized(os.path.join(tmp, "x.c"))))
        self.assertEqual(got, want)
        self.assertFalse(outside)
        s = patchmail.subject("ASoC: Intel: Skylake:", ["missing-owner"],
                              {"missing-owner": "pin the module while its "
                               "files are open"}, capital=True)
        self.assertEqual(s, "ASoC: Intel: Skylake: Pin the module while "
                         "its files are open")

    def test_prefixes_and_tree_tags_from_maintainers_without_history(self):
        with TempDir() as tmp:
            tree = os.path.join(tmp, "linux-source")
            write(os.path.join(tree, "MAINTAINERS"), MAINTAINERS)
            write(os.path.join(tree, "Kconfig"), "\n")
            want = {
                "drivers/usb/host/xhci-debugfs.c": ("usb: xhci:", None),
                "drivers/usb/dwc3/debugfs.c": ("usb: dwc3:", None),
                "drivers/net/wireless/mediatek/mt76/mt7915/debugfs.c":
                    ("wifi: mt76: mt7915:", "wireless"),
                "drivers/net/wwan/wwan_hwsim.c":
                    ("net: wwan: wwan_hwsim:", "net"),
                "drivers/hwmon/pmbus/ibm-cffps.c":
                    ("hwmon: (pmbus/ibm-cffps)", None),
                "drivers/hwmon/asus_atk0110.c":
                    ("hwmon: (asus_atk0110)", None),
                "drivers/input/touchscreen/edt-ft5x06.c":
                    ("Input: edt-ft5x06 -", None),
                "sound/soc/intel/skylake/skl-debug.c":
                    ("ASoC: Intel: Skylake:", None),
                "net/sched/sch_taprio.c": ("net/sched: sch_taprio:", "net"),
                "net/bluetooth/6lowpan.c": ("Bluetooth: 6lowpan:", None),
                # a subsystem's core module: not "bus: mhi: mhi:"
                "drivers/bus/mhi/host/debugfs.c": ("bus: mhi: host:", None),
                "drivers/greybus/svc.c": ("greybus: svc:", None),
                "drivers/gpu/drm/drm_syncobj.c": ("drm/syncobj:", None),
                # a driver's file named after its module: the module
                "drivers/memory/tegra/tegra210-emc-core.c":
                    ("memory: tegra210-emc:", None),
            }
            modules = {"net/bluetooth/6lowpan.c": "bluetooth_6lowpan",
                       "drivers/usb/dwc3/debugfs.c": "dwc3",
                       "drivers/bus/mhi/host/debugfs.c": "mhi",
                       "drivers/greybus/svc.c": "greybus",
                       "drivers/gpu/drm/drm_syncobj.c": "drm",
                       "drivers/memory/tegra/tegra210-emc-core.c":
                           "tegra210-emc"}
            got = {}
            for rel in want:
                path = os.path.join(tree, rel)
                write(path, "placeholder\n")
                # as a patch of the file gets them
                got[rel] = (patchmail.prefix([(rel, "", path)],
                                             modules.get(rel)),
                            patchmail.tree_tag([(rel, "", path)]))
            self.maxDiff = None
            self.assertEqual(got, want)

    def test_one_prefix_for_several_files(self):
        self.assertEqual(subjects.common_prefix(["hwmon: (asus_atk0110)"]),
                         "hwmon: (asus_atk0110)")
        self.assertEqual(subjects.common_prefix(
            ["Input: edt-ft5x06 -", "Input: ili210x -"]), "Input:")
        self.assertEqual(subjects.common_prefix(
            ["wifi: mt76: mt7915:", "wifi: mt76: mt7921:"]), "wifi: mt76:")

    def test_subjects_fit_and_differ(self):
        long_prefix = "platform/x86: intel: telemetry: debugfs:"
        s = patchmail.subject(long_prefix, ["missing-owner"],
                              {"missing-owner": "pin the module while its "
                               "files are open"})
        self.assertLessEqual(len(s), 72)
        self.assertTrue(s.startswith("platform/x86:"), s)
        plans = [{"prefix": "mmc: core:", "rules": ["missing-owner"],
                  "module": m, "changes": [(f, "", f)],
                  "subject_of": {"missing-owner": "pin the module"}}
                 for m, f in (("mmc_core", "drivers/mmc/core/debugfs.c"),
                              ("mmc_block", "drivers/mmc/core/block.c"))]
        for p in plans:
            p["subject"] = patchmail.subject(p["prefix"], p["rules"],
                                             p["subject_of"])
        patchmail.distinct(plans)
        self.assertEqual([p["subject"] for p in plans],
                         ["mmc: core: debugfs: pin the module",
                          "mmc: core: block: pin the module"])

    def test_history_runs_nothing_the_repository_names(self):
        with TempDir() as tmp:
            repo = os.path.join(tmp, "linux")
            env = git_env(tmp)
            kernel_history(repo, env)
            pwned = os.path.join(tmp, "PWNED")
            for key in ("gpg.program", "core.fsmonitor", "core.pager",
                        "diff.external", "diff.x.textconv",
                        "core.hooksPath"):
                g(repo, env, "config", key, "touch " + pwned)
            g(repo, env, "config", "log.showSignature", "true")
            write(os.path.join(repo, ".gitattributes"), "*.c diff=x\n")
            old = dict(os.environ)
            os.environ.update(env)
            try:
                history.Repo._cache.clear()
                path = os.path.join(repo, "drivers/edac/i5100_edac.c")
                self.assertEqual(history.prefix(path), "EDAC/i5100:")
                self.assertIsNotNone(history.introduced(path,
                                                        "placeholder"))
                history.released(path, "0" * 40)
            finally:
                os.environ.clear()
                os.environ.update(old)
            self.assertFalse(os.path.exists(pwned))


class BodyTest(unittest.TestCase):
    def test_what_each_table_lets_happen(self):
        """A debugfs table whose .release is the module's own says that
        the close runs it; a table whose reader the checker did not name
        gets a paragraph that claims no particular reader."""
        from frontend.fixing import bodies
        with TempDir() as tmp:
            src = os.path.join(tmp, "t.c")
            write(src, "static int\nt_release(struct inode *i, "
                  "struct file *f)\n{\n\treturn 0;\n}\n\n"
                  "static const struct file_operations t_fops = {\n"
                  "\t.release = t_release,\n};\n"
                  "static const struct file_operations s_fops = {\n"
                  "\t.release = single_release,\n};\n")
            msg = ("'%s' (struct file_operations) is exposed without .owner "
                   "= THIS_MODULE: %s reads it to pin the module, so it can "
                   "be unloaded while in use")
            found = [{"rule": "missing-owner", "message": msg % (
                n, "full_proxy_open() in fs/debugfs/file.c")}
                for n in ("t_fops", "s_fops")] + [
                {"rule": "missing-owner", "message": msg % (
                    "u_fops", "core code (such as chrdev_open() in "
                    "fs/char_dev.c)")}]
            text = " ".join(bodies.describe(found, "", [src]))
            self.assertIn("read the freed table and call t_release() in "
                          "freed module text.", text)
            self.assertIn("u_fops is a table of file operations without "
                          ".owner too.", text)
            self.assertNotIn("single_release", text)


class AlignTest(unittest.TestCase):
    def fields(self, old, new):
        return align.fields(old.encode(), new.encode()).decode()

    def test_tabs_spaces_and_disagreement(self):
        tabbed = ("static const struct file_operations f = {\n"
                  "\t.open\t\t= f_open,\n\t.release\t= f_release,\n};\n")
        added = tabbed.replace("{\n", "{\n\t.owner = THIS_MODULE,\n", 1)
        self.assertIn("\t.owner\t\t= THIS_MODULE,\n",
                      self.fields(tabbed, added))
        spaced = ("static struct miscdevice m = {\n"
                  "\t.minor  = MISC_DYNAMIC_MINOR,\n\t.name   = \"m\",\n};\n")
        added = spaced.replace("};", "\t.owner = THIS_MODULE,\n};")
        self.assertIn("\t.owner  = THIS_MODULE,\n",
                      self.fields(spaced, added))
        plain = ("static const struct file_operations f = {\n"
                 "\t.open = f_open,\n\t.release = f_release,\n};\n")
        added = plain.replace("{\n", "{\n\t.owner = THIS_MODULE,\n", 1)
        self.assertEqual(self.fields(plain, added), added)
        mixed = ("static const struct file_operations f = {\n"
                 "\t.open\t= f_open,\n\t.read\t\t= f_read,\n"
                 "\t.write = f_write,\n};\n")
        added = mixed.replace("{\n", "{\n\t.owner = THIS_MODULE,\n", 1)
        self.assertEqual(self.fields(mixed, added), added)

    def test_value_columns_and_a_single_neighbour(self):
        """".read =\t\tf" and ".read =    f" line the values up (ocfs2,
        ca8210); one field beside the added one is followed."""
        for table, want in (
                ("\t.read =\t\tf_read,\n\t.open =\t\tsimple_open,\n",
                 "\t.owner =\tTHIS_MODULE,\n"),
                ("\t.open =         f_open,\n\t.read =         f_read,\n",
                 "\t.owner =        THIS_MODULE,\n"),
                ("\t.read\t\t= f_read,\n", "\t.owner\t\t= THIS_MODULE,\n")):
            old = "static const struct file_operations f = {\n%s};\n" % table
            added = old.replace("{\n", "{\n\t.owner = THIS_MODULE,\n", 1)
            self.assertIn(want, self.fields(old, added))


def _patches(out):
    return [os.path.join(out, p) for p in sorted(os.listdir(out))]


class PatchMailTest(unittest.TestCase):
    def test_author_fixes_stable_and_git_am(self):
        with TempDir() as tmp:
            env = git_env(tmp)
            repo = os.path.join(tmp, "repo")
            os.makedirs(repo)
            g(repo, env, "init", "-q")
            copy_module("debugfs-fops-bug", repo)
            g(repo, env, "add", ".")
            g(repo, env, "commit", "-q", "-m",
              "misc: dbgstat: add statistics in debugfs")
            first = g(repo, env, "rev-parse", "HEAD").strip()
            g(repo, env, "tag", "v6.1")
            g(repo, env, "commit", "-q", "--allow-empty", "-m",
              "misc: dbgstat: a later change")
            # the scanned tree's own identity is not the user's
            g(repo, env, "config", "user.name", "Mallory")
            g(repo, env, "config", "user.email", "mallory@example.org")
            home = os.path.join(tmp, "home")
            write(os.path.join(home, ".gitconfig"),
                  "[user]\n\tname = Grace Hopper\n"
                  "\temail = grace@example.org\n")
            user = dict(os.environ, HOME=home)
            for k in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL",
                      "GIT_CONFIG_GLOBAL", "XDG_CONFIG_HOME"):
                user.pop(k, None)
            out = os.path.join(tmp, "out")
            res = subprocess.run([MODLIFE, "fix", *cold(), "--format-patch",
                                  out, repo], cwd=tmp, env=user,
                                 capture_output=True, text=True)
            self.assertEqual(res.returncode, 0, res.stderr)
            (patch,) = _patches(out)
            with open(patch) as f:
                text = f.read()
            self.assertIn("\nFrom: Grace Hopper <grace@example.org>\n", text)
            self.assertIn("Subject: [PATCH] misc: dbgstat: pin the module "
                          "while its files are open\n", text)
            self.assertIn('\nFixes: %s ("misc: dbgstat: add statistics in '
                          'debugfs")\nCc: stable@vger.kernel.org\n'
                          % first[:12], text)
            self.assertIn("full_proxy_release()", text)
            self.assertNotIn("chrdev_open", text)
            # single_release() and no .release: nothing of the module runs
            # at that close, it reads the freed table
            flat = " ".join(text.split())
            self.assertIn("makes that close read the freed table. ", flat)
            self.assertNotIn("freed module text", flat)
            self.assertIn("+\t.owner\t\t= THIS_MODULE,\n", text)
            self.assertNotIn("Signed-off-by", text)
            # git am in another repository records the user as author
            other = os.path.join(tmp, "other")
            os.makedirs(other)
            g(other, env, "init", "-q")
            copy_module("debugfs-fops-bug", other)
            g(other, env, "add", ".")
            g(other, env, "commit", "-q", "-m", "base")
            g(other, env, "am", "-q", patch)
            self.assertEqual(g(other, env, "log", "-1",
                               "--format=%an <%ae>|%cn|%s").strip(),
                             "Grace Hopper <grace@example.org>|K|misc: "
                             "dbgstat: pin the module while its files are "
                             "open")
            # --from wins; --signoff signs as that author
            out2 = os.path.join(tmp, "out2")
            res = subprocess.run([MODLIFE, "fix", *cold(), "--format-patch",
                                  out2, "--from",
                                  "Ann Other <ann@example.org>",
                                  "--signoff", repo], cwd=tmp, env=user,
                                 capture_output=True, text=True)
            self.assertEqual(res.returncode, 0, res.stderr)
            (patch,) = _patches(out2)
            with open(patch) as f:
                text = f.read()
            self.assertIn("\nFrom: Ann Other <ann@example.org>\n", text)
            self.assertIn("\nSigned-off-by: Ann Other <ann@example.org>\n",
                          text)
            # no identity at all: refused before anything runs
            bare = dict(user, HOME=os.path.join(tmp, "nohome"))
            bare.pop("EMAIL", None)
            res = subprocess.run([MODLIFE, "fix", *cold(), "--format-patch",
                                  os.path.join(tmp, "out3"), repo],
                                 cwd=tmp, env=bare, capture_output=True,
                                 text=True)
            self.assertEqual(res.returncode, 2)
            self.assertIn("--from", res.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, "out3")))
            for bad in ("x", "A <a@b>\nFrom: B <b@c>"):
                res = subprocess.run([MODLIFE, "fix", *cold(),
                                      "--format-patch",
                                      os.path.join(tmp, "out4"),
                                      "--from", bad, repo], cwd=tmp,
                                     env=user, capture_output=True,
                                     text=True)
                self.assertEqual(res.returncode, 2, bad)

    def test_no_history_no_fixes(self):
        with TempDir() as tmp:
            d = copy_module("static-pdev-bug", tmp)
            out = os.path.join(tmp, "out")
            res = subprocess.run([MODLIFE, "fix", *cold(), "--format-patch",
                                  out, d], cwd=tmp, capture_output=True,
                                 text=True)
            self.assertEqual(res.returncode, 0, res.stderr)
            (patch,) = _patches(out)
            with open(patch) as f:
                text = f.read()
            self.assertIn("Subject: [PATCH] vbuzzer: let the driver core "
                          "allocate the object\n", text)
            self.assertNotIn("Fixes:", text)
            self.assertNotIn("stable@", text)
            # the release the conversion deletes is said to go, not to free
            self.assertIn("the empty release vbuzzer_pdev_release() that "
                          "only silenced the core's warning goes with it",
                          " ".join(text.split()))
            self.assertNotIn("frees the containing object", text)

    @unittest.skipUnless(
        os.path.isfile(os.path.join(CHECKPATCH_TREE, "scripts",
                                    "checkpatch.pl")) and shutil.which("perl"),
        "no Linux 6.1 tree with scripts/checkpatch.pl in build/linux")
    def test_checkpatch_strict_is_quiet(self):
        with TempDir() as tmp:
            mods = [copy_module(m, tmp) for m in (
                "debugfs-fops-bug", "misc-char-bug", "static-pdev-bug",
                "rcu-bug", "cdev-bug", "static-kobj-bug")]
            out = os.path.join(tmp, "out")
            res = subprocess.run([MODLIFE, "fix", *cold(), "--format-patch",
                                  out, "--signoff"] + mods, cwd=tmp,
                                 capture_output=True, text=True)
            self.assertEqual(res.returncode, 0, res.stderr)
            patches = _patches(out)
            self.assertEqual(len(patches), len(mods))
            for p in patches:
                res = subprocess.run(
                    ["perl", os.path.join("scripts", "checkpatch.pl"),
                     "--strict", p], cwd=CHECKPATCH_TREE,
                    capture_output=True, text=True)
                self.assertRegex(res.stdout, r"(?m)^total: 0 errors, 0 "
                                 r"warnings, 0 checks, \d+ lines checked$",
                                 "%s:\n%s" % (os.path.basename(p),
                                              res.stdout))
                with open(p) as f:
                    subj = re.search(r"^Subject: \[PATCH\] (.*)$", f.read(),
                                     re.M).group(1)
                self.assertLessEqual(len(subj), 72, subj)


if __name__ == "__main__":
    unittest.main()
