# SPDX-License-Identifier: GPL-2.0-only
"""Incremental cache of the sparse engine's facts, one entry per source
file, keyed by the file's content, its flags, the checker binary and the
knowledge file. An entry also records the module-local headers the file
included, with their hashes: editing such a header re-parses its users.

A cache that cannot be written is reported once and the scan goes on
without it; an entry that cannot be read is a miss.
"""
import hashlib
import json
import os
import tempfile

from . import sparse_engine


def _sha(data):
    return hashlib.sha256(data).hexdigest()


def file_hash(path):
    try:
        with open(path, "rb") as f:
            return _sha(f.read())
    except OSError:
        return None


class FactCache:
    def __init__(self, directory, salt_files, warn):
        self.dir = directory
        self.warn = warn
        self.writable = directory is not None
        h = hashlib.sha256()
        for p in salt_files:
            h.update((file_hash(p) or "-").encode())
        self.salt = h.hexdigest()
        self.hits = self.misses = 0
        if directory:
            try:
                os.makedirs(directory, exist_ok=True)
            except OSError as e:
                self.warn("cache %s is not usable (%s); scanning without it"
                          % (directory, e.strerror or e))
                self.dir = None
                self.writable = False

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

    def get(self, key):
        if not self.dir or not key:
            return None
        try:
            with open(self._path(key), encoding="utf-8") as f:
                entry = json.load(f)
            if not isinstance(entry["deps"], dict):
                raise TypeError("not an entry of this version")
            for dep, h in entry["deps"].items():
                if file_hash(dep) != h:
                    raise ValueError("stale")
            facts, err = entry["facts"], entry["error"]
            if not isinstance(facts, list) or not all(
                    isinstance(x, str) and sparse_engine.kind(x)
                    for x in facts) or \
                    not isinstance(err, (str, type(None))):
                raise TypeError("not an entry of this version")
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            self.misses += 1
            return None
        self.hits += 1
        return facts, err

    def put(self, key, facts, err):
        if not self.writable or not key:
            return
        deps = {}
        for f in sparse_engine.parse(facts, ("include",)):
            deps[f["file"]] = file_hash(f["file"])
        path = self._path(key)
        tmp = None
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"deps": deps, "facts": facts, "error": err}, f,
                          separators=(",", ":"))
            os.replace(tmp, path)
        except BaseException as e:
            if tmp:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
            if not isinstance(e, OSError):
                raise
            self.writable = False
            self.warn("cannot write the cache in %s (%s); going on without "
                      "it" % (self.dir, e.strerror or e))


def default_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "modlife", "facts")
