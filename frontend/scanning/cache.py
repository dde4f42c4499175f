# SPDX-License-Identifier: GPL-2.0-only
"""Incremental cache of the sparse engine's facts, one entry per source
file, keyed by the file's content, its flags, the checker binary and the
knowledge file. An entry also records the module-local headers the file
included, with their hashes: editing such a header re-parses its users.

A cache that cannot be written is reported once and the scan goes on
without it; an entry that cannot be read is a miss.

The cache is data, not trusted code: a directory (a team's --cache-dir,
a CI cache restored from other jobs, one committed in the change being
scanned) may hold entries someone else wrote. A cache directory, or an
entry, that is not ours (owned by another user, or writable by group or
others) is not used, as git does for a repository (safe.directory); an
entry is used only when its seal holds (cache_seal.py: written by a
scan that had the user's key, under this very key) and every part of it
has the shape the scan writes: facts are whole lines of the checker's
flat objects, and its dependencies are regular files where the scan
itself would have found them.
"""
import hashlib
import json
import os
import stat
import tempfile

from . import cache_seal, link, sparse_engine
from ..tree.fswalk import MAX_SOURCE, open_regular

CHUNK = 1 << 20

# directories the cache makes: never group- or world-writable, whatever
# the umask (the cache refuses such a directory)
DIR_MODE = 0o755


def distrust(st):
    """Why a cache file or directory with stat st is not to be used
    (not ours, or others may write it), or None."""
    if st.st_uid != os.geteuid():
        return "is owned by another user (uid %d)" % st.st_uid
    if st.st_mode & 0o022:
        return "is writable by group or others (mode %o; chmod go-w to " \
            "use it)" % stat.S_IMODE(st.st_mode)
    return None


def distrust_dir(path):
    """distrust() of a directory, or None when it is fine or missing."""
    try:
        return distrust(os.stat(path))
    except OSError:
        return None


class Distrusted(ValueError):
    """A cache file or directory that is not ours to trust."""


def read_trusted(path, limit=MAX_SOURCE):
    """The bytes of a cache file: a regular file of ours, no larger than
    limit. Raises Distrusted, ValueError (too large) or OSError."""
    with open_regular(path) as f:
        st = os.fstat(f.fileno())
        why = distrust(st)
        if why:
            raise Distrusted(why)
        if st.st_size > limit:
            raise ValueError("larger than %d bytes" % limit)
        return f.read(limit + 1)


def read_entry(path, label, limit=MAX_SOURCE):
    """The body of the sealed cache entry label at path (read_trusted()).
    Raises Distrusted, cache_seal.Unsealed, ValueError or OSError."""
    return cache_seal.unseal(label, read_trusted(path, limit + 200))


