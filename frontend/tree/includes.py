# SPDX-License-Identifier: GPL-2.0-only
"""Headers a source file makes the checker open that are no regular
files.

The checker opens the headers itself, with no timeout of its own: a
FIFO named by '#include "f.h"' blocks it until the scan's timeout, a
device ("z.h -> /dev/zero") never ends. Before a file is parsed, its
includes are resolved the way the checker resolves them (a quoted name
in the including file's directory first, then the -I, -isystem and
-idirafter directories in that order) and each header found is looked at
with stat(), never opened unless it is a regular file. Headers of the
tree (beside the file, in its module's -I directories) are read in turn
for their own includes; those under the kernel build directory's include
directories are trusted and not read.
"""
import os
import re
import stat

from .fswalk import open_regular

# from its '#' (a literal start is fast to find); the line must hold
# only blanks before it
INCLUDE = re.compile(rb'#[ \t]*include(_next)?[ \t]*([<"])([^<>"\n]+)[>"]')
# bounds on the work per source file: headers read, and bytes of each
MAX_HEADERS = 2000
MAX_BYTES = 4 << 20
# the include lines of the headers read, by (path, inode, size, mtime):
# a module's headers are read once per scan, not once per file
_LINES = {}
# headers (with the search path, as in _LINES) whose includes, and
# theirs, were all found harmless: not gone through again for the
# module's next file
_CLEAN = set()

_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"))


def _dirs(flags):
    """(quote-only, angle) search directories of the flags, in the
    checker's order (-iquote; then -I, -isystem, -idirafter), and the
    -include files."""
    quote, sections, pre = [], {"-I": [], "-isystem": [], "-idirafter": []}, []
    i = 0
    while i < len(flags):
        a = flags[i]
        i += 1
        if not a.startswith(("-I", "-i")):
            continue
        for opt in ("-iquote", "-isystem", "-idirafter", "-include",
                    "-imacros", "-I"):
            if a == opt and i < len(flags):
                val = flags[i]
                i += 1
            elif a.startswith(opt) and len(a) > len(opt) and \
                    opt not in ("-include", "-imacros"):
                val = a[len(opt):]
            else:
                continue
            if opt == "-iquote":
                quote.append(val)
            elif opt in ("-include", "-imacros"):
                pre.append(val)
            elif val != "-":
                sections[opt].append(val)
            break
    angle = sections["-I"] + sections["-isystem"] + sections["-idirafter"]
    return quote, angle, pre


def search_dirs(flags):
    """The directories the checker looks for headers in, with flags, in
    its order (-iquote ones first)."""
    quote, angle, _ = _dirs(flags)
    return quote + angle


def _kind(mode):
    for test, name in _KINDS:
        if test(mode):
            return name
    return None


_TRUSTED = {}


def _trusted(flags):
    """The include directories of flags, as path prefixes (each as
    named and as its real path)."""
    key = tuple(flags)
    if key not in _TRUSTED:
        q, a, _ = _dirs(flags)
        _TRUSTED.clear()
        _TRUSTED[key] = tuple(sorted({
            p.rstrip(os.sep) + os.sep for d in q + a
            for p in (os.path.abspath(d), os.path.realpath(d))}))
    return _TRUSTED[key]


class _Check:
    def __init__(self, path, flags, trusted_flags):
        self.top = os.path.dirname(os.path.abspath(path))
        self.quote, self.angle, self.pre = _dirs(flags)
        self.trusted = _trusted(trusted_flags)
        self.search = (tuple(self.quote), tuple(self.angle), self.trusted)
        self.seen = set()
        self.queue = []
        self.read = []


    def shown(self, path):
        rel = os.path.relpath(os.path.abspath(path), self.top)
        return path if rel.startswith(os.pardir) else rel

    def look(self, path, via):
        """False when the checker cannot open path (it tries the next
        directory), None when it opens something harmless, else what is
        wrong. A regular file of the tree is queued to be read."""
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            return False
        if stat.S_ISSOCK(st.st_mode):
            return False        # open() fails
        kind = _kind(st.st_mode)
        if kind:
            shown = self.shown(path)
            if via is not None:
                shown += " (from %s)" % self.shown(via)
            return "includes %s: %s, not a regular file" % (shown, kind)
        if stat.S_ISREG(st.st_mode):
            norm = os.path.normpath(path)
            key = (path, st.st_ino, st.st_size, st.st_mtime_ns)
            if norm not in self.seen and \
                    not norm.startswith(self.trusted) and \
                    (self.search, key) not in _CLEAN:
                self.seen.add(norm)
                self.queue.append((path, key))
        return None

    def resolve(self, name, quoted, next_, here, via):
        """Looks at the header the checker would open for one include
        (for #include_next, which goes on from where the including
        header was found, at every candidate)."""
        if os.path.isabs(name):
            candidates = [name]
        else:
            dirs = ([here] + self.quote if quoted else []) + self.angle
            candidates = (os.path.join(d, name) for d in dirs)
        for c in candidates:
            found = self.look(c, via)
            if found is False:
                continue        # not there: the checker tries the next
            if found or not next_:
                return found
        return None

    def run(self, path):
        for p in self.pre:
            bad = self.look(p, None)
            if bad:
                return bad
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                return None     # the source itself: not this check's
        except OSError:
            return None
        self.queue.append((path, None))
        self.seen.add(os.path.normpath(path))
        while self.queue:
            if len(self.read) >= MAX_HEADERS:
                return None
            f, key = self.queue.pop()
            self.read.append(key)
            via = None if f == path else f
            here = os.path.dirname(os.path.abspath(f))
            for next_, quote, name in _directives(f, key):
                try:
                    name = os.fsdecode(name)
                except (UnicodeError, ValueError):
                    continue
                bad = self.resolve(name, quote == b'"', bool(next_), here,
                                   via)
                if bad:
                    return bad
        if len(_CLEAN) > 200000:
            _CLEAN.clear()
        _CLEAN.update((self.search, k) for k in self.read if k is not None)
        return None


def _directives(path, key=None):
    """The #include lines of a regular file, as (b"_next" or b"", quote
    character, name), from its first MAX_BYTES; key: the header's
    identity for the cache of those of headers."""
    if key is not None and key in _LINES:
        return _LINES[key]
    try:
        with open_regular(path) as f:
            text = f.read(MAX_BYTES)
    except OSError:
        return []
    found = []
    for m in INCLUDE.finditer(text):
        start = text.rfind(b"\n", 0, m.start()) + 1
        if not text[start:m.start()].strip(b" \t"):
            found.append(m.groups())
    if key is not None:
        if len(_LINES) > 50000:
            _LINES.clear()
        _LINES[key] = found
    return found


def irregular_include(path, flags, trusted_flags=()):
    """Why the checker must not be run on path with flags: a header it
    would open (quoted or not, directly or through a header of the tree)
    is a FIFO or a device. None when there is none. Headers found under
    the include directories of trusted_flags (the kernel build
    directory's) are looked at but not read for their own includes."""
    bad = _Check(path, flags, trusted_flags).run(path)
    return bad or None
