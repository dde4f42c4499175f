# SPDX-License-Identifier: GPL-2.0-only
"""Headers a scan writes for the parse: a file's options on top of KDIR's
autoconf.h, and headers the kernel build would have generated."""
import hashlib
import os
import shutil
import tempfile
import threading


class Overlays:
    """Headers that make a file's own options modules for its parse:
    "#undef CONFIG_X" (KDIR may build it in) and "#define CONFIG_X_MODULE
    1", included after kconfig.h, as autoconf.h would say for X=m; and
    what they depend on "#define CONFIG_OF 1" (=y) or _MODULE (=m). Named by
    their content, in the cache directory when there is one, so that the
    flags - and the cache key - stay the same from scan to scan."""

    def __init__(self, cache_dir):
        self.tmp = None
        self.dir = os.path.join(cache_dir, "overlays") if cache_dir else None
        self.made = {}
        self.lock = threading.Lock()    # workers make generated headers

    def flags(self, options):
        """-include of the header for options [("CONFIG_X", "m"), ...]."""
        if not options:
            return []
        text = "".join(
            "#undef %s\n#define %s_MODULE 1\n" % (o, o) if v == "m" else
            "#undef %s_MODULE\n#define %s 1\n" % (o, o) if v == "y" else
            "#undef %s\n#define %s %s\n" % (o, o, v)
            for o, v in options)
        name = hashlib.sha1(text.encode()).hexdigest()[:20] + ".h"
        if name not in self.made:
            self.made[name] = self._write(name, text)
        return ["-include", self.made[name]]

    def _base(self):
        """The cache's overlays directory, or (without a usable cache)
        one of this scan's own."""
        d = self.dir
        if d:
            try:
                os.makedirs(d, exist_ok=True)
                return d
            except OSError:
                self.dir = None
        if self.tmp is None:
            self.tmp = tempfile.mkdtemp(prefix="modlife-overlay-")
        return self.tmp

    def _write(self, name, text):
        path = os.path.join(self._base(), name)
        try:
            with open(path) as f:
                if f.read() == text:
                    return path
        except OSError:
            pass
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
        return path

    def generated(self, header, text):
        """A directory in which header (a relative path) has text."""
        name = "gen-" + hashlib.sha1((header + "\0" + text).encode()
                                     ).hexdigest()[:20]
        with self.lock:
            if name not in self.made:
                self._write(os.path.join(name, header), text)
                self.made[name] = os.path.join(self._base(), name)
            return self.made[name]

    def close(self):
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)
