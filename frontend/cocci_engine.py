# SPDX-License-Identifier: GPL-2.0-only
"""Runs the semantic patches in report mode over a batch of files."""
import os
import re
import subprocess
import tempfile

REPORT = re.compile(r"^(.*?):(\d+):(\d+)-(\d+): (.*)$")


def run_report(script, paths, timeout=200):
    """Returns (findings, errors) for one script over files."""
    findings, errors = [], []
    with tempfile.TemporaryDirectory(prefix="modlife-cocci-") as tmp:
        groups = os.path.join(tmp, "groups")
        with open(groups, "w") as f:
            f.write("\n\n".join(os.path.abspath(p) for p in paths) + "\n")
        cmd = ["spatch", "-D", "report", "--very-quiet", "--no-show-diff",
               "--no-includes", "--include-headers",
               "--timeout", str(timeout), "--tmp-dir", tmp,
               "--sp-file", script, "--file-groups", groups]
        try:
            res = subprocess.run(cmd, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, cwd=tmp,
                                 timeout=timeout * max(1, len(paths)))
        except (OSError, subprocess.TimeoutExpired) as e:
            return [], [(p, "spatch failed: %s" % e) for p in paths]
        out = res.stdout.decode("utf-8", "replace")
        err = res.stderr.decode("utf-8", "replace")
    for line in out.splitlines():
        m = REPORT.match(line)
        if m:
            findings.append({"file": m.group(1), "line": int(m.group(2)),
                             "column": int(m.group(3)) + 1,
                             "message": m.group(5)})
    for line in err.splitlines():
        m = re.search(r"EXN: .* in (\S+)", line)
        if m:
            errors.append((m.group(1), "spatch: " + line.strip()))
    if res.returncode != 0 and not findings:
        msg = (err.strip().splitlines() or ["exit %d" % res.returncode])[-1]
        errors += [(p, "spatch %s failed: %s" % (os.path.basename(script),
                                                 msg)) for p in paths]
    return findings, errors
