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
import stat
import subprocess
import tempfile
import threading

from ..tree import fswalk

# hooks git could still look up are off, whatever the repository says
GIT = ["git", "--no-pager", "--literal-pathspecs",
       "-c", "core.fsmonitor=false",
       "-c", "core.hooksPath=/dev/null", "-c", "core.quotePath=false"]

# a git call that takes longer is stopped (a FIFO where git expects a
# file, a huge repository on a slow disk)
GIT_TIMEOUT = 600


def git_env():
    """git's environment: no pager, no prompt, no system-wide
    configuration, and no lazy fetch where git knows the switch (2.44
    and later; older ones are refused a repository that could fetch, see
    lazy_fetch())."""
    return dict(os.environ, GIT_PAGER="cat", GIT_TERMINAL_PROMPT="0",
                GIT_NO_LAZY_FETCH="1", GIT_OPTIONAL_LOCKS="0",
                GIT_CONFIG_NOSYSTEM="1")


class DiffError(Exception):
    pass


def git_read(top, args, text=True, options=(), timeout=GIT_TIMEOUT):
    """The output of a git command that only reads, run in top under the
    distrust above (options: more "-c key=value" pairs); DiffError when
    git fails, cannot run or takes longer than timeout. Every reader of
    a scanned tree's history goes through here."""
    try:
        res = subprocess.run(GIT + list(options) + ["-C", top] + args,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, env=git_env(),
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        raise DiffError("git %s in %s: no answer in %d s"
                        % (args[0], top, timeout))
    except OSError as e:
        raise DiffError("cannot run git: %s" % e)
    if res.returncode != 0:
        raise DiffError("git %s: %s" % (args[0], res.stderr.decode(
            "utf-8", "replace").strip()))
    return res.stdout.decode("utf-8", "surrogateescape") if text \
        else res.stdout


def _git(top, args, text=True):
    return git_read(top, args, text)


# configuration that makes git fetch a missing object from a remote: for
# a local or ext:: remote that runs remote.*.uploadpack or a transport
# command the repository names
_LAZY = r"^(extensions\.partialclone|remote\..*\.promisor|" \
    r"remote\..*\.partialclonefilter)$"


def lazy_fetch(top):
    """What in top's configuration would let git fetch objects on
    demand (a partial clone), or None."""
    try:
        res = subprocess.run(GIT + ["-C", top, "config", "-z",
                                    "--get-regexp", _LAZY],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, env=git_env(),
                             timeout=GIT_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as e:
        return "its configuration cannot be read: %s" % e
    if res.returncode == 1:
        return None             # none of the keys is set
    if res.returncode != 0:
        return "its configuration cannot be read: %s" % res.stderr.decode(
            "utf-8", "replace").strip()
    for entry in res.stdout.decode("utf-8", "replace").split("\0"):
        key, _, value = entry.partition("\n")
        if key and value.strip().lower() not in ("false", "no", "off",
                                                 "0"):
            return key
    return None


def check_repository(top):
    """Refuses a repository whose git could fetch (and so run a command
    the repository names) when an object is missing."""
    why = lazy_fetch(top)
    if why:
        raise DiffError("%s is a partial clone (%s): git could fetch "
                        "missing objects and run the commands the "
                        "repository names; not read" % (top, why))


def _commit(top, rev):
    check_repository(top)
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
    """({blob id: bytes}, {blob id: size}) for the blobs: the first of
    those git has, the second of those larger than fswalk.MAX_SOURCE,
    which are not read. cat-file --batch-check gives the sizes, then
    cat-file --batch hands out one blob at a time: at most one blob is
    in a pipe, none of a size no source has (a zero blob compresses
    1000:1 in .git)."""
    blobs = [b for b in blobs if re.fullmatch(r"[0-9a-f]{4,64}", b)]
    if not blobs:
        return {}, {}
    try:
        res = subprocess.run(
            GIT + ["-C", top, "cat-file", "--batch-check"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=git_env(),
            timeout=GIT_TIMEOUT, input=("\n".join(blobs) + "\n").encode())
    except (OSError, subprocess.TimeoutExpired) as e:
        raise DiffError("git cat-file: %s" % e)
    if res.returncode != 0:
        raise DiffError("git cat-file: %s" % res.stderr.decode(
            "utf-8", "replace").strip())
    sizes = {}
    for line in res.stdout.decode("ascii", "replace").splitlines():
        head = line.split()
        if len(head) == 3 and head[1] == "blob" and head[2].isdigit():
            sizes[head[0]] = int(head[2])   # else "<id> missing"
    big = {b: n for b, n in sizes.items() if n > fswalk.MAX_SOURCE}
    want = [b for b in blobs if b in sizes and b not in big]
    out = {}
    if not want:
        return out, big
    with tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen(
                GIT + ["-C", top, "cat-file", "--batch"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                env=git_env())
        except OSError as e:
            raise DiffError("git cat-file: %s" % e)
        timer = threading.Timer(GIT_TIMEOUT, proc.kill)
        timer.start()
        try:
            for b in want:
                # no --buffer: git writes each blob out before the next
                proc.stdin.write(b.encode() + b"\n")
                proc.stdin.flush()
                head = proc.stdout.readline(1024).split()
                if len(head) < 3 or not head[2].isdigit() or \
                        int(head[2]) > fswalk.MAX_SOURCE:
                    raise ValueError(b" ".join(head).decode(
                        "ascii", "replace") or "no answer")
                size = int(head[2])
                data = proc.stdout.read(size)
                if len(data) != size or proc.stdout.read(1) != b"\n":
                    raise ValueError("blob %s cut short" % b)
                out[b] = data
            proc.stdin.close()
            rc = proc.wait()
        except (OSError, ValueError) as e:
            proc.kill()
            proc.wait()
            err.seek(0)
            why = err.read(4096).decode("utf-8", "replace").strip()
            raise DiffError("git cat-file: %s" % (why or e))
        finally:
            timer.cancel()
            for f in (proc.stdin, proc.stdout):
                try:
                    f.close()
                except OSError:
                    pass
        if rc != 0:
            err.seek(0)
            raise DiffError("git cat-file: %s" % err.read(4096).decode(
                "utf-8", "replace").strip())
    return out, big


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


def _not_regular(path):
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False            # absent: git skips it too


def _blocking_excludes(top, rel):
    """An exclude file git would read for ls-files -o that is not a
    regular file (a FIFO blocks git's open for ever)."""
    cands = [os.path.join(top, _git(top, ["rev-parse", "--git-path",
                                          "info/exclude"]).strip())]
    try:
        cands.append(os.path.expanduser(
            _git(top, ["config", "--path", "core.excludesFile"]).strip()))
    except DiffError:
        pass                    # not set
    for r in rel:
        d = os.path.dirname(os.path.join(top, r))
        while d.startswith(top + os.sep):   # the parents git reads too
            cands.append(os.path.join(d, ".gitignore"))
            d = os.path.dirname(d)
        cands.append(os.path.join(top, ".gitignore"))
        for dirpath, dirnames, filenames in fswalk.walk(
                os.path.join(top, r)):
            dirnames[:] = [n for n in dirnames if n != ".git"]
            if ".gitignore" in filenames or ".gitignore" in dirnames:
                cands.append(os.path.join(dirpath, ".gitignore"))
    return next((c for c in cands if c and _not_regular(c)), None)


def _untracked(top, rel):
    bad = _blocking_excludes(top, rel)
    if bad:
        raise DiffError("%s is not a regular file: git cannot read the "
                        "ignore rules" % bad)
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
    """The blob id of the file as it is, or None when it is gone (or not
    a file git could hold: a FIFO is never opened)."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if entry and not entry[4] and st.st_size == entry[3] and \
            st.st_ino == entry[2] and st.st_mtime_ns == entry[1] and \
            st.st_mtime_ns < stamp:
        return entry[0]     # what git itself would trust
    try:
        if stat.S_ISLNK(st.st_mode):
            return _blob_id(os.fsencode(os.readlink(path)))
        with fswalk.open_regular(path) as f:
            # streamed: the size is in the blob's header
            size = os.fstat(f.fileno()).st_size
            h = hashlib.sha1(b"blob %d\0" % size)
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
            return h.hexdigest()
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
        blobs, big = _read_blobs(top, sorted({
            b for b in list(differ.values()) + list(gone.values()) if b}))
        refused = sorted(os.path.relpath(p, top) for p, b in
                         list(differ.items()) + list(gone.items())
                         if b in big)
        if refused:
            raise DiffError("%s at %s: larger than %d MiB, not read (no "
                            "source file is that large)" % (
                                ", ".join(refused), rev,
                                fswalk.MAX_SOURCE >> 20))
        ch.old = {p: (blobs.get(b) if b else None)
                  for p, b in differ.items()}
        ch.deleted = {p: blobs.get(b) for p, b in gone.items()}
        out.append(ch)
    return out
