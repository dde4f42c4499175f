# SPDX-License-Identifier: GPL-2.0-only
"""Another architecture's headers for a file that needs them.

A driver for powerpc, mips or m68k hardware includes <asm/vio.h>,
<mach/dma.h> or <sysdev/fsl_soc.h>, which KDIR (one architecture's
headers) does not have. Such a file is still module code in some
configuration, so it is parsed again with the tree's headers of the
architecture that has the missing one, searched after KDIR's
(-idirafter): KDIR's asm/ still wins wherever it has the header.
"""
import os
import re
import threading

from . import buildmade, ccheaders, fswalk, genheaders
from .archnames import srcarch

# a header, or a table or source a file includes ("wanxlfw.inc")
MISSING = re.compile(r"unable to open '([\w./-]+\.\w+)'")
MAX_TRIES = 3


class ArchHeaders:
    """The headers under a tree's arch/, indexed by file name."""

    def __init__(self, tree):
        self.tree = tree
        self.arch = os.path.join(tree, "arch")
        self._index = None
        self._lock = threading.Lock()

    def _build(self):
        index = {}
        for dirpath, dirnames, filenames in fswalk.walk(self.arch):
            dirnames.sort()
            for fn in sorted(filenames):
                if fn.endswith(".h"):
                    index.setdefault(fn, []).append(
                        os.path.join(dirpath, fn))
        return index

    def dirs(self, header):
        """The include directories under arch/ that make header found
        (arch/powerpc/include for "asm/vio.h", arch/powerpc for
        "sysdev/fsl_soc.h"), in a stable order."""
        parts = header.split("/")
        if ".." in parts or header.startswith("/"):
            return []
        with self._lock:
            if self._index is None:
                self._index = self._build()
        tail = os.sep + os.path.join(*parts)
        return [p[:-len(tail)] for p in self._index.get(parts[-1], [])
                if p.endswith(tail)]

    def arch_of(self, d):
        return os.path.relpath(d, self.arch).split(os.sep, 1)[0]

    def flags_for(self, header, have):
        """-idirafter flags that make header found, of one architecture
        (one already chosen, else the first by name that has it), or
        None. have: flags added by earlier tries."""
        dirs = self.dirs(header)
        if not dirs:
            return None
        chosen = {self.arch_of(d) for d in have[1::2]}
        arch = next((self.arch_of(d) for d in dirs
                     if self.arch_of(d) in chosen), None) or \
            min(self.arch_of(d) for d in dirs)
        mine = [d for d in dirs if self.arch_of(d) == arch][:1]
        base = os.path.join(self.arch, arch)
        out = []
        for d in [os.path.join(base, "include"),
                  os.path.join(base, "include", "uapi")] + mine:
            if d not in have[1::2] and d not in out[1::2]:
                out += ["-idirafter", d]
        return out or None


_trees = {}
_trees_lock = threading.Lock()


def for_tree(tree):
    with _trees_lock:
        if tree not in _trees:
            _trees[tree] = ArchHeaders(tree)
        return _trees[tree]


def parse_with_fallback(run, tree, flags, path, archs=(), generated=None,
                        for_arch=None):
    """run(flags) -> (facts, err). After a failed parse: again while the
    error names a missing header that can be had - one the build would
    generate (generated(header, text) gives a directory holding it), or
    one of the tree's arch/ (after KDIR's); if that fails too and the
    file's options depend on other architectures (archs), again as for
    each of them (up to three) that has configured headers (for_arch(flags,
    arch) gives its flags, or None), or else with the first one's headers
    before KDIR's, so that its <asm/io.h> declares in_be32(). The first
    clean try wins (the likeliest architecture's arch/ headers are tried
    when it has no configured ones, also after the others failed); else
    the first try as another architecture, its error naming it."""
    facts, err = run(flags)
    if not err:
        return facts, err
    ah = for_tree(tree) if tree else None
    facts, err, added = _missing_headers(ah, run, flags, [], path,
                                         generated, facts, err)
    if not (err and archs and ah):
        arch = [ah.arch_of(d) for d in added[1::2]
                if ah and d.startswith(ah.arch + os.sep)]
        if err and arch:
            err += " (with %s headers)" % arch[0]
        return facts, err

    def attempt(other, arch):
        f, e = run(other)
        f, e, _ = _missing_headers(ah, run, other, ["-idirafter", os.path.join(
            ah.arch, srcarch(arch), "include")], path, generated, f, e)
        return f, e

    tried = []
    for a in archs:
        other = for_arch(flags, a) if for_arch else None
        if not other:
            continue
        f, e = attempt(other, a)
        if not e:
            return f, e
        tried.append((f, e + " (as %s)" % a))
        if len(tried) == MAX_TRIES:
            break
    if tried and for_arch and for_arch(flags, archs[0]):
        return tried[0]
    # the likeliest architecture has no configured headers: its arch/
    # headers before KDIR's (sparc's vcc.c, even where s390 has some)
    base = os.path.join(ah.arch, srcarch(archs[0]))
    f, e = attempt(flags + ["-I" + os.path.join(base, "include"),
                            "-I" + os.path.join(base, "include", "uapi")],
                   archs[0])
    if e and tried:
        return tried[0]
    return f, e and e + " (with %s headers first)" % archs[0]


def _missing_headers(ah, run, flags, have, path, generated, facts, err):
    """Retries while the error names a header that genheaders makes, a
    compiler's header that has a stand-in (ccheaders) or one arch/ has;
    returns the last try and the flags it added."""
    added, before = [], None
    for _ in range(MAX_TRIES + 1):
        m = MISSING.search(err or "")
        if not m:
            break
        text = genheaders.make(ah.tree if ah else None, path, m.group(1)) \
            if generated else None
        if text is None and generated:
            text = ccheaders.stand_in(m.group(1))
        if text is not None:
            more = ["-idirafter", generated(m.group(1), text)]
        else:
            more = ah.flags_for(m.group(1), have + added) if ah else None
        if not more and generated and ah and \
                buildmade.made_by_build(ah.tree, path, m.group(1)):
            # the build makes it, nothing here can: empty, and said
            before = before or (facts, err, list(added))
            more = ["-idirafter", generated(m.group(1), buildmade.TEXT,
                                            stand_in=True)]
        if not more:
            break
        added += more
        facts, err = run(flags + added)
    if err and before:
        # the stand-in did not do: the file the build makes is missing
        return before
    return facts, err, added
