# SPDX-License-Identifier: GPL-2.0-only
"""Another architecture's headers for a file that needs them.

A driver for powerpc, mips or m68k hardware includes <asm/vio.h> or
<mach/dma.h>, which KDIR (one architecture's headers) does not have. Such
a file is still module code in some configuration, so it is parsed again
with the tree's headers of the architecture that has the missing one,
searched after KDIR's (-idirafter): KDIR's asm/ still wins wherever it
has the header.
"""
import glob
import os
import re

MISSING = re.compile(r"unable to open '((?:asm|mach|plat|mach-[\w-]+)/"
                     r"[\w./-]+)'")
MAX_TRIES = 3


def header_dirs(tree, header):
    """The include directories of tree/arch/ that hold header, e.g.
    ["arch/powerpc/include"] for "asm/vio.h"; [] if none does."""
    if ".." in header.split("/"):
        return []
    out = []
    for pattern in ("arch/*/include", "arch/*/include/uapi",
                    "arch/*/mach-*/include", "arch/*/plat-*/include",
                    "arch/*/include/asm/mach-*", "arch/*/include/mach-*"):
        for d in sorted(glob.glob(os.path.join(tree, pattern))):
            if os.path.isfile(os.path.join(d, header)):
                out.append(d)
    return out


def _arch_of(tree, d):
    rel = os.path.relpath(d, os.path.join(tree, "arch"))
    return rel.split(os.sep, 1)[0]


def flags_for(tree, header, have):
    """-idirafter flags that make header found, of one architecture
    (the first, by name, that has it), or None. have: flags added by
    earlier tries; an architecture already chosen is kept."""
    dirs = header_dirs(tree, header)
    if not dirs:
        return None
    chosen = {_arch_of(tree, d) for d in have[1::2]}
    mine = [d for d in dirs if _arch_of(tree, d) in chosen] or \
        [d for d in dirs if _arch_of(tree, d) == _arch_of(tree, dirs[0])]
    arch = os.path.join(tree, "arch", _arch_of(tree, mine[0]))
    out = []
    for d in [os.path.join(arch, "include"),
              os.path.join(arch, "include", "uapi")] + mine:
        if d not in have[1::2] and d not in out[1::2]:
            out += ["-idirafter", d]
    return out or None


def parse_with_fallback(run, tree, flags, path):
    """run(flags) -> (facts, err). Retries with another architecture's
    headers while the error is a missing asm/mach header that arch/ of
    the tree has; the last try's result is returned, and the error names
    the architecture tried."""
    facts, err = run(flags)
    added = []
    for _ in range(MAX_TRIES):
        m = MISSING.search(err or "")
        if not m or not tree:
            break
        more = flags_for(tree, m.group(1), added)
        if not more:
            break
        added += more
        facts, err = run(flags + added)
    if err and added:
        err += " (with %s headers)" % _arch_of(tree, added[1])
    return facts, err
