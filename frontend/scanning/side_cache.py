# SPDX-License-Identifier: GPL-2.0-only
"""Entries beside the fact cache (cache.py) that other steps of a scan
keep: the semantic patches' results (cocci_cache.py), a module's link
(link_cache.py). Each kind has a subdirectory of the fact cache's
directory; an entry is one JSON file named by its key, written at once,
and trusted only as the fact cache trusts its own: ours, not writable by
others, sealed with the user's key as the entry of its kind and key
(cache_seal.py), no larger than a bound. The kind checks an entry's
shape."""
import json
import os
import threading

from . import cache_seal
from .cache import (DIR_MODE, Distrusted, distrust, distrust_dir,
                    read_entry, write_entry)

MAX_ENTRY = 1 << 20


class SideCache:
    def __init__(self, directory, kind, what, warn, limit=MAX_ENTRY):
        """directory: the fact cache's (None: no cache); kind: the
        subdirectory; what: the entries' name in a warning."""
        self.dir = directory and os.path.join(directory, kind)
        self.kind = kind
        self.what = what
        self.warn = warn
        self.limit = limit
        self.hits = 0
        self._lock = threading.Lock()
        self._noted = False

    def _path(self, key):
        return os.path.join(self.dir, key[:2], key + ".json")

    def read(self, key):
        """The JSON value of key's entry, or None (none, or not ours)."""
        if not self.dir or not key:
            return None
        path = self._path(key)
        try:
            why = distrust_dir(self.dir) or \
                distrust_dir(os.path.dirname(path))
            if why:
                raise Distrusted(why)
            return json.loads(read_entry(path, self.kind + "/" + key,
                                         self.limit).decode("utf-8"))
        except (Distrusted, cache_seal.Unsealed) as e:
            with self._lock:
                noted, self._noted = self._noted, True
            if not noted:
                self.warn("%s in %s not used: one %s"
                          % (self.what, self.dir, e))
        except (OSError, ValueError):
            pass
        return None

    def hit(self):
        with self._lock:
            self.hits += 1

    def write(self, key, value):
        """Keeps value under key; a directory that is not ours is left
        alone (said when read), a failed write is no error (the fact
        cache says it once)."""
        if not self.dir or not key:
            return
        path = self._path(key)
        try:
            os.makedirs(os.path.dirname(path), DIR_MODE, exist_ok=True)
            if distrust(os.stat(self.dir)) or \
                    distrust(os.stat(os.path.dirname(path))):
                return
            write_entry(path, value, self.kind + "/" + key)
        except OSError:
            pass
