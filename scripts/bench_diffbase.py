#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""make bench-diff: scan --diff-base on a whole linux-source tree under
git, one driver changed, cold fact cache, wall time on this machine's
cores. The git tree is a hard-linked copy of the source tree made once
(Debian's top .gitignore, which ignores everything at the top, is
replaced); a change replaces a file, never writes through a link."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
MODLIFE = os.path.join(ROOT, "modlife")

# (what, file, line removed or text appended to a header, rules, expected
# finding "file:line:rule" or None)
CHANGES = [
    ("fops .owner deleted", "drivers/misc/pci_endpoint_test.c",
     "\t.owner = THIS_MODULE,\n", None,
     "drivers/misc/pci_endpoint_test.c:782:missing-owner"),
    ("del_timer_sync() removed from module_exit",
     "drivers/char/hangcheck-timer.c",
     "\tdel_timer_sync(&hangcheck_ticktock);\n", "all",
     "drivers/char/hangcheck-timer.c:148:exit-pending-timer"),
    ("module-local header touched (every includer checked)",
     "drivers/net/ethernet/intel/e1000e/e1000.h", None, None, None),
]


def git(top, *args):
    subprocess.run(["git", "-c", "user.name=bench", "-c",
                    "user.email=bench@example.org", "-c", "gc.auto=0"] +
                   list(args), cwd=top, check=True, stdout=subprocess.DEVNULL)


def make_repo(src, top):
    if os.path.isdir(os.path.join(top, ".git")):
        return
    if os.path.exists(top):
        shutil.rmtree(top)
    t0 = time.time()
    subprocess.run(["cp", "-al", src, top], check=True)
    ign = os.path.join(top, ".gitignore")
    with open(ign) as f:
        keep = [ln for ln in f if ln.strip() != "/*"]
    os.unlink(ign)
    with open(ign, "w") as f:
        f.writelines(keep)
    git(top, "init", "-q")
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "linux-source")
    print("git tree made in %.0f s" % (time.time() - t0))


def replace(path, data):
    tmp = path + ".bench-new"
    with open(tmp, "w") as f:
        f.write(data)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", required=True)
    ap.add_argument("--git-tree", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    top = os.path.abspath(a.git_tree)
    make_repo(os.path.abspath(a.tree), top)
    bad = 0
    for what, rel, line, rules, want in CHANGES:
        path = os.path.join(top, rel)
        with open(path) as f:
            orig = f.read()
        if line is None:
            new = orig + "/* touched */\n"
        else:
            assert line in orig, (rel, line)
            new = orig.replace(line, "", 1)
        replace(path, new)
        try:
            with tempfile.TemporaryDirectory(prefix="modlife-bench-") as c:
                cmd = [MODLIFE, "scan", "--quiet", "--stats", "--format",
                       "json", "--jobs", str(a.jobs), "--cache-dir", c,
                       "--diff-base", "HEAD", "."]
                if rules:
                    cmd[2:2] = ["--rules", rules]
                t0 = time.time()
                res = subprocess.run(cmd, cwd=top, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
                wall = time.time() - t0
        finally:
            replace(path, orig)
        found = ["%s:%d:%s" % (f["file"], f["line"], f["rule"])
                 for f in json.loads(res.stdout)["findings"]] \
            if res.stdout else []
        ok = found == ([want] if want else []) and res.returncode in (0, 1)
        bad += not ok
        stats = [ln for ln in res.stderr.splitlines() if "checked" in ln]
        print("%-52s %5.1f s wall, cold cache, %d jobs: %s%s" % (
            what, wall, a.jobs, ", ".join(found) or "no new finding",
            "" if ok else "  UNEXPECTED (rc %d)" % res.returncode))
        for s in stats:
            print("    " + s)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
