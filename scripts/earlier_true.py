#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Which true findings of the earlier reviews of Linux 6.1 a scan still
reports.

    scripts/earlier_true.py SCAN.json...

SCAN.json: `modlife scan --format json` output, run from the top of the
6.1 tree over drivers/ sound/ net/ fs/ crypto/ (any subset). Reads every
docs/review/*-6.1*.tsv row judged true (and not already gone at the
commit its "after" column names) and every correct patch of
docs/review/fixes-6.1.md (but those of code no configuration builds),
and prints those the scans no longer report.
Exit status 1 when one is missing.
"""
import glob
import json
import os
import re
import sys

REVIEW = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "docs", "review")
DIRS = ("drivers", "sound", "net", "fs", "crypto")
# rule of the reviews whose rows name none
RULE_OF = {"exit-wait-principle": "unregister-wait-in-exit",
           "never-unregistered": "never-unregistered"}


def columns(header):
    """Column positions of finding, rule, verdict and after, from the
    last '# finding ...' comment or a plain header row."""
    names = [c.strip().lstrip("# ").lower() for c in header.split("\t")]
    pos = {}
    for key in ("finding", "rule", "verdict", "after"):
        for i, n in enumerate(names):
            if n == key or (key == "after" and n.startswith("reported at")):
                pos[key] = i
    return pos


def true_rows(path):
    name = os.path.basename(path)
    rule_of = next((r for p, r in RULE_OF.items() if name.startswith(p)),
                   None)
    pos, out = None, []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("# finding") or line.startswith("finding\t") or \
                line.startswith("number\t"):
            pos = columns(line)
            continue
        if line.startswith("#") or not line.strip() or not pos:
            continue
        c = line.split("\t")
        get = lambda k: c[pos[k]] if k in pos and pos[k] < len(c) else ""
        m = re.match(r"(.*?):(\d+)$", get("finding"))
        if not m or get("verdict").strip().upper() != "TRUE":
            continue
        after = get("after").lower()
        if "gone" in after and "new" not in after:
            continue
        if m.group(1).split("/")[0] not in DIRS:
            continue
        out.append((m.group(1), int(m.group(2)), get("rule") or rule_of))
    return out


def correct_patches():
    out = []
    for line in open(os.path.join(REVIEW, "fixes-6.1.md"), encoding="utf-8"):
        if not re.match(r"\| \d{4} ", line):
            continue
        cells = [c.strip() for c in line.split("|")]
        # no configuration builds it (BROKEN): no module code
        if "not module code" in cells[5]:
            continue
        if "correct" in cells:
            out.append((re.findall(r"`([^`]+)`", cells[2]),
                        [r.strip() for r in cells[3].split(",")]))
    return out


def main(argv):
    found = set()
    for p in argv:
        with open(p) as f:
            for x in json.load(f)["findings"]:
                found.add((x["file"], x["line"], x["rule"]))
    by_file = {(f, r) for f, _, r in found}
    rows = set()
    for tsv in sorted(glob.glob(os.path.join(REVIEW, "*-6.1*.tsv"))):
        if re.search(r"-6\.1(-[a-z]|\.tsv)", os.path.basename(tsv)):
            rows.update(true_rows(tsv))
    missing = sorted(rows - found)
    patches = correct_patches()
    lost = [(fs, rs) for fs, rs in patches
            if not any((f, r) in by_file for f in fs for r in rs)]
    print("true findings read: %d, still reported: %d"
          % (len(rows), len(rows) - len(missing)))
    print("correct patches: %d, finding still reported: %d"
          % (len(patches), len(patches) - len(lost)))
    for f, line, r in missing:
        print("missing: %s:%d %s" % (f, line, r))
    for fs, rs in lost:
        print("missing: %s %s" % (" ".join(fs), ",".join(rs)))
    return 1 if missing or lost else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
