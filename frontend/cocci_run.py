# SPDX-License-Identifier: GPL-2.0-only
"""modlife cocci: the semantic patches over a tree, prefiltered.

spatch's own prefilter is a disjunction of a script's tokens; most kernel
files mention "device" or "release". Each script here names what a file
must contain to match at all, on its "// Prefilter:" line: groups
separated by ';', all required, each a '|' list of alternatives (plain
substrings, so comments count too: a superset of the files that can
match). Each file is read once for all scripts; each script then runs
once, with the candidate files as separate groups (--file-groups) over
--jobs processes, so the output is what coccicheck prints.
"""
import os
import subprocess
import sys
import tempfile

from .cocci_engine import TIMEOUT, spatch_options


def prefilter(script):
    """[[alternatives], ...] from the script's Prefilter line, or None."""
    try:
        with open(script, encoding="utf-8") as f:
            for line in f:
                if line.startswith("// Prefilter:"):
                    spec = line.split(":", 1)[1]
                    return [[t.strip().encode() for t in g.split("|")
                             if t.strip()]
                            for g in spec.split(";") if g.strip()]
    except OSError:
        pass
    return None


def candidates(scripts, files, errors):
    """{script: [files that may match]}; unreadable files go to errors."""
    wants = {s: prefilter(s) for s in scripts}
    out = {s: [] for s in scripts}
    for path in files:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            errors.append((path, "cannot read: %s" % e.strerror))
            continue
        for s, groups in wants.items():
            if groups is None or all(any(t in data for t in g)
                                     for g in groups):
                out[s].append(path)
    return out


def run(script, files, mode, jobs, out=None, err=None):
    """spatch -D mode over the files, one group each; output passed
    through. Returns spatch's exit status (0 when no file)."""
    out = out or sys.stdout
    err = err or sys.stderr
    if not files:
        return 0
    with tempfile.TemporaryDirectory(prefix="modlife-cocci-") as tmp:
        groups = os.path.join(tmp, "groups")
        with open(groups, "w") as f:
            f.write("\n\n".join(os.path.abspath(p) for p in files) + "\n")
        cmd = ["spatch", "-D", mode, "--very-quiet"]
        if mode in ("report", "org"):
            cmd.append("--no-show-diff")
        cmd += spatch_options(script) + [
            "--timeout", str(TIMEOUT), "--tmp-dir", tmp,
            "--jobs", str(max(1, jobs)), "--chunksize", "1",
            "--sp-file", script, "--file-groups", groups]
        try:
            res = subprocess.run(cmd, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, cwd=tmp)
        except OSError as e:
            err.write("modlife: cannot run spatch: %s\n" % e)
            return 2
    cwd = os.getcwd() + os.sep
    for line in res.stdout.decode("utf-8", "replace").splitlines():
        # paths as given: relative to the current directory when inside
        out.write(line.replace(cwd, "") + "\n")
    for line in res.stderr.decode("utf-8", "replace").splitlines():
        if line.strip():
            err.write("modlife: spatch %s: %s\n" %
                      (os.path.basename(script), line))
    return res.returncode
