#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""make bench: modlife-sparse against Debian's plain sparse on the same real
kernel files with the same flags and parallelism; CPU time of the checker
processes (user+sys), best of several rounds, and the ratio."""
import argparse
import concurrent.futures
import os
import resource
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from frontend import paths
from frontend.tree import kflags  # noqa: E402
from frontend.tree.kconfig import Kconfig  # noqa: E402
from frontend.tree.modules import ModuleMap  # noqa: E402

DIRS = ("drivers/char", "drivers/misc", "drivers/platform/x86")


def files_of(tree, limit):
    out = []
    for d in DIRS:
        for dirpath, _, names in os.walk(os.path.join(tree, d)):
            out += [os.path.join(dirpath, n) for n in sorted(names)
                    if n.endswith(".c")]
    out.sort()
    step = max(1, len(out) // limit)
    return out[::step][:limit]


def run_all(cmds, jobs):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(lambda c: subprocess.run(
            c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), cmds))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                before.ru_stime)
    return cpu, time.time() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", required=True)
    ap.add_argument("--files", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    kdir = paths.default_kdir()
    base = kflags.kernel_flags(kdir)
    mmap = ModuleMap(Kconfig(tree=a.tree, kdir=kdir))
    files = files_of(a.tree, a.files)
    flags = {}
    for f in files:
        place = mmap.resolve(f)
        flags[f] = kflags.file_flags(base, f, place.module,
                                     place.modname) + \
            mmap.flags(f)
    plain = [["sparse"] + flags[f] + [f] for f in files]
    ours = [[paths.sparse_binary(), "--modlife-facts=/dev/null",
             "--modlife-kb=" + paths.kb_file()] + flags[f] + [f]
            for f in files]
    best = {"sparse": None, "modlife-sparse": None}
    for _ in range(a.rounds):
        for name, cmds in (("sparse", plain), ("modlife-sparse", ours)):
            cpu, wall = run_all(cmds, a.jobs)
            if best[name] is None or cpu < best[name][0]:
                best[name] = (cpu, wall)
    s, m = best["sparse"], best["modlife-sparse"]
    print("bench: %d files of %s, --jobs %d, best of %d rounds"
          % (len(files), ", ".join(DIRS), a.jobs, a.rounds))
    print("  sparse          cpu %7.2f s  wall %6.2f s" % s)
    print("  modlife-sparse  cpu %7.2f s  wall %6.2f s" % m)
    ratio = m[0] / s[0] if s[0] else float("inf")
    print("  ratio (cpu)     %.3fx  (goal <= 1.15x): %s"
          % (ratio, "ok" if ratio <= 1.15 else "OVER"))
    scan_bench(a)
    return 0


def scan_bench(a):
    """The front end on whole directories: cold against warm cache, and the
    link step's share of the scan."""
    import re
    import tempfile
    modlife = os.path.join(os.path.dirname(__file__), "..", "modlife")
    dirs = [os.path.join(a.tree, d) for d in DIRS]
    stats = re.compile(r"(\d+) checked.*?; ([\d.]+) s, link ([\d.]+) s")
    with tempfile.TemporaryDirectory() as cache:
        out = []
        for _ in range(2):
            res = subprocess.run([modlife, "scan", "--quiet", "--stats",
                                  "--no-cocci", "--cache-dir", cache,
                                  "--jobs", str(a.jobs)] + dirs,
                                 stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
            m = stats.search(res.stderr)
            out.append((int(m.group(1)), float(m.group(2)),
                        float(m.group(3))))
    (n, cold, link1), (_, warm, link2) = out
    print("scan: %d module files of %s" % (n, ", ".join(DIRS)))
    print("  cold %.2f s (link %.3f s = %.1f%%), warm cache %.2f s: %.1fx "
          "(goal >= 20x): %s" % (cold, link1, 100 * link1 / cold, warm,
                                 cold / warm,
                                 "ok" if cold / warm >= 20 else "UNDER"))


if __name__ == "__main__":
    sys.exit(main())
