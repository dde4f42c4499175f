# SPDX-License-Identifier: GPL-2.0-only
"""modlife prove: the initramfs, module files, console verdicts, and a
small set of real boots (one pair per scenario; make prove runs every
corpus pair, tests/prove_corpus.py)."""
import gzip
import json
import os
import stat
import subprocess
import sys
import unittest

from util import MODLIFE, OUTSIDE, ROOT, TempDir, copy_module, kbuild, kdir, \
    needs_emulator

sys.path.insert(0, ROOT)
from frontend.proving import initramfs, kmod, scenarios  # noqa: E402

PROVE_CACHE = os.path.join(OUTSIDE, "prove-cache")


def read_newc(path):
    """{name: (mode, data)} of a gzip'ed newc archive, checking the
    layout the kernel's unpacker needs (magic, 4-byte alignment)."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    out, off = {}, 0
    while True:
        assert data[off:off + 6] == b"070701", "bad magic at %d" % off
        fields = [int(data[off + 6 + 8 * i:off + 14 + 8 * i], 16)
                  for i in range(13)]
        mode, size, namesize = fields[1], fields[6], fields[11]
        name = data[off + 110:off + 110 + namesize - 1].decode()
        assert data[off + 110 + namesize - 1] == 0
        off += 110 + namesize
        off += -off % 4
        body = data[off:off + size]
        off += size
        off += -off % 4
        if name == "TRAILER!!!":
            assert off == len(data)
            return out
        out[name] = (mode, body)


def console(*lines):
    return "\n".join(lines) + "\n"


BOOT = "\x1bc\x1b[?7l\x1b[2J@@modlife boot"
OOPS = ["[    3.627613] BUG: unable to handle page fault for address: "
        "ffffffffc0202118",
        "[    3.628223] #PF: supervisor read access in kernel mode",
        "[    3.628668] Oops: 0000 [#1] PREEMPT SMP NOPTI",
        "[    3.628815] CPU: 0 PID: 103 Comm: sleep Tainted: G OE "
        "6.1.0-57-amd64 #1  Debian 6.1.192-3",
        "[    3.629164] RIP: 0010:filp_close+0x1d/0x70",
        "[    3.631164]  put_files_struct+0x78/0xd0",
        "[    3.631586]  ? do_fault+0x1a4/0x410"]


class OfflineTest(unittest.TestCase):
    def test_initramfs_layout(self):
        with TempDir() as d:
            a = initramfs.Archive()
            a.directory("bin")
            a.file("bin/busybox", b"\x7fELF" + b"x" * 5, 0o755)
            a.symlink("bin/sh", "busybox")
            a.file("init", b"#!/bin/sh\n", 0o755)
            a.write(os.path.join(d, "i.gz"))
            got = read_newc(os.path.join(d, "i.gz"))
        self.assertEqual(sorted(got), ["bin", "bin/busybox", "bin/sh",
                                       "init"])
        self.assertTrue(stat.S_ISDIR(got["bin"][0]))
        self.assertEqual(got["bin/busybox"], (stat.S_IFREG | 0o755,
                                              b"\x7fELFxxxxx"))
        self.assertEqual(got["bin/sh"], (stat.S_IFLNK | 0o777, b"busybox"))

    def test_modinfo_of_a_built_module(self):
        with TempDir() as d:
            m = copy_module("misc-char-bug", d)
            self.assertEqual(kbuild(m).returncode, 0)
            ko = os.path.join(m, "mchar.ko")
            self.assertEqual(kmod.name_of(ko), "mchar")
            self.assertEqual(kmod.depends(ko), [])
            with open(os.path.join(kdir(), "include", "generated",
                                   "utsrelease.h")) as f:
                release = f.read().split('"')[1]
            self.assertTrue(kmod.modinfo(ko)["vermagic"][0].startswith(
                release + " "))
            with self.assertRaises(kmod.ModuleError):
                kmod.modinfo(os.path.join(m, "mchar.c"))

    def test_dependencies_come_first(self):
        with TempDir() as d:
            for name, deps in (("a", ""), ("b", "a"), ("c", "a,b")):
                os.makedirs(os.path.join(d, "kernel"), exist_ok=True)
                _fake_ko(os.path.join(d, "kernel", name + ".ko"), name, deps)
            _fake_ko(os.path.join(d, "t.ko"), "t", "c,b")
            got = [os.path.basename(p) for p in
                   kmod.closure([os.path.join(d, "t.ko")], d)]
            self.assertEqual(got, ["a.ko", "b.ko", "c.ko"])
            # modinfo names dependencies as files are named (usb-common);
            # a pre soft dependency may be an alias (crc32c)
            _fake_ko(os.path.join(d, "kernel", "usb-common.ko"),
                     "usb_common", "")
            _fake_ko(os.path.join(d, "kernel", "crc32c_generic.ko"),
                     "crc32c_generic", "", "alias=crypto-crc32c;alias=crc32c")
            _fake_ko(os.path.join(d, "v.ko"), "v", "usb-common",
                     "softdep=pre: crc32c nosuchalias post: a")
            got = [os.path.basename(p) for p in
                   kmod.closure([os.path.join(d, "v.ko")], d)]
            self.assertEqual(got, ["crc32c_generic.ko", "usb-common.ko"])
            _fake_ko(os.path.join(d, "u.ko"), "u", "zz")
            with self.assertRaisesRegex(kmod.ModuleError, "needs module zz"):
                kmod.closure([os.path.join(d, "u.ko")], d)

    def test_verdicts(self):
        token = "0123456789abcdef"

        def v(scenario, text, finished):
            # the boot's marks carry its token (test_hostile_output checks
            # that marks without it do not count)
            return scenarios.verdict(scenario, text.replace(
                "@@modlife ", scenarios.mark(token) + " "), finished, token)
        proven = v("owner", console(
            BOOT, "@@modlife insmod rc=0", "@@modlife opened /dev/mchar",
            "@@modlife unloading", "@@modlife rmmod rc=0",
            "@@modlife closing", *OOPS, "@@modlife closed",
            "@@modlife end"), True)
        self.assertEqual(proven[0], "proven")
        self.assertIn("closing a file of the unloaded module", proven[1])
        self.assertEqual(proven[2], [
            "BUG: unable to handle page fault for address: ffffffffc0202118",
            "Oops: 0000 [#1] PREEMPT SMP NOPTI",
            "CPU: 0 PID: 103 Comm: sleep Tainted: G OE 6.1.0-57-amd64 #1"
            "  Debian 6.1.192-3",
            "RIP: 0010:filp_close+0x1d/0x70",
            "put_files_struct+0x78/0xd0"])
        pinned = v("owner", console(
            BOOT, "@@modlife insmod rc=0", "@@modlife opened /dev/mchar",
            "@@modlife unloading", "@@modlife rmmod rc=1",
            "@@modlife closed", "@@modlife end"), True)
        self.assertEqual(pinned[0], "not reproduced")
        self.assertIn("pinned", pinned[1])
        early = v("owner", console(
            BOOT, "@@modlife insmod rc=0", *OOPS, "@@modlife unloading",
            "@@modlife rmmod rc=0"), True)
        self.assertEqual(early[0], "error")
        self.assertIn("before the unload", early[1])
        self.assertEqual(v("hold", "SeaBIOS\n", False)[0], "error")
        self.assertEqual(v("hold", console(BOOT, "@@modlife insmod rc=1"),
                           True)[:2],
                         ("error", "the module did not load (insmod rc=1)"))
        hung = v("hold", console(
            BOOT, "@@modlife insmod rc=0", "@@modlife hold rc=0",
            "@@modlife unloading",
            "[   9.1] INFO: task rmmod:108 blocked for more than 4 seconds.",
            "@@modlife rmmod hung", "@@modlife dropping",
            "@@modlife rmmod finished after drop", "@@modlife end"), True)
        self.assertEqual(hung[0], "proven")
        self.assertIn("finished when it was dropped", hung[1])
        stuck = v("pending", console(
            BOOT, "@@modlife insmod rc=0", "@@modlife unloading"), False)
        self.assertEqual(stuck[0], "error")
        self.assertIn("time limit", stuck[1])
        self.assertEqual(v("owner", console(
            BOOT, "@@modlife insmod rc=0", "@@modlife nothing to open"),
            True)[0], "no scenario")

    def test_a_run_proves_only_the_findings_whose_outcome_it_showed(self):
        from frontend.proving import prove as pv
        p = object.__new__(pv.Prover)
        outcome = {}
        p.run = lambda target, scenario: dict(outcome, scenario=scenario,
                                              module="m", report=[])
        t = object.__new__(pv.Target)
        t.findings = [{"rule": "unregister-wait-in-exit"},
                      {"rule": "module-release"}, {"rule": "self-pin"}]
        outcome.update(verdict="proven", why="rmmod hung while a reference "
                       "was held")
        p.prove(t)
        self.assertEqual([f["proof"]["verdict"] for f in t.findings],
                         ["proven", "not reproduced", "no scenario"])
        self.assertIn("predicts a fault", t.findings[1]["proof"]["why"])
        self.assertEqual(t.findings[0]["proof"]["scope"], "module")
        outcome.update(verdict="proven", why="rmmod succeeded; dropping the "
                       "reference after the unload faulted: BUG: x")
        p.prove(t)
        self.assertEqual([f["proof"]["verdict"] for f in t.findings],
                         ["not reproduced", "proven", "no scenario"])

    def test_every_rule_has_a_scenario_entry(self):
        from frontend.rules import RULES
        self.assertEqual(sorted(scenarios.RULE_SCENARIO), sorted(RULES))
        self.assertLessEqual(set(scenarios.RULE_SCENARIO.values()),
                             set(scenarios.SCENARIOS) | {None})

    def test_usage_errors_are_one_line(self):
        for args, word in ((["--scenario", "bogus", "x"], "unknown scenario"),
                           (["--timeout", "0", "x"], "positive"),
                           (["--kernel", "/nonexistent/vmlinuz",
                             "corpus/misc-char-bug"], "no kernel image")):
            res = subprocess.run([MODLIFE, "prove", "--cache-dir",
                                  PROVE_CACHE] + args, cwd=ROOT,
                                 capture_output=True, text=True)
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn(word, res.stderr)
            self.assertEqual(len(res.stderr.strip().splitlines()), 1,
                             res.stderr)


def _fake_ko(path, name, deps, extra=""):
    """An ELF64 file with only a .modinfo and a section-name table."""
    import struct
    info = b"name=%s\0depends=%s\0" % (name.encode(), deps.encode())
    info += b"".join(x.encode() + b"\0" for x in extra.split(";") if x)
    names = b"\0.modinfo\0.shstrtab\0"
    body = info + names
    shoff = 64 + len(body)
    head = bytearray(64)
    head[:6] = b"\x7fELF\x02\x01"
    struct.pack_into("<Q", head, 0x28, shoff)
    struct.pack_into("<HHH", head, 0x3a, 64, 3, 2)
    sects = bytes(64)
    sects += struct.pack("<IIQQQQ", 1, 1, 0, 0, 64, len(info)) + bytes(24)
    sects += struct.pack("<IIQQQQ", 10, 3, 0, 0, 64 + len(info),
                         len(names)) + bytes(24)
    with open(path, "wb") as f:
        f.write(bytes(head) + body + sects)


def prove(*args, tmp=None):
    env = dict(os.environ)
    if tmp:
        env["TMPDIR"] = tmp
    res = subprocess.run([MODLIFE, "prove", "--quiet", "--format", "json",
                          "--cache-dir", PROVE_CACHE, "--timeout", "200"] +
                         list(args), cwd=ROOT, capture_output=True,
                         text=True, env=env)
    try:
        data = json.loads(res.stdout)
    except ValueError:
        data = None
    return res.returncode, data, res.stderr


def verdicts(data):
    return {(r["label"].split(" ")[0], r["scenario"]): r["verdict"]
            for r in data["runs"]}


def _qemu_processes(mark):
    found = []
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if b"qemu-system" in cmd and mark.encode() in cmd:
            found.append(pid)
    return found


@needs_emulator
class BootTest(unittest.TestCase):
    """Real boots of Debian's kernel (TCG without KVM): about 12 s each."""

    def test_one_pair_per_scenario(self):
        data = {"runs": [], "targets": []}
        with TempDir() as tmp:
            for scenario, pair in (("owner", "misc-char"),
                                   ("hold", "release"),
                                   ("pending", "work-static")):
                rc, got, err = prove(
                    "corpus/%s-bug" % pair, "corpus/%s-fixed" % pair,
                    "--rules", "all", "--scenario", scenario, tmp=tmp)
                self.assertEqual(rc, 1, err)
                data["runs"] += got["runs"]
                data["targets"] += got["targets"]
            self.assertEqual(os.listdir(tmp), [])
        got = verdicts(data)
        want = {"misc-char-bug": "proven", "misc-char-fixed": "not reproduced",
                "release-bug": "proven", "release-fixed": "not reproduced",
                "work-static-bug": "proven",
                "work-static-fixed": "not reproduced"}
        scen = {"misc": "owner", "rele": "hold", "work": "pending"}
        for mod, verdict in want.items():
            self.assertEqual(got[("corpus/" + mod, scen[mod[:4]])], verdict,
                             (mod, data["runs"]))
        self.assertEqual(len(data["runs"]), 6)
        by_file = {}
        for t in data["targets"]:
            for f in t["findings"]:
                by_file["%s:%d" % (os.path.basename(f["file"]),
                                   f["line"])] = f["proof"]
        self.assertEqual(by_file["mchar.c:73"]["verdict"], "proven")
        self.assertTrue(any(ln.startswith("RIP: ")
                            for ln in by_file["mchar.c:73"]["report"]))
        self.assertEqual(by_file["vsensor.c:100"]["verdict"], "proven")
        self.assertEqual(by_file["hbeat.c:28"]["verdict"], "proven")

    def test_scan_prove_puts_the_proof_on_the_finding(self):
        res = subprocess.run([MODLIFE, "scan", "--prove", "--quiet",
                              "--cache-dir", PROVE_CACHE, "--format",
                              "sarif", "corpus/misc-char-bug"], cwd=ROOT,
                             capture_output=True, text=True)
        self.assertEqual(res.returncode, 1, res.stderr)
        results = json.loads(res.stdout)["runs"][0]["results"]
        self.assertEqual(len(results), 1)
        proof = results[0]["properties"]["proof"]
        self.assertEqual((proof["scenario"], proof["verdict"]),
                         ("owner", "proven"))
        self.assertIn("/dev/mchar", proof["why"])

    def test_a_module_that_does_not_load(self):
        # tickmon refuses period_ms below 10: insmod fails in the guest
        rc, data, err = prove("corpus/timer-bug", "--rules", "all",
                              "--param", "period_ms=1")
        self.assertEqual(rc, 2, err)
        self.assertEqual(data["runs"][0]["verdict"], "error")
        self.assertIn("did not load", data["runs"][0]["why"])
        self.assertRegex(data["runs"][0]["why"], r"its parameters: .*period_ms uint")

    def test_a_kernel_that_does_not_boot(self):
        with TempDir() as tmp:
            fake = os.path.join(tmp, "vmlinuz")
            with open(fake, "wb") as f:
                f.write(b"not a kernel" * 100)
            rc, data, err = prove("corpus/misc-char-bug", "--kernel", fake,
                                  "--timeout", "60")
            self.assertEqual(rc, 2, err)
            self.assertRegex(data["runs"][0]["why"],
                             r"did not reach the test script \(last line: ")

    def test_no_emulator_is_named(self):
        with TempDir() as tmp:
            res = subprocess.run(
                [sys.executable, MODLIFE, "prove", "--cache-dir", PROVE_CACHE,
                 "corpus/misc-char-bug"], cwd=ROOT, capture_output=True,
                text=True, env=dict(os.environ, PATH=tmp))
        self.assertEqual(res.returncode, 2, res.stderr)
        self.assertEqual(res.stderr.strip().splitlines(), [
            "modlife: qemu-system-x86_64 missing: install Debian's "
            "qemu-system-x86 (as root: apt-get install qemu-system-x86)"])

    def test_sigterm_during_a_boot_leaves_nothing(self):
        import signal
        import time
        with TempDir() as tmp:
            p = subprocess.Popen(
                [MODLIFE, "prove", "--quiet", "--cache-dir", PROVE_CACHE,
                 "corpus/misc-char-bug"], cwd=ROOT,
                env=dict(os.environ, TMPDIR=tmp), stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True)
            for _ in range(600):
                if _qemu_processes(tmp):
                    break
                time.sleep(0.1)
            self.assertTrue(_qemu_processes(tmp), "no boot started")
            p.send_signal(signal.SIGTERM)
            out, err = p.communicate(timeout=60)
            self.assertEqual(p.returncode, 143, err)
            self.assertEqual(err.strip(), "modlife: terminated")
            time.sleep(0.5)
            self.assertEqual(_qemu_processes(tmp), [])
            self.assertEqual(os.listdir(tmp), [])

    def test_time_limit_leaves_nothing_behind(self):
        with TempDir() as tmp:
            rc, data, err = prove("corpus/misc-char-bug", "--timeout", "3",
                                  tmp=tmp)
            self.assertEqual(rc, 2, err)
            self.assertIn("time limit", data["runs"][0]["why"])
            self.assertEqual(os.listdir(tmp), [])
            self.assertEqual(_qemu_processes(tmp), [])


if __name__ == "__main__":
    unittest.main()
