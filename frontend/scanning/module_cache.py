# SPDX-License-Identifier: GPL-2.0-only
"""A module's result, kept beside the facts (side_cache.py): what its
link decided and each file's error, so that a warm scan of an unchanged
module reads one small entry instead of every file's facts.

An entry is keyed by the fact cache's keys of the module's files, in
order (each holds the file's bytes, its flags, the checker and its
knowledge), and records, as a fact entry does, the module-local headers
each file included with their hashes: it is used only when all of them
are as they were, and only headers where the fact cache would look for
them count. Only a module whose every file was a fact-cache entry (read
or written) is kept; a failed link is not. With --explain nothing is
read or kept: the link step's reasons are the point of that run."""
import hashlib
import os

from . import sparse_engine
from .cache import file_hash
from .side_cache import SideCache

MAX_ITEMS = 100000
FINDING = {"rule": str, "file": str, "line": int, "col": int,
           "message": str}


def _strings(x):
    return isinstance(x, list) and len(x) <= MAX_ITEMS and \
        all(isinstance(s, str) for s in x)


def _finding(d):
    return isinstance(d, dict) and all(
        type(d.get(k)) is t for k, t in FINDING.items())


def parsed_and_included(facts):
    """The files facts say were parsed, and the headers they included
    (one reading of the facts)."""
    seen = {"tu": set(), "include": set()}
    for x in sparse_engine.parse(facts, ("tu", "include")):
        # a repeated "k" of another kind: json keeps the last one
        if isinstance(x.get("file"), str) and x.get("k") in seen:
            seen[x["k"]].add(x["file"])
    return sorted(seen["tu"]), sorted(seen["include"])


class ModuleCache:
    def __init__(self, directory, facts, warn, explain=False):
        """facts: the scan's FactCache (its salt and where a file's
        headers may be)."""
        self.store = SideCache(None if explain else directory, "modules",
                               "module results", warn, limit=64 << 20)
        self.facts = facts
        self._reals, self._hashes = {}, {}

    @property
    def hits(self):
        return self.store.hits

    def _real(self, path):
        """os.path.realpath(), once per scan: a module's headers are
        those of each of its files, and of other modules."""
        if path not in self._reals:
            self._reals[path] = os.path.realpath(path)
        return self._reals[path]

    def _hash(self, path):
        """file_hash(), once per scan."""
        if path not in self._hashes:
            self._hashes[path] = file_hash(path)
        return self._hashes[path]

    def key(self, keyed):
        """The key of a module of (file, fact cache key) pairs, or None
        when a file has no key."""
        if not self.store.dir or any(ck is None for _, ck in keyed):
            return None
        h = hashlib.sha256(self.facts.salt.encode() + b"\0")
        for f, ck in keyed:
            h.update(f.encode("utf-8", "surrogateescape") + b"\0" +
                     ck.encode() + b"\0")
        return h.hexdigest()

    def get(self, key, flags):
        """{"errors": {file: error or None}, "deps": {file: the headers
        it read}, "standing", "tus", "includes"} of key, or None. flags:
        {file: its key's flags}."""
        e = self.store.read(key)
        try:
            files, standing = e["files"], e["standing"]
            if not (isinstance(files, dict) and set(files) == set(flags)
                    and isinstance(standing, list) and
                    len(standing) <= MAX_ITEMS and
                    all(_finding(d) for d in standing) and
                    _strings(e["tus"]) and _strings(e["includes"])):
                return None
            errors, read = {}, {}
            for f, v in files.items():
                err, deps = v["error"], v["deps"]
                if not (err is None or isinstance(err, str)) or \
                        not self.facts.deps_hold(f, flags[f], deps,
                                                 self._real, self._hash):
                    return None
                errors[f], read[f] = err, sorted(deps)
        except (TypeError, KeyError, AttributeError, ValueError):
            return None
        self.store.hit()
        return {"errors": errors, "deps": read, "standing": standing,
                "tus": e["tus"],
                "includes": e["includes"]}

    def put(self, key, files, standing, tus, incs):
        """files: {file: (error or None, the headers it included with
        their hashes, as its fact entry has them)}."""
        if not key:
            return
        self.store.write(key, {
            "files": {f: {"error": err, "deps": deps}
                      for f, (err, deps) in files.items()},
            "standing": [{k: d.get(k) for k in FINDING} for d in standing],
            "tus": tus, "includes": incs})
