# SPDX-License-Identifier: GPL-2.0-only
"""--diff-base REV: the files a git change touched (from REV to the
working tree, staged or not, untracked files included), and REV's text
of each.

The repository is not trusted: its configuration can name commands (an
fsmonitor hook, diff drivers, textconv and clean filters) that "git diff"
would run. So git only resolves the revision and hands out REV's blobs
(rev-parse, ls-tree, cat-file, ls-files, none of which runs those), and
the comparison with the working tree is done here: a file whose stat
data matches the index has the index's blob, any other is hashed here.
The revision goes after --end-of-options: it cannot pass an option to
git.
"""
import hashlib
import os
import re
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


# what the scan reads: sources and their headers
SOURCES = (".c", ".h")

_ENTRY = re.compile(
    rb"(\d+) ([0-9a-f]+) (\d)\t([^\0]*)\0"
    rb"  ctime: \d+:\d+\n  mtime: (\d+):(\d+)\n"
    rb"  dev: \d+\tino: (\d+)\n  uid: \d+\tgid: \d+\n"
    rb"  size: (\d+)\tflags: [0-9a-f]+\n")


def _blob_id(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _index(top, rel):
    """{path: (blob, mtime ns, ino, size, stage)} of the index under rel,
    and the index file's mtime (ns)."""
    data = _git(top, ["ls-files", "-s", "--debug", "-z", "--"] +
                [r for r in rel if r != "."], text=False)
    out = {}
    for m in _ENTRY.finditer(data):
        name = m.group(4).decode("utf-8", "surrogateescape")
        out[name] = (m.group(2).decode(),
                     int(m.group(5)) * 10**9 + int(m.group(6)),
                     int(m.group(7)), int(m.group(8)), m.group(3) != b"0")
    idx = _git(top, ["rev-parse", "--git-path", "index"]).strip()
    try:
        stamp = os.stat(os.path.join(top, idx)).st_mtime_ns
    except OSError:
        stamp = 0
    return out, stamp


def _untracked(top, rel):
    data = _git(top, ["ls-files", "-o", "--exclude-standard", "-z", "--"] +
                [r for r in rel if r != "."], text=False)
    return [n.decode("utf-8", "surrogateescape")
            for n in data.split(b"\0") if n]


def _safe_name(name):
    """A path git may hand out that stays inside the work tree: a crafted
    tree can name "..", which would lead the private copy of REV's text
    out of its directory."""
    parts = name.split("/")
    return bool(name) and not name.startswith("/") and all(
        p not in ("", ".", "..") for p in parts)


def _worktree_blob(path, entry, stamp):
    """The blob id of the file as it is, or None when it is gone."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if entry and not entry[4] and st.st_size == entry[3] and \
            st.st_ino == entry[2] and st.st_mtime_ns == entry[1] and \
            st.st_mtime_ns < stamp:
        return entry[0]     # what git itself would trust
    try:
        if os.path.islink(path):
            return _blob_id(os.fsencode(os.readlink(path)))
        with open(path, "rb") as f:
            return _blob_id(f.read())
    except OSError:
        return None


class Change:
    """One git work tree's change: {real path: REV's bytes, or None when
    REV has no such file} for files that exist now, and {real path:
    REV's bytes} of files the work tree no longer has."""

    def __init__(self, top, rev):
        self.top, self.rev = top, rev
        self.old, self.deleted = {}, {}


def changes(rev, paths):
    """[Change] of each git work tree holding paths, for the source files
    under paths whose text differs between rev and the work tree."""
    out = []
    for top, ps in sorted(_repos(paths).items()):
        commit = _commit(top, rev)
        rel = sorted({os.path.relpath(os.path.realpath(p), top)
                      for p in ps})
        at_rev = {n: b for n, b in _blobs(top, commit, rel).items()
                  if n.endswith(SOURCES)}
        index, stamp = _index(top, rel)
        names = set(at_rev) | {n for n in index if n.endswith(SOURCES)}
        names |= {n for n in _untracked(top, rel) if n.endswith(SOURCES)}
        names = {n for n in names if _safe_name(n)}
        ch = Change(top, rev)
        differ, gone = {}, {}
        for n in sorted(names):
            path = os.path.join(top, n)
            now = _worktree_blob(path, index.get(n), stamp)
            if now == at_rev.get(n):
                continue
            if now is None:
                gone[path] = at_rev[n]
            else:
                differ[path] = at_rev.get(n)
        blobs = _read_blobs(top, sorted({b for b in list(differ.values()) +
                                         list(gone.values()) if b}))
        ch.old = {p: (blobs.get(b) if b else None)
                  for p, b in differ.items()}
        ch.deleted = {p: blobs.get(b) for p, b in gone.items()}
        out.append(ch)
    return out
