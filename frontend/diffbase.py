# SPDX-License-Identifier: GPL-2.0-only
"""--diff-base REV: keep only findings on lines a git change touched
(from REV to the working tree).

The repository is not trusted: its configuration can name commands (an
fsmonitor hook, diff drivers, textconv and clean filters) that "git diff"
would run. So git only resolves the revision and hands out REV's blobs
(rev-parse, ls-tree, cat-file, none of which runs those), and the
comparison with the working tree is done here. The revision goes after
--end-of-options: it cannot pass an option to git.
"""
import difflib
import os
import subprocess

# hooks git could still look up are off, whatever the repository says
GIT = ["git", "--literal-pathspecs", "-c", "core.fsmonitor=false",
       "-c", "core.hooksPath=/dev/null", "-c", "core.quotePath=false"]


class DiffError(Exception):
    pass


def _git(top, args, text=True):
    res = subprocess.run(GIT + ["-C", top] + args, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                         env=dict(os.environ, GIT_PAGER="cat",
                                  GIT_TERMINAL_PROMPT="0"))
    if res.returncode != 0:
        raise DiffError("git %s: %s" % (args[0], res.stderr.decode(
            "utf-8", "replace").strip()))
    return res.stdout.decode("utf-8", "surrogateescape") if text \
        else res.stdout


def _commit(top, rev):
    if not rev:
        raise DiffError("--diff-base needs a revision")
    try:
        return _git(top, ["rev-parse", "--verify", "--quiet",
                          "--end-of-options", rev + "^{commit}"]).strip()
    except DiffError:
        raise DiffError("%s is not a commit in %s" % (rev, top))


def _blobs(top, commit, rel):
    """{path relative to top: blob id} at commit, under rel."""
    out = {}
    data = _git(top, ["ls-tree", "-r", "-z", "--full-tree", commit, "--"] +
                [r for r in rel if r != "."])
    for entry in data.split("\0"):
        if "\t" not in entry:
            continue
        meta, name = entry.split("\t", 1)
        kind, blob = meta.split()[1:3]
        if kind == "blob":
            out[name] = blob
    return out


def _read_blobs(top, blobs):
    """{blob id: bytes} through one cat-file --batch."""
    if not blobs:
        return {}
    proc = subprocess.run(
        GIT + ["-C", top, "cat-file", "--batch"], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        input=("\n".join(blobs) + "\n").encode())
    if proc.returncode != 0:
        raise DiffError("git cat-file: %s" % proc.stderr.decode(
            "utf-8", "replace").strip())
    out, data, pos = {}, proc.stdout, 0
    while pos < len(data):
        end = data.index(b"\n", pos)
        head = data[pos:end].split()
        pos = end + 1
        if len(head) < 3:           # "<id> missing"
            continue
        size = int(head[2])
        out[head[0].decode()] = data[pos:pos + size]
        pos += size + 1
    return out


def _changed_lines(old, new):
    """Line numbers (1-based) of new that are not in old."""
    a = old.split(b"\n")
    b = new.split(b"\n")
    lines = set()
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag in ("replace", "insert"):
            lines.update(range(j1 + 1, j2 + 1))
    return lines


def _repos(paths):
    by_repo = {}
    for p in paths:
        d = p if os.path.isdir(p) else os.path.dirname(os.path.abspath(p))
        try:
            top = _git(d, ["rev-parse", "--show-toplevel"]).strip()
        except DiffError:
            raise DiffError("%s is not in a git work tree" % p)
        by_repo.setdefault(os.path.realpath(top), []).append(p)
    return by_repo


def check(rev, paths):
    """Raises DiffError unless paths are in git work trees that have
    rev as a commit."""
    for top in _repos(paths):
        _commit(top, rev)


def touched_lines(rev, paths, files):
    """{real path: set(lines)} of the files' lines added or changed since
    rev (all of them for a file REV does not have)."""
    out = {}
    for top, ps in _repos(paths).items():
        commit = _commit(top, rev)
        rel = sorted({os.path.relpath(os.path.realpath(p), top) for p in ps})
        blobs = _blobs(top, commit, rel)
        mine = {}
        for f in files:
            real = os.path.realpath(f)
            if real.startswith(top + os.sep):
                mine[real] = os.path.relpath(real, top)
        contents = _read_blobs(top, sorted({blobs[r] for r in mine.values()
                                            if r in blobs}))
        for real, r in mine.items():
            try:
                with open(real, "rb") as fh:
                    now = fh.read()
            except OSError:
                continue
            old = contents.get(blobs.get(r))
            if old is None:
                out[real] = set(range(1, now.count(b"\n") + 2))
            elif old != now:
                out[real] = _changed_lines(old, now)
    return out


def keep_touched(findings, touched):
    return [f for f in findings
            if f["line"] in touched.get(os.path.realpath(f["file"]), ())]
