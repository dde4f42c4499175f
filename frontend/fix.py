# SPDX-License-Identifier: GPL-2.0-only
"""./modlife fix: apply the semantic patches' safe fixes, file by file.

Each file is patched in a private copy by every script in turn; if the
result differs, the diff is printed and (unless --dry-run) the file is
replaced atomically: written beside it, then renamed over it, keeping its
mode. A file no script changes is never touched; a spatch that fails or
times out leaves its file as it was and is reported.
"""
import difflib
import os
import shutil
import subprocess
import tempfile

from . import paths
from .cocci_engine import TIMEOUT, spatch_options
from .rules import RULES


def scripts(rules):
    d = paths.cocci_dir()
    out = []
    for r in sorted(rules):
        s = RULES[r].get("cocci")
        if d and s and os.path.isfile(os.path.join(d, s)):
            out.append(os.path.join(d, s))
    return out


def fix_file(path, sps, timeout=None):
    """Returns (new text or None, error or None)."""
    timeout = timeout or TIMEOUT
    with open(path, "rb") as f:
        original = f.read()
    with tempfile.TemporaryDirectory(prefix="modlife-fix-") as tmp:
        copy = os.path.join(tmp, os.path.basename(path))
        with open(copy, "wb") as f:
            f.write(original)
        for sp in sps:
            cmd = (["spatch", "-D", "patch", "--very-quiet", "--no-show-diff",
                    "--in-place", "--timeout", str(timeout), "--tmp-dir",
                    tmp] + spatch_options(sp) + ["--sp-file", sp, copy])
            try:
                res = subprocess.run(cmd, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=tmp,
                                     timeout=timeout + 30)
            except subprocess.TimeoutExpired:
                return None, "spatch %s timed out" % os.path.basename(sp)
            err = res.stderr.decode("utf-8", "replace")
            if "Timeout" in err:
                return None, "spatch %s timed out after %d s" % (
                    os.path.basename(sp), timeout)
            if res.returncode != 0 or "EXN" in err:
                return None, "spatch %s failed: %s" % (
                    os.path.basename(sp),
                    (err.strip().splitlines() or ["exit %d"
                                                  % res.returncode])[-1])
        with open(copy, "rb") as f:
            new = f.read()
    return (new if new != original else None), None


def write_atomic(path, data):
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".modlife-fix-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def diff(path, old, new):
    a = old.decode("utf-8", "replace").splitlines(True)
    b = new.decode("utf-8", "replace").splitlines(True)
    return "".join(difflib.unified_diff(a, b, "a/" + path, "b/" + path))


def run(files, rules, dry_run, out, err):
    """Returns (files changed, errors)."""
    sps = scripts(rules)
    changed, errors = 0, 0
    for path in files:
        try:
            new, problem = fix_file(path, sps)
        except OSError as e:
            new, problem = None, str(e)
        if problem:
            err.write("%s: error: %s; file left as it was\n" % (path, problem))
            errors += 1
            continue
        if new is None:
            continue
        with open(path, "rb") as f:
            old = f.read()
        rel = os.path.relpath(path)
        out.write(diff(path if rel.startswith("..") else rel, old, new))
        if not dry_run:
            write_atomic(path, new)
        changed += 1
    return changed, errors
