# SPDX-License-Identifier: GPL-2.0-only
"""The semantic patches' results of a file, cached like the checker's
facts (cache.py).

spatch runs with --no-includes on a staged copy of the file
(staging.py), so what it reports depends only on the file's bytes, the
name it is staged under, the script and spatch itself: an entry is keyed
by those. Only a finished run is kept (a timeout, or a spatch that could
not run or failed without saying why, is tried again the next time).
Entries live in the fact cache's directory and are trusted as its own
are: ours, not writable by others, of the shape written here, with no
path in them (the file is the one whose bytes made the key).
"""
import hashlib
import subprocess
import threading

from .cache import file_hash
from .side_cache import SideCache
from .staging import staged_name

# errors that say nothing about the file: never cached
TRANSIENT = ("timed out", "cannot run", "cannot stage", " failed: ")
MAX_ITEMS = 10000


class CocciCache:
    def __init__(self, directory, warn):
        self.store = SideCache(directory, "cocci",
                               "semantic patch results", warn)
        self.dir = self.store.dir
        self._lock = threading.Lock()
        self._salt = None       # spatch's version, once asked
        self._scripts = {}      # script path -> sha256 of its bytes

    @property
    def hits(self):
        return self.store.hits

    def _spatch(self):
        """spatch's own words on its version (its results change with
        it); "" when it cannot say, and then nothing is cached."""
        with self._lock:
            if self._salt is None:
                try:
                    res = subprocess.run(
                        ["spatch", "--version"], stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                        timeout=60)
                    self._salt = res.stdout.decode("utf-8", "replace") \
                        if res.returncode == 0 else ""
                except (OSError, subprocess.SubprocessError):
                    self._salt = ""
            return self._salt

    def key(self, script, path):
        """The key of script's results on path as it is now, or None."""
        if not self.dir:
            return None
        spatch = self._spatch()
        if not spatch:
            return None
        with self._lock:
            if script not in self._scripts:
                self._scripts[script] = file_hash(script, None)
            sh = self._scripts[script]
        content = file_hash(path)
        if sh is None or content is None:
            return None
        h = hashlib.sha256()
        for part in (spatch, sh, staged_name(path), content):
            h.update(part.encode("utf-8", "surrogateescape") + b"\0")
        return h.hexdigest()

    def get(self, key):
        """([(line, column, message)], [error message]) of key, or None."""
        entry = self.store.read(key)
        try:
            found, errs = entry["findings"], entry["errors"]
            if not (isinstance(found, list) and isinstance(errs, list) and
                    len(found) + len(errs) <= MAX_ITEMS):
                raise TypeError("not an entry of this version")
            out = []
            for x in found:
                line, col, msg = x
                if not (type(line) is int and type(col) is int and
                        line > 0 and col > 0 and isinstance(msg, str)):
                    raise TypeError("not an entry of this version")
                out.append((line, col, msg))
            if not all(isinstance(e, str) for e in errs):
                raise TypeError("not an entry of this version")
        except (ValueError, KeyError, TypeError):
            return None
        self.store.hit()
        return out, errs

    def put(self, key, found, errs):
        """Keeps a finished run's results (found: (line, column, message)
        tuples) unless an error says the run was not one."""
        if not key or any(t in e for e in errs for t in TRANSIENT):
            return
        self.store.write(key, {"findings": [list(x) for x in found],
                               "errors": list(errs)})