def file_hash(path, limit=MAX_SOURCE):
    """The sha256 of a regular file's bytes, read in chunks; None when
    it cannot be read, is no regular file (a FIFO would block, a device
    never end) or is larger than limit (None: no limit)."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or (limit is not None and
                                            st.st_size > limit):
            return None
        h, n = hashlib.sha256(), 0
        with open_regular(path) as f:
            while True:
                chunk = f.read(CHUNK)
                if not chunk:
                    break
                n += len(chunk)
                if limit is not None and n > limit:
                    return None     # grew meanwhile
                h.update(chunk)
        return h.hexdigest()
    except (OSError, ValueError):
        return None


def valid_fact(line):
    """A whole fact line as the checker writes it: one flat JSON object
    on one line, its kind first. A cut line, a nested value or a key of
    the wrong type is not (link.is_fact(): what factread.c takes)."""
    if not isinstance(line, str) or "\n" in line or "\r" in line:
        return False
    k = sparse_engine.kind(line)
    if not k:
        return False
    try:
        line.encode("utf-8", "surrogateescape")
        x = json.loads(line)
    except ValueError:
        return False
    return isinstance(x, dict) and x.get("k") == k and link.is_fact(x)


def tree_top(path):
    """The nearest directory above path that is a kernel tree (arch/,
    scripts/) or holds .git, or None."""
    d = os.path.dirname(os.path.realpath(path))
    while True:
        if os.path.exists(os.path.join(d, ".git")) or (
                os.path.isdir(os.path.join(d, "arch")) and
                os.path.isdir(os.path.join(d, "scripts"))):
            return d
        up = os.path.dirname(d)
        if up == d:
            return None
        d = up


def _under(path, roots):
    return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep)
               for r in roots)


class FactCache:
    def __init__(self, directory, salt_files, warn):
        self.dir = directory
        self.warn = warn
        self.writable = directory is not None
        self._noted = False
        self._tops = {}
        self._reals = {}
        self.set_salt(salt_files)
        self.hits = self.misses = 0
        if directory:
            try:
                os.makedirs(directory, DIR_MODE, exist_ok=True)
                why = distrust(os.stat(directory)) or \
                    cache_seal.usable_with(directory)
            except OSError as e:
                why = "is not usable (%s)" % (e.strerror or e)
            if why:
                self.warn("cache %s %s; scanning without it"
                          % (directory, why))
                self._noted = True
                self.dir = None
                self.writable = False

    def set_salt(self, salt_files):
        """Every key holds the contents of salt_files (the checker, its
        knowledge, the code that makes the flags)."""
        h = hashlib.sha256()
        for p in salt_files:
            h.update((file_hash(p, None) or "-").encode())
        self.salt = h.hexdigest()

    def key(self, path, flags):
        content = file_hash(path)
        if content is None:
            return None
        h = hashlib.sha256()
        h.update(self.salt.encode())
        h.update(content.encode())
        h.update("\0".join(flags).encode("utf-8", "surrogateescape"))
        return h.hexdigest()

    def _path(self, key):
        return os.path.join(self.dir, key[:2], key + ".json")

    def refuse(self, why):
        """No cache from now on (one note): why names the reason."""
        if self.dir:
            self.warn("cache %s %s; scanning without it" % (self.dir, why))
        self._noted = True
        self.dir = None
        self.writable = False

    def _roots(self, source, flags):
        """Where the headers an entry of source depends on can be: its
        directory, the module's own -I directories, the top of its tree
        (a kernel tree, a git work tree: "../common/x.h", arch/ headers)
        and the cache (overlay headers)."""
        roots = [self.dir] + [a[len("--modlife-local-dir="):]
                              for a in flags
                              if a.startswith("--modlife-local-dir=")]
        d = os.path.dirname(source)
        if d not in self._tops:
            self._tops[d] = tree_top(source)
        top = self._tops[d]
        if top:
            roots.append(top)
        # the same few directories for every file of a tree
        for r in roots:
            if r not in self._reals:
                self._reals[r] = os.path.realpath(r)
        return [os.path.dirname(os.path.realpath(source))] + [
            self._reals[r] for r in roots]

    def deps_hold(self, source, flags, deps, real=os.path.realpath,
                  hashed=file_hash):
        """Whether the headers deps ({path: sha256 or None}) that an
        entry of source with flags records are as they were: only a
        header the scan could have recorded, and only a regular file's
        bytes (not /dev/zero, not a FIFO); None: it could not be read
        when the entry was made. real, hashed: os.path.realpath() and
        file_hash(), or memos of them."""
        if not isinstance(deps, dict) or deps and not source:
            return False
        roots = self._roots(source, flags) if deps else ()
        for dep, h in deps.items():
            if not (h is None or isinstance(h, str)) or \
                    not os.path.isabs(dep) or not _under(real(dep), roots) \
                    or hashed(dep) != h:
                return False
        return True

    def get(self, key, source=None, flags=(), with_deps=False):
        """The facts and error of the entry of key, or None (a miss).
        source, flags: the file and flags of key, which say where the
        headers it depends on can be. with_deps: and the headers it
        depends on, with their hashes, as a third item."""
        if not self.dir or not key:
            return None
        try:
            path = self._path(key)
            try:
                why = distrust_dir(os.path.dirname(path))
                if why:
                    raise Distrusted(why)
                data = read_entry(path, "facts/" + key)
            except (Distrusted, cache_seal.Unsealed) as e:
                if not self._noted:
                    self._noted = True
                    self.warn("cache entries in %s not used: one %s"
                              % (self.dir, e))
                raise
            entry = json.loads(data.decode("utf-8"))
            if not isinstance(entry["deps"], dict):
                raise TypeError("not an entry of this version")
            facts, err = entry["facts"], entry["error"]
            if not isinstance(facts, list) or not all(
                    valid_fact(x) for x in facts) or \
                    not isinstance(err, (str, type(None))):
                raise TypeError("not an entry of this version")
            if not self.deps_hold(source, flags, entry["deps"]):
                raise ValueError("stale, or not a dependency of this file")
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            self.misses += 1
            return None
        self.hits += 1
        if with_deps:
            return facts, err, entry["deps"]
        return facts, err

    def put(self, key, facts, err):
        """Keeps facts and err under key; returns the headers they
        depend on, with their hashes, or None when nothing was kept."""
        if not self.writable or not key:
            return None
        deps = {}
        for f in sparse_engine.parse(facts, ("include",)):
            if isinstance(f.get("file"), str):
                deps[f["file"]] = file_hash(f["file"])
        try:
            write_entry(self._path(key),
                        {"deps": deps, "facts": facts, "error": err},
                        "facts/" + key)
        except OSError as e:
            self.writable = False
            self.warn("cannot write the cache in %s (%s); going on without "
                      "it" % (self.dir, e.strerror or e))
            return None
        return deps


def write_entry(path, data, label):
    """Writes data as JSON to path, sealed as the entry label, at once: a
    temporary file beside it, then a rename, so a reader sees the old
    entry or the whole new one. Raises OSError."""
    os.makedirs(os.path.dirname(path), DIR_MODE, exist_ok=True)
    body = json.dumps(data, separators=(",", ":")).encode("utf-8")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))
        with os.fdopen(fd, "wb") as f:
            f.write(cache_seal.seal(label, body))
        os.replace(tmp, path)
        tmp = None
    finally:
        if tmp:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def default_dir(environ=None):
    """The user's fact cache, as environ (os.environ by default) has it."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "modlife", "facts")
