# SPDX-License-Identifier: GPL-2.0-only
"""Where reports, baselines and patches are written.

An output often lands in the checked-out tree that is being scanned (the
CI recipes write -o modlife.sarif at its top), so what is already there
is not trusted: a link planted under the output's name is replaced, not
written through; a relative output path does not pass through a
directory link (the tree could point it anywhere); an output is never
one of the scan's own inputs.  Each file is written whole to a temporary
file beside it and renamed over the name: a reader sees the old or the
new file, and a failed write leaves the old one."""
import os
import stat
import tempfile

# what a scan reads besides sources and headers (and Kconfig.*)
_INPUT_NAMES = ("Makefile", "Kbuild", "Kconfig")


class OutputError(Exception):
    pass


def _linked_dir(path):
    """The first directory link among the components of a relative
    path's directory, or None."""
    if os.path.isabs(path):
        return None
    d = ""
    for part in os.path.dirname(os.path.normpath(path)).split(os.sep):
        if not part or part == ".":
            continue
        d = os.path.join(d, part)
        if part != ".." and os.path.islink(d):
            return d
    return None


def _is_input(path, inputs):
    """Whether writing path would replace a file the scan reads."""
    real = os.path.realpath(path)
    for t in inputs:
        if os.path.isdir(t):
            top = os.path.realpath(t)
            name = os.path.basename(real)
            if real.startswith(top.rstrip(os.sep) + os.sep) and \
                    os.path.exists(real) and (
                        name.endswith((".c", ".h")) or
                        name in _INPUT_NAMES or
                        name.startswith("Kconfig.")):
                return True
        elif os.path.exists(t) and os.path.exists(path) and (
                os.path.samefile(t, path) or
                os.path.realpath(t) == real):
            return True
    return False


def _mode():
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


class Output:
    """One output file: checked and its temporary file made before the
    work (so a scan is not lost to an unwritable place), renamed into
    place by commit()."""

    def __init__(self, path, inputs=()):
        self.path = path
        link = _linked_dir(path)
        if link:
            raise OutputError("cannot write %s: %s is a link to a "
                              "directory (give a path without one)"
                              % (path, link))
        try:
            st = os.lstat(path)
        except OSError:
            st = None
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise OutputError("cannot write %s: is a directory" % path)
        if st is not None and not stat.S_ISLNK(st.st_mode) and \
                not stat.S_ISREG(st.st_mode):
            raise OutputError("cannot write %s: not a regular file" % path)
        if _is_input(path, inputs):
            raise OutputError("cannot write %s: it is one of the files "
                              "being scanned" % path)
        d = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(d):
            raise OutputError("cannot write %s: no such directory" % path)
        try:
            fd, self.tmp = tempfile.mkstemp(
                dir=d, prefix=".modlife-out-", suffix=".tmp")
        except OSError as e:
            raise OutputError("cannot write %s: %s"
                              % (path, e.strerror or e))
        os.close(fd)

    def open(self):
        return open(self.tmp, "w", encoding="utf-8",
                    errors="surrogateescape")

    def commit(self):
        """Renames the written file over the name (a link there is
        replaced, its target untouched)."""
        try:
            os.chmod(self.tmp, _mode())
            os.replace(self.tmp, self.path)
        except OSError as e:
            self.discard()
            raise OutputError("cannot write %s: %s"
                              % (self.path, e.strerror or e))
        self.tmp = None

    def discard(self):
        if self.tmp:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = None


class Appended(Output):
    """An output that adds to what the file holds (a console log): the
    temporary file starts with the file's bytes when the name is a
    regular file (never read through a link planted there), is written
    in binary and renamed over the name by commit(); one nothing was
    added to is discarded, the file left as it was."""

    def __init__(self, path, inputs=()):
        super().__init__(path, inputs)
        self.added = False
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK |
                         os.O_CLOEXEC)
        except OSError:
            return      # none there yet, or a link: nothing to keep
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                with open(self.tmp, "wb") as out, \
                        os.fdopen(os.dup(fd), "rb") as old:
                    while True:
                        chunk = old.read(1 << 20)
                        if not chunk:
                            break
                        out.write(chunk)
        finally:
            os.close(fd)

    def open(self):
        self.added = True
        return open(self.tmp, "ab")

    def close(self):
        """commit() when something was added, else discard()."""
        if self.added:
            self.commit()
        else:
            self.discard()


def patch_dir(path):
    """Checks (and makes) the directory patches go to."""
    link = _linked_dir(os.path.join(path, "x"))
    if link:
        raise OutputError("cannot write patches to %s: %s is a link to a "
                          "directory" % (path, link))
    if os.path.lexists(path) and not os.path.isdir(path):
        raise OutputError("cannot write patches to %s: not a directory"
                          % path)
    try:
        os.makedirs(path, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path, prefix=".modlife-out-")
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        raise OutputError("cannot write patches to %s: %s"
                          % (path, e.strerror or e))


def write_new(path, text):
    """Writes a file of a directory checked by patch_dir(): a planted
    link or file under the same name is replaced, not followed."""
    out = Output(path)
    try:
        with out.open() as f:
            f.write(text)
        out.commit()
    except BaseException:
        out.discard()
        raise
