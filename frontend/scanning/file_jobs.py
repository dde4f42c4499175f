# SPDX-License-Identifier: GPL-2.0-only
"""How each file of a scan is parsed: its flags and fact cache key, and
in a worker its cached facts or a checker run, tried again with the
options a missing name needs, as another architecture (or its 32-bit
kernel), or with the flags of its architecture's other configuration.
"""
import os
import threading

from . import sparse_engine
from .. import paths
from ..tree import archheaders, fswalk, includes, kflags, machdirs, \
    optionrepair, treeflags


class Refused(str):
    """An error of a file that neither engine is to read."""


def too_large(path):
    """Why a source is not read (larger than any real one), or None."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return None
    if size <= fswalk.MAX_SOURCE:
        return None
    return Refused("larger than %d MiB (%d bytes): not read"
                   % (fswalk.MAX_SOURCE >> 20, size))


def renamed(facts, old, new):
    """Facts of a substitute text, naming the file it stands for."""
    import json
    out = facts
    for ascii_only in (False, True):     # the checker writes UTF-8 as is
        a = json.dumps(os.path.abspath(old), ensure_ascii=ascii_only)[1:-1]
        b = json.dumps(os.path.abspath(new), ensure_ascii=ascii_only)[1:-1]
        out = [ln.replace(a, b) for ln in out]
    return out


def local_dirs(own):
    """The checker's --modlife-local-dir for the module's own -I
    directories: the cache must see their headers change."""
    out, take = [], False
    for a in own:
        d = a if take else (a[2:] if a.startswith("-I") else None)
        take = a == "-I"
        if d:
            out.append("--modlife-local-dir=" + os.path.abspath(d))
    return out


class FileJobs:
    """The parse of the files of one scan. scanner: the Scanner (its
    Kconfig, module map, caches, checker and knowledge); plan: (info,
    options) of its plan; flags and trusted: the base and trusted
    flags; kdir, root, native, own_tree, tree_key as the scan decided
    them; overlay: its Overlays."""

    def __init__(self, scanner, plan, flags, trusted, kdir, root,
                 own_tree, tree_key, overlay):
        self.s = scanner
        self.info, self.options = plan
        self.flags, self.trusted = flags, trusted
        self.kdir, self.root = kdir, root
        self.own_tree, self.tree_key = own_tree, tree_key
        self.overlay = overlay
        self.arch_kdirs = paths.arch_kdirs()
        self.mach_memo, self.mach_lock = {}, threading.Lock()
        self.trusted_dirs = {os.path.normpath(d) for d in
                             includes.search_dirs(trusted)}

    def mach_dirs(self, f, arch):
        """The include directories of the machine f's options build for
        arch, as arch/ARCH/Makefile adds them (only when f is parsed:
        the architecture's configuration takes seconds)."""
        key = (arch, tuple(self.options[f][0]))
        with self.mach_lock:
            if key in self.mach_memo:
                return self.mach_memo[key]
        on = machdirs.configuration(
            self.s.kconfig, self.s.own.arch_config(self.s.kconfig, arch),
            self.options[f][0])
        dirs = machdirs.include_dirs(self.root, arch, on)
        with self.mach_lock:
            if len(self.mach_memo) > 4096:
                self.mach_memo.clear()
            self.mach_memo[key] = dirs
        return dirs

    def for_arch(self, fl, arch, f=None):
        """A file's flags for another architecture's headers: the
        configured ones make arch-headers fetched (with a KDIR), else
        the tree's own, with the include directories of the machine the
        file's options build."""
        if self.kdir and arch in self.arch_kdirs:
            return kflags.arch_flags(fl, self.kdir, arch,
                                     self.arch_kdirs[arch])
        if not self.own_tree:
            return None
        setup = self.s.own.tree_setup(self.root, self.s.kconfig,
                                      self.overlay.tree, arch)
        if not setup:
            return None
        tree_fl = setup[0]
        if f is not None:
            tree_fl = treeflags.with_machine_dirs(
                tree_fl, self.root, arch, self.mach_dirs(f, arch))
        return tree_fl + fl[len(self.flags):]

    def header_dir(self, d):
        """A directory whose headers a retry may look through: the
        tree's, or one of the kernel build's (a Makefile's -I may name
        any)."""
        d = os.path.normpath(d)
        return d in self.trusted_dirs or bool(self.root) and \
            fswalk.inside(d, self.root)

    def known_option(self, sym):
        """An option a parse may turn on: a bool or tristate of the
        tree's Kconfig files."""
        return self.s.kconfig.types.get(sym) in ("bool", "tristate")

    def work(self, f, fl, ck, kf, archs, alt=None, look=True):
        """In a worker: the cached facts, or a sparse run (again with
        another architecture's headers when the file needs them, or with
        the flags alt when it fails and they are given)."""
        s = self.s
        sub = s.substitute.get(f)
        refused = too_large(sub or f)
        if refused:
            return [], refused, None
        hit = s.cache.get(ck, f, kf, True) if sub is None and look \
            else None
        if hit is not None:
            return hit
        # a FIFO or device header would hold the checker until its
        # timeout: an error of the file at once (not cached); the cache
        # ran no checker (and a header of the module's own that changed
        # is no hit)
        irregular = includes.irregular_include(sub or f, fl, self.trusted)
        if irregular:
            return [], irregular, None
        transient = []

        def run(flags):
            if sub is not None:
                # another text of f: its quote includes still find f's
                # neighbours
                facts, err = sparse_engine.run(
                    s.binary, s.kb, flags + ["-I" + os.path.dirname(f)],
                    sub)
                return renamed(facts, sub, f), err and err.replace(
                    os.path.abspath(sub), os.path.abspath(f))
            facts, err = sparse_engine.run(s.binary, s.kb, flags, f)
            if isinstance(err, sparse_engine.Transient):
                transient.append(err)
            return facts, err

        def run_configured(flags):
            """run(), and when it fails on a name that a header defines
            only under an option (or an #error asks for one), again
            with the options on (three rounds at most: one name each)."""
            facts, err = run(flags)
            first, extra = (facts, err), []
            for _ in range(3):
                if not err or transient:
                    break
                more = [o for o in optionrepair.options_for(
                    err, f, flags, self.known_option, self.header_dir)
                    if o not in extra]
                if not more:
                    break
                extra += more
                facts, err = run(flags + self.overlay.flags(
                    [(o, "y") for o in extra]))
            return (facts, err) if not err else first

        def file_for_arch(fl_, arch):
            return self.for_arch(fl_, arch, f)
        facts, err = archheaders.parse_with_fallback(
            run_configured, s.mmap.tree_of(f), fl, f, archs,
            self.overlay.generated, file_for_arch)
        if err and alt and not transient:
            again = archheaders.parse_with_fallback(
                run_configured, s.mmap.tree_of(f), alt, f, archs,
                self.overlay.generated, file_for_arch)
            if not again[1]:
                facts, err = again
        # only what a finished run said about the bytes it read
        deps = None
        if not transient and sub is None and s.cache.key(f, kf) == ck:
            deps = s.cache.put(ck, facts, err)
        return facts, err, deps

    def prepared(self, f):
        """(flags, alternative flags, architectures, key flags, fact
        cache key) of a file."""
        s, options = self.s, self.options
        modname = self.info[f][0]
        own = s.plan_flags[f]
        fl = kflags.file_flags(self.flags, f, True, modname) + own + \
            self.overlay.flags(options[f][0]) + local_dirs(own)
        archs = options[f][1]
        # tried when fl fails: without the architecture's own symbols
        alt = options[f][2] is not None and (
            kflags.file_flags(self.flags, f, True, modname) + own +
            self.overlay.flags(options[f][2]) + local_dirs(own))
        kdir, arch_kdirs = self.kdir, self.arch_kdirs
        # the architectures tried after a failure decide too
        kf = fl + (alt or []) + ["--arch=%s%s" % (
            a, "=" + arch_kdirs[a] if a in arch_kdirs and
            kdir else "") for a in archs] + (
            self.tree_key or (archs and self.own_tree and
                              [s.own.digest(self.root)]) or []) + (
            # what decides the machine's directories: the options (in
            # fl) and the architecture's Makefiles
            ["--modlife-machine=%s:%s" % (
                a, machdirs.fingerprint(self.root, a)) for a in archs
             if self.own_tree and not (kdir and a in arch_kdirs)])
        return fl, alt, archs, kf, s.cache.key(f, kf)
