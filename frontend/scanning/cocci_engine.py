# SPDX-License-Identifier: GPL-2.0-only
"""Runs the semantic patches in report mode over files."""
import os
import re
import subprocess
import sys
import tempfile

from .staging import Staged

REPORT = re.compile(r"^(.*?):(\d+):(\d+)-(\d+): (.*)$")


def _timeout():
    """MODLIFE_SPATCH_TIMEOUT in seconds (default 200); a value that is no
    positive number is named and the default used."""
    value = os.environ.get("MODLIFE_SPATCH_TIMEOUT", "200")
    try:
        n = int(value)
        if n > 0:
            return n
    except ValueError:
        pass
    sys.stderr.write("modlife: MODLIFE_SPATCH_TIMEOUT=%r is not a number of "
                     "seconds; using 200\n" % value)
    return 200


TIMEOUT = _timeout()


def spatch_options(script):
    """The options of the script's '// Options:' line, as coccicheck."""
    try:
        with open(script) as f:
            for line in f:
                if "Options:" in line:
                    return line.split(":", 2)[1].split()
    except OSError:
        pass
    return []


def run_report(scripts, paths, timeout=None, cache=None):
    """Returns (findings, errors); each finding names its script. cache:
    a CocciCache that holds each script's results per file."""
    timeout = timeout or TIMEOUT
    findings, errors = [], []
    for script in scripts:
        name = os.path.basename(script)
        todo = []
        for p in paths:
            key = cache.key(script, p) if cache else None
            hit = cache.get(key) if key else None
            if hit is None:
                todo.append((p, key))
                continue
            findings += [{"file": p, "line": line, "column": col,
                          "message": msg, "script": name}
                         for line, col, msg in hit[0]]
            errors += [(p, msg) for msg in hit[1]]
        if not todo:
            continue
        f, e = _run_one(script, [p for p, _ in todo], timeout)
        findings += f
        errors += e
        for p, key in todo:
            # only what spatch said about the bytes the key was made of
            if key and cache.key(script, p) == key:
                cache.put(key, [(x["line"], x["column"], x["message"])
                                for x in f if x["file"] == p],
                          [msg for q, msg in e if q == p])
    return findings, errors


def _run_one(script, paths, timeout):
    findings, errors = [], []
    name = os.path.basename(script)
    with tempfile.TemporaryDirectory(prefix="modlife-cocci-") as tmp:
        try:
            staged = Staged(tmp, paths)
        except OSError as e:
            return [], [(p, "cannot stage for spatch: %s" % e.strerror)
                        for p in paths]
        cmd = (["spatch", "-D", "report", "--very-quiet", "--no-show-diff"] +
               spatch_options(script) +
               ["--timeout", str(timeout), "--tmp-dir", tmp,
                "--sp-file", script] + staged.paths)
        try:
            res = subprocess.run(cmd, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, cwd=tmp,
                                 stdin=subprocess.DEVNULL,
                                 timeout=timeout * len(paths) + 30)
        except subprocess.TimeoutExpired:
            return [], [(p, "spatch %s timed out" % name) for p in paths]
        except OSError as e:
            return [], [(p, "cannot run spatch: %s" % e) for p in paths]
    out = res.stdout.decode("utf-8", "replace")
    err = res.stderr.decode("utf-8", "replace")
    for line in out.splitlines():
        m = REPORT.match(line)
        if m and m.group(1) in staged.original:
            findings.append({"file": staged.original[m.group(1)],
                             "line": int(m.group(2)),
                             "column": int(m.group(3)) + 1,
                             "message": m.group(5), "script": name})
    for line in err.splitlines():
        m = re.search(r"EXN: (.*) in (\S+)", line)
        if m:
            what = "timed out" if "Timeout" in m.group(1) else m.group(1)
            errors.append((staged.original.get(m.group(2), m.group(2)),
                           "spatch %s: %s" % (name, what)))
    if res.returncode != 0 and not errors:
        msg = (err.strip().splitlines() or ["exit %d" % res.returncode])[-1]
        if "Timeout" in msg:
            msg = "timed out after %d s" % timeout
        errors += [(p, "spatch %s failed: %s" % (name, staged.unstage(msg)))
                   for p in paths]
    return findings, errors
