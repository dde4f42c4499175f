#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""make bench-cocci: each semantic patch over one directory of a kernel
tree, run by the kernel's own 'make coccicheck MODE=report M=DIR' and by
'modlife cocci' (prefiltered), with the same parallelism. Prints wall and
CPU time of both, the ratio, and whether both reported the same lines."""
import argparse
import os
import re
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MODLIFE = os.path.join(HERE, "..", "modlife")
REPORT = re.compile(r"^(\S+?):(\d+):(\d+)-(\d+): (.*)$")


def timed(cmd, cwd, env=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    res = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    wall = time.time() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                before.ru_stime)
    return res, wall, cpu


def lines(text, tree):
    out = set()
    for ln in text.splitlines():
        m = REPORT.match(ln)
        if m:
            path = os.path.normpath(os.path.join(tree, m.group(1)))
            out.add((os.path.relpath(path, tree),) + m.group(2, 3, 4, 5))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", required=True)
    ap.add_argument("--dir", default="drivers")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--scripts", default=None,
                    help="comma-separated script names (default: all)")
    a = ap.parse_args()
    tree = os.path.abspath(a.tree)
    cocci = os.path.join(HERE, "..", "cocci")
    names = sorted(f for f in os.listdir(cocci) if f.endswith(".cocci"))
    if a.scripts:
        names = [n if n.endswith(".cocci") else n + ".cocci"
                 for n in a.scripts.split(",")]
    sys.path.insert(0, os.path.join(HERE, ".."))
    from frontend.rules import rule_for_script
    # the tree's .cocciconfig asks for git grep; the unpacked tree is no
    # git work tree of its own: keep git from finding an outer one
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=os.path.dirname(tree))
    print("bench-cocci: %s/ of %s, --jobs %d" % (a.dir, tree, a.jobs))
    print("  %-30s %22s %22s %7s  %s" % ("script", "coccicheck wall/cpu",
                                        "modlife wall/cpu", "ratio",
                                        "same findings"))
    tot = [0.0, 0.0]
    ok = True
    for n in names:
        script = os.path.abspath(os.path.join(cocci, n))
        kres, kwall, kcpu = timed(
            ["make", "coccicheck", "COCCI=" + script, "MODE=report",
             "M=" + a.dir, "J=%d" % a.jobs], tree, env)
        mres, mwall, mcpu = timed(
            [MODLIFE, "cocci", "--jobs", str(a.jobs), "--rules",
             rule_for_script(n), a.dir], tree)
        same = lines(kres.stdout, tree) == lines(mres.stdout, tree)
        ok = ok and same
        tot[0] += kwall
        tot[1] += mwall
        print("  %-30s %10.1f/%9.1f s %10.1f/%9.1f s %6.1fx  %s (%d)" % (
            n, kwall, kcpu, mwall, mcpu, kwall / max(mwall, 0.01),
            "yes" if same else "NO", len(lines(mres.stdout, tree))))
    ratio = tot[0] / max(tot[1], 0.01)
    print("  total wall: coccicheck %.1f s, modlife cocci %.1f s: %.1fx "
          "(goal >= 5x): %s" % (tot[0], tot[1], ratio,
                                "ok" if ratio >= 5 and ok else "UNDER"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
