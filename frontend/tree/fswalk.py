# SPDX-License-Identifier: GPL-2.0-only
"""Directory walks that a scanned tree cannot turn against the scan:
no recursion (os.walk recurses in Python 3.11, so a tree nested a few
thousand levels deep raises RecursionError), and, when asked, no
directory link followed out of a root."""
import errno
import os
import stat
import tempfile
import threading

# the most of one file read into memory (a real kernel source is well
# under 1 MiB; a sparse 8 GiB file costs a tree nothing)
MAX_SOURCE = 64 << 20


# what the tree's readers looked at while a Reads is open (a scan's
# plan, kept with what decided it: plan_cache.py)
_readers = []
_readers_lock = threading.Lock()


class Reads:
    """The files opened (or tried), the directories listed or walked,
    the sources whose CONFIG_ words were taken, and the build files cut
    short by a reader's bound (limits.py), while it is open."""

    def __init__(self):
        self.files, self.dirs, self.words = set(), set(), {}
        self.limits = {}

    def __enter__(self):
        with _readers_lock:
            _readers.append(self)
        return self

    def __exit__(self, *exc):
        with _readers_lock:
            _readers.remove(self)


def note(kind, path, value=None):
    """Tells the open Reads that path was read (kind: files, dirs or
    words, with the words' digest as value; limits, with what bound
    cut it short)."""
    if not _readers:
        return
    path = os.path.abspath(path)
    with _readers_lock:
        for r in _readers:
            if kind in ("words", "limits"):
                getattr(r, kind)[path] = value
            else:
                getattr(r, kind).add(path)


def listdir(path):
    """os.listdir(), noted."""
    note("dirs", path)
    return os.listdir(path)


def inside(path, root):
    """Whether path's real location lies under the real directory root."""
    return _under(os.path.realpath(path), os.path.realpath(root))


def walk(top, onerror=None, followlinks=False, within=None,
         outside=None, with_real=False):
    """os.walk(top) top-down, with an explicit stack.  The caller may
    prune dirnames in place, as with os.walk.  followlinks follows
    directory links, each real directory once (a link loop ends);
    within (a directory) keeps the walk under its real path, so a link
    to / or to a sibling tree is not entered, and outside(path) is told
    of each such link.  with_real adds the directory's real path to
    what is yielded, as a fourth item.  Real paths are carried down, not recomputed:
    os.path.realpath() costs a system call per component, which a deep
    tree makes quadratic."""
    root = os.path.realpath(within) if within is not None else None
    stack = [(top, os.path.realpath(top))]
    seen = set()
    while stack:
        d, real = stack.pop()
        note("dirs", d)
        if followlinks:
            if real in seen:
                continue
            seen.add(real)
        try:
            with os.scandir(d) as it:
                entries = list(it)
        except OSError as e:
            if onerror is not None:
                onerror(e)
            continue
        dirnames, filenames, links = [], [], set()
        for e in entries:
            try:
                isdir = e.is_dir()
                if isdir and e.is_symlink():
                    links.add(e.name)
            except OSError:
                isdir = False
            (dirnames if isdir else filenames).append(e.name)
        if with_real:
            yield d, dirnames, filenames, real
        else:
            yield d, dirnames, filenames
        # as os.walk: a directory link is listed, entered only when asked
        for name in reversed(dirnames):
            path = os.path.join(d, name)
            if name not in links:
                stack.append((path, os.path.join(real, name)))
                continue
            if not followlinks:
                continue
            target = os.path.realpath(path)
            if root is not None and not _under(target, root):
                if outside is not None:
                    outside(path)
                continue
            stack.append((path, target))


def _under(real, root):
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def open_regular(path, noted=True):
    """A binary file object for path, only when it is a regular file: a
    FIFO or a device in a tree would block or never end a read.  The
    open does not wait for a FIFO's writer (O_NONBLOCK); the check is
    on what was opened, so a swap after a stat() cannot slip through."""
    if noted:
        note("files", path)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def replace_with(path, write, mode=0o600, errors="strict"):
    """Writes path anew, atomically: write(f) fills a private temporary
    file (UTF-8 text, with errors for what does not encode) beside it,
    which then replaces path; on any failure the temporary file goes
    and path is as it was. A name planted beside path is never used."""
    fd, tmp = tempfile.mkstemp(prefix=".modlife-", suffix=".tmp",
                               dir=os.path.dirname(os.path.abspath(path)))
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8", errors=errors) as f:
            write(f)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
