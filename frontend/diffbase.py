# SPDX-License-Identifier: GPL-2.0-only
"""--diff-base REV: keep only findings on lines a git change touched
(from REV to the working tree)."""
import os
import re
import subprocess

HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


class DiffError(Exception):
    pass


def touched_lines(rev, paths):
    """{absolute path: set(lines)} of lines added or changed since rev."""
    out = {}
    by_repo = {}
    for p in paths:
        d = p if os.path.isdir(p) else os.path.dirname(os.path.abspath(p))
        res = subprocess.run(["git", "-C", d, "rev-parse", "--show-toplevel"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        if res.returncode != 0:
            raise DiffError("%s is not in a git work tree" % p)
        by_repo.setdefault(res.stdout.strip(), []).append(os.path.abspath(p))
    for top, ps in by_repo.items():
        res = subprocess.run(["git", "-C", top, "diff", "-U0", "--no-color",
                              "--no-ext-diff", rev, "--"] + ps,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, errors="replace")
        if res.returncode != 0:
            raise DiffError("git diff %s: %s" % (rev, res.stderr.strip()))
        current = None
        for line in res.stdout.splitlines():
            if line.startswith("+++ "):
                name = line[4:]
                current = (os.path.join(top, name[2:])
                           if name.startswith("b/") else None)
                if current:
                    out.setdefault(current, set())
                continue
            m = HUNK.match(line)
            if m and current:
                start = int(m.group(1))
                count = int(m.group(2)) if m.group(2) is not None else 1
                out[current].update(range(start, start + count))
    return out


def keep_touched(findings, touched):
    return [f for f in findings
            if f["line"] in touched.get(os.path.abspath(f["file"]), ())]
