#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""make review-fixes: every patch of `modlife fix --format-patch` on a
kernel tree is applied to a private copy, its module built with kbuild
before and after (KDIR's .config, the module's options and what they
depend on turned on, COMPILE_TEST), and the patched files re-scanned.
Writes one JSON record per patch; the verdicts are a person's
(docs/review/fixes-6.1.md).

The copy is hard-linked (patch replaces the files it changes, so the
source tree is never written) and configured once; objects go to O=."""
import argparse
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from frontend import paths  # noqa: E402
from frontend.tree.kconfig import Kconfig  # noqa: E402
from frontend.tree.modules import ModuleMap  # noqa: E402

MODLIFE = os.path.join(paths.ROOT, "modlife")
WARNING = re.compile(r"^(\S+?):\d+:\d+: warning: (.*)$")


def sh(cmd, timeout=None, **kw):
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              errors="replace", timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        return None


def read_patch(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    files = re.findall(r"^\+\+\+ b/(\S+)$", text, re.M)
    subject = re.search(r"^Subject: \[PATCH[^\]\n]*\] (.*)$", text, re.M)
    # "Found by the modlife static checker (rule, rule)."
    credit = re.search(r"static\s+checker\s+\(([a-z,\s-]+)\)", text)
    # patches of several runs share numbers: name the directory too
    name = os.path.join(os.path.basename(os.path.dirname(path)),
                        os.path.basename(path))
    return {"patch": name, "path": path, "files": files,
            "subject": subject.group(1) if subject else "",
            "rules": sorted(set(re.findall(r"[a-z-]+", credit.group(1))))
            if credit else []}


def with_dependencies(kconfig, options, depth=3):
    """The options, what they depend on, and for an option KDIR leaves
    off that only a select turns on (RPMSG, INTEL_SCU) one that selects
    it."""
    selected_by = {}
    for sym, sel in kconfig.selects.items():
        for t in sel:
            selected_by.setdefault(t, []).append(sym)
    out, todo = set(), set(options)
    for _ in range(depth):
        nxt = set()
        for o in todo - out:
            out.add(o)
            nxt |= set(kconfig.depends.get(o, ()))
            if kconfig.value(o) not in ("y", "m") and selected_by.get(o):
                # the selector whose own dependencies KDIR meets best
                nxt.add(min(sorted(selected_by[o]), key=lambda c: sum(
                    kconfig.value(d) not in ("y", "m")
                    for d in kconfig.depends.get(c, ()))))
        todo = nxt
    return out | todo


def configure(tree, out, kdir, kconfig, options, log):
    """KDIR's .config with COMPILE_TEST and the options on; returns the
    resulting {option: value}."""
    os.makedirs(out, exist_ok=True)
    cfg = os.path.join(out, ".config")
    with open(os.path.join(kdir, ".config")) as f:
        base = f.read()
    lines = [base, "CONFIG_COMPILE_TEST=y"]
    for o in sorted(options):
        if o in kconfig.tristate:
            lines.append("%s=m" % o)
        elif o in kconfig.bool:
            lines.append("%s=y" % o)
    with open(cfg, "w") as f:
        f.write("\n".join(lines) + "\n")
    for target in ("olddefconfig", "modules_prepare"):
        res = sh(["make", "-s", "-C", tree, "O=" + out, "-j%d" % jobs(),
                  target])
        log.write(res.stdout)
        if res.returncode:
            sys.exit("review-fixes: make %s failed (see the log)" % target)
    got = {}
    with open(cfg) as f:
        for line in f:
            m = re.match(r"^(CONFIG_\w+)=(.*)$", line.strip())
            if m:
                got[m.group(1)] = m.group(2)
    return got


def jobs():
    return os.cpu_count() or 1


def build(tree, out, target, timeout):
    t0 = time.time()
    res = sh(["make", "-C", tree, "O=" + out, "-j%d" % jobs(),
              "KBUILD_MODPOST_WARN=1", target], timeout=timeout)
    if res is None:
        return {"ok": False, "why": "timed out after %d s" % timeout,
                "warnings": [], "seconds": timeout}
    warnings = sorted({"%s: %s" % (os.path.basename(m.group(1)), m.group(2))
                       for m in map(WARNING.match, res.stdout.splitlines())
                       if m})
    ok = res.returncode == 0 and os.path.isfile(os.path.join(out, target))
    errors = [ln for ln in res.stdout.splitlines()
              if ": error: " in ln or ln.startswith("ERROR:")]
    return {"ok": ok, "warnings": warnings, "errors": errors[:5],
            "seconds": round(time.time() - t0, 1)}


def rescan(tree, files, cache):
    res = sh([MODLIFE, "scan", "--quiet", "--format", "json", "--rules",
              "all", "--cache-dir", cache] + files, cwd=tree)
    try:
        return json.loads(res.stdout)["findings"]
    except ValueError:
        return None


def review(p, tree, out, mmap, config, cache, timeout, log):
    rec = dict(p)
    rec.pop("path")
    places = [mmap.resolve(os.path.join(tree, f)) for f in p["files"]]
    keys = sorted({os.path.relpath(pl.key, tree) for pl in places})
    rec["modules"] = keys
    options = sorted({o for pl in places for o in pl.options})
    rec["options"] = options
    off = [o for o in options if config.get(o) not in ("y", "m")]
    if sh(["patch", "-p1", "--dry-run", "-s", "-d", tree, "-i",
           p["path"]]).returncode:
        rec["applies"] = False
        return rec
    rec["applies"] = True
    # an option something selects as =y (PSTORE by ACPI_APEI) builds the
    # module into the kernel: its objects are what can be built
    targets = [k + ".ko" for k in keys]
    if any(config.get(o) == "y" for o in options
           if o in mmap.kconfig.tristate):
        targets = [os.path.splitext(f)[0] + ".o" for f in p["files"]
                   if f.endswith(".c")]
        rec["built_in"] = True
    if off:
        rec["built"] = "not built: %s off on x86 with COMPILE_TEST" % \
            ", ".join(off)
    else:
        before = [build(tree, out, t, timeout) for t in targets]
    res = sh(["patch", "-p1", "-s", "-d", tree, "-i", p["path"]])
    log.write(res.stdout)
    try:
        if not off:
            after = [build(tree, out, t, timeout) for t in targets]
            new = sorted(set(w for a in after for w in a["warnings"]) -
                         set(w for b in before for w in b["warnings"]))
            rec["built"] = "yes" if all(a["ok"] for a in after) else \
                "no: " + "; ".join(e for a in after for e in
                                   a.get("errors") or [a.get("why", "")])
            rec["built_before"] = all(b["ok"] for b in before)
            rec["new_warnings"] = new
            rec["build_seconds"] = sum(a["seconds"] for a in before + after)
        left = rescan(tree, [f for f in p["files"] if f.endswith(".c")],
                      cache)
        if not p["rules"]:
            # a re-scan could not tell what the patch should have fixed
            left = None
        rec["rescan"] = None if left is None else [
            "%s:%d:%s" % (f["file"], f["line"], f["rule"]) for f in left
            if f["rule"] in p["rules"]]
    finally:
        res = sh(["patch", "-R", "-p1", "-s", "-d", tree, "-i", p["path"]])
        log.write(res.stdout)
        if res.returncode:
            sys.exit("review-fixes: could not revert %s" % p["patch"])
    return rec


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", required=True, help="kernel source tree")
    ap.add_argument("--kdir", default=paths.default_kdir())
    ap.add_argument("--work", required=True,
                    help="scratch directory: tree copy, objects, cache")
    ap.add_argument("--timeout", type=int, default=1800,
                    help="seconds per module build")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("patches", nargs="+", help="patch files or directories")
    a = ap.parse_args()
    work = os.path.abspath(a.work)
    tree = os.path.join(work, "tree")
    out = os.path.join(work, "out")
    if not os.path.isdir(tree):
        subprocess.run(["cp", "-al", os.path.abspath(a.tree), tree],
                       check=True)
    found = []
    for p in a.patches:
        if os.path.isdir(p):
            found += [os.path.join(p, n) for n in sorted(os.listdir(p))
                      if n.endswith(".patch")]
        else:
            found.append(p)
    patches = [read_patch(p) for p in found]
    kconfig = Kconfig(tree=tree, kdir=a.kdir)
    mmap = ModuleMap(kconfig)
    options = set()
    for p in patches:
        for f in p["files"]:
            options |= set(mmap.resolve(os.path.join(tree, f)).options)
    with open(os.path.join(work, "review.log"), "w") as log:
        config = configure(tree, out, a.kdir, kconfig,
                           with_dependencies(kconfig, options), log)
        records = []
        for i, p in enumerate(patches, 1):
            rec = review(p, tree, out, mmap, config,
                         os.path.join(work, "cache"), a.timeout, log)
            records.append(rec)
            print("%3d/%d %s: applies %s, built %s, rescan %s" % (
                i, len(patches), p["patch"], rec.get("applies"),
                rec.get("built"), rec.get("rescan")), flush=True)
            with open(a.output, "w") as f:
                json.dump(records, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
