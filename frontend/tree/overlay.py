# SPDX-License-Identifier: GPL-2.0-only
"""Headers a scan writes for the parse: a file's options on top of KDIR's
autoconf.h, and headers the kernel build would have generated."""
import hashlib
import os
import shutil
import tempfile
import threading

from ..scanning import cache
from ..scanning.staging import say
from . import buildmade


class Overlays:
    """Headers that make a file's own options modules for its parse:
    "#undef CONFIG_X" (KDIR may build it in) and "#define CONFIG_X_MODULE
    1", included after kconfig.h, as autoconf.h would say for X=m; and
    what they depend on "#define CONFIG_OF 1" (=y) or _MODULE (=m). Named by
    their content, in the cache directory when there is one, so that the
    flags - and the cache key - stay the same from scan to scan. A cache
    where they cannot be written (read-only, full, not ours) is named
    once, and they go to a private temporary directory: the parse is the
    same."""

    def __init__(self, cache_dir, warn=None):
        self.tmp = None
        self.dir = os.path.join(cache_dir, "overlays") if cache_dir else None
        self.made = {}
        self.lock = threading.Lock()    # workers make generated headers
        self.warn = warn or say

    def flags(self, options):
        """-include of the header for options [("CONFIG_X", "m"), ...]."""
        if not options:
            return []
        text = "".join(
            "#undef %s\n#define %s_MODULE 1\n" % (o, o) if v == "m" else
            "#undef %s_MODULE\n#define %s 1\n" % (o, o) if v == "y" else
            "#undef %s\n#undef %s_MODULE\n" % (o, o) if v == "n" else
            "#undef %s\n#define %s %s\n" % (o, o, v)
            for o, v in options)
        name = hashlib.sha1(text.encode()).hexdigest()[:20] + ".h"
        with self.lock:
            if name not in self.made:
                self.made[name] = self._write(name, text)
            return ["-include", self.made[name]]

    def _base(self):
        """The cache's overlays directory, or (without a usable cache)
        one of this scan's own."""
        d = self.dir
        if d:
            try:
                os.makedirs(d, cache.DIR_MODE, exist_ok=True)
                why = cache.distrust(os.stat(d))
                if not why:
                    return d
                self._unusable("%s %s" % (d, why))
            except OSError as e:
                self._unusable("%s: %s" % (d, e.strerror or e))
        if self.tmp is None:
            self.tmp = tempfile.mkdtemp(prefix="modlife-overlay-")
        return self.tmp

    def _unusable(self, why):
        """Said once: the overlays go to a private directory from now."""
        self.dir = None
        self.warn("cache not usable: %s; its headers are written to a "
                  "private temporary directory" % why)

    @staticmethod
    def _holds(path, data):
        """path is a regular file of ours with the bytes data."""
        try:
            return cache.read_trusted(path, len(data)) == data
        except (OSError, ValueError):
            return False

    def _write(self, name, text):
        data = text.encode("utf-8", "surrogateescape")
        while True:
            base = self._base()
            path = os.path.join(base, name)
            if self._holds(path, data):
                return path
            tmp = None
            try:
                os.makedirs(os.path.dirname(path), cache.DIR_MODE,
                            exist_ok=True)
                fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path),
                                           suffix=".tmp")
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                os.replace(tmp, path)
                return path
            except OSError as e:
                if tmp:
                    try:
                        os.unlink(tmp)
                    except OSError:
                        pass
                if base != self.dir:
                    raise       # the private directory: nowhere else
                self._unusable("%s: %s" % (os.path.dirname(path),
                                           e.strerror or e))

    def generated(self, header, text, stand_in=False):
        """A directory in which header (a relative path) has text; one
        buildmade.stand_ins() knows for a stand-in."""
        name = (buildmade.PREFIX if stand_in else "gen-") + hashlib.sha1(
            (header + "\0" + text).encode()).hexdigest()[:20]
        with self.lock:
            if name not in self.made:
                self._write(os.path.join(name, header), text)
                self.made[name] = os.path.join(self._base(), name)
            return self.made[name]

    def tree(self, files):
        """A directory holding files ({relative path: text}), named by
        their content: a kernel tree's generated headers."""
        digest = hashlib.sha256()
        for k in sorted(files):
            digest.update(k.encode("utf-8", "surrogateescape") + b"\0" +
                          files[k].encode("utf-8", "surrogateescape") + b"\0")
        name = "tree-" + digest.hexdigest()[:20]
        with self.lock:
            if name not in self.made:
                for rel in sorted(files):
                    self._write(os.path.join(name, rel), files[rel])
                self.made[name] = os.path.join(self._base(), name)
            return self.made[name]

    def close(self):
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)
