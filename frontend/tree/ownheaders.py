# SPDX-License-Identifier: GPL-2.0-only
"""Which headers a file of a kernel source tree is parsed with: a
configured KDIR of the tree's own version (VERSION.PATCHLEVEL), or one
named with --kdir; else the tree's own headers, with what kbuild would
generate made in Python (gentree.py) under the configuration the scan
assumes (autoconf.py). Another version's headers are never used for a
tree unless named: they lack what the tree's code calls (6.12's
class_create() takes one argument, 6.1's two), and which ones are
installed must not change what a scan of the tree finds.
"""
import hashlib
import os
import stat
import threading

from .. import paths
from . import autoconf, fswalk, gentree, kerneltree, treeflags

NATIVE = "x86"


def look(tree, arch):
    """(trusted, fingerprint) of the tree's include directories (include/
    and every architecture's, which files of other architectures are
    parsed with): whether they may be trusted as KDIR's are (the checker
    reads them without the per-file look at each include: no FIFO,
    device or socket in them, no link that leads out of the tree), and
    a digest of their files' names, sizes and times, which the cache
    keys of the files parsed with them hold: after a header is edited,
    the tree's files are parsed again."""
    root = os.path.realpath(tree)
    ok = True
    h = hashlib.sha256()
    try:
        arches = sorted(os.listdir(os.path.join(tree, "arch")))
    except OSError:
        arches = [arch]
    for top in [os.path.join(tree, "include")] + [
            os.path.join(tree, "arch", a, "include") for a in arches]:
        for dirpath, dirnames, filenames in fswalk.walk(top):
            dirnames.sort()
            for fn in sorted(filenames) + dirnames:
                p = os.path.join(dirpath, fn)
                try:
                    st = os.lstat(p)
                except OSError:
                    ok = False
                    continue
                h.update(("%s\0%d\0%d\0" % (p, st.st_size, st.st_mtime_ns))
                         .encode("utf-8", "surrogateescape"))
                if stat.S_ISLNK(st.st_mode):
                    if not fswalk.inside(p, root):
                        ok = False
                        continue
                    try:
                        st = os.stat(p)
                    except OSError:
                        continue        # a dangling link opens nothing
                if not (stat.S_ISREG(st.st_mode) or
                        stat.S_ISDIR(st.st_mode)):
                    ok = False
    return ok, h.hexdigest()[:20]


class OwnHeaders:
    """The choice of headers per tree, said once per tree when a KDIR
    was there but not used."""

    def __init__(self, kdir, warn):
        self.kdir = kdir            # named by the user: always used
        self.warn = warn
        self.said = set()
        self.lock = threading.Lock()
        self.used = {}              # (tree, arch) -> tree_setup()
        self.digests = {}
        self.config_lock = threading.Lock()
        self.configs = {}           # (tree, arch) -> arch_config()

    def kdir_for(self, root):
        """The configured KDIR to parse the files of root (a kernel tree,
        or None) with; None: the tree's own headers."""
        if self.kdir:
            return self.kdir
        if not root or not kerneltree.is_source_tree(root) or \
                not kerneltree.has_headers(root):
            # out of tree, or a tree without the headers to parse with
            return paths.default_kdir()
        rel = kerneltree.release(root)
        env = os.environ.get("KDIR")
        if env and paths.kdir_release(env) == rel:
            return env
        found = paths.matching_kdir(rel)
        if found and not env:
            return found
        other = env or paths.matching_kdir()
        if root not in self.said:
            self.said.add(root)
            if other:
                self.warn("KDIR %s is Linux %s, the tree is %s: parsed with "
                          "the tree's own headers (--kdir uses it anyway)"
                          % (other, paths.kdir_release(other) or "?", rel))
            else:
                self.warn("no configured headers of Linux %s: parsed with "
                          "the tree's own headers" % rel)
        return None

    @staticmethod
    def config(kconfig, arch=NATIVE):
        """The configuration the tree kconfig read is parsed under."""
        path = autoconf.template(arch) or autoconf.template()
        return autoconf.fit(autoconf.read_config(path), kconfig,
                            autoconf.read_off(path), arch)

    def arch_config(self, kconfig, arch):
        """config() of arch, made once per scan (seconds each)."""
        with self.config_lock:
            key = (kconfig.tree, arch)
            if key not in self.configs:
                self.configs[key] = self.config(kconfig, arch)
            return self.configs[key]

    def digest(self, root):
        """The part of a cache key that stands for the tree's headers."""
        with self.lock:
            if root not in self.digests:
                self.digests[root] = "--modlife-tree=" + look(root,
                                                              NATIVE)[1]
            return self.digests[root]

    def tree_setup(self, root, kconfig, write, arch=NATIVE):
        """(flags, trusted flags, fingerprint) for root parsed with its
        own headers as for arch; write(files) gives the directory
        holding the generated ones. None: an architecture not known
        here."""
        if arch not in treeflags.MACHINE:
            return None
        with self.lock:
            key = (root, arch)
            if key not in self.used:
                gen = write(gentree.files(root, arch, self.arch_config(
                    kconfig, arch)))
                flags = treeflags.flags(root, arch, gen)
                ok, digest = look(root, arch)
                trusted = flags if ok else \
                    treeflags.include_flags(gen, arch, gen)
                self.digests[root] = "--modlife-tree=" + digest
                self.used[key] = (flags, trusted, self.digests[root])
            return self.used[key]
