# SPDX-License-Identifier: GPL-2.0-only
"""The configuration a kernel tree is parsed under when no configured
KDIR of its version is at hand, and its <generated/autoconf.h>.

The base is a shipped configuration (kb/tree-config/ARCH.config: the
options Debian's 6.1 amd64 kernel sets), made to fit the tree: options
the tree defines in no Kconfig file are dropped (a newer tree removed
them), and int, hex and string options it defines that the base does
not set get their literal default (a newer tree added them). Each
module's own options are added per file on top (overlay.py), as over a
KDIR's autoconf.h."""
import os
import re

from .. import paths
from . import archnames, fswalk, kconfeval

# the architecture of the shipped configurations
BASE_ARCH = "x86"
# what a distribution's configuration of an architecture chooses where
# kconfig's defaults would not (64-bit, the common platform)
SEEDS = {
    "powerpc": [("CONFIG_PPC64", "y"), ("CONFIG_PPC_BOOK3S_64", "y"),
                ("CONFIG_CPU_LITTLE_ENDIAN", "y"), ("CONFIG_PPC_PSERIES", "y"),
                ("CONFIG_PPC_POWERNV", "y"), ("CONFIG_SMP", "y")],
    "arm": [("CONFIG_ARCH_MULTI_V7", "y"), ("CONFIG_ARCH_MULTIPLATFORM", "y"),
            ("CONFIG_MMU", "y"), ("CONFIG_SMP", "y"), ("CONFIG_AEABI", "y")],
    "mips": [("CONFIG_MIPS_MALTA", "y"), ("CONFIG_CPU_MIPS32_R2", "y"),
             ("CONFIG_32BIT", "y"), ("CONFIG_CPU_LITTLE_ENDIAN", "y")],
    "riscv": [("CONFIG_64BIT", "y"), ("CONFIG_ARCH_RV64I", "y"),
              ("CONFIG_MMU", "y"), ("CONFIG_SMP", "y")],
    "sparc": [("CONFIG_64BIT", "y"), ("CONFIG_SMP", "y")],
    # the 32-bit kernels of 64-bit ones (archnames.py): 64BIT is off
    "i386": [("CONFIG_SMP", "y")],
    "sparc32": [("CONFIG_SMP", "y")],
    # the classic machines with their MMU (the page size follows)
    "m68k": [("CONFIG_MMU", "y"), ("CONFIG_M68KCLASSIC", "y"),
             ("CONFIG_M68040", "y"), ("CONFIG_AMIGA", "y"),
             ("CONFIG_ATARI", "y"), ("CONFIG_MAC", "y"), ("CONFIG_Q40", "y")],
    "arm64": [("CONFIG_SMP", "y")],
    "s390": [("CONFIG_SMP", "y")],
}
LINE = re.compile(r'^(CONFIG_\w+)=(y|m|-?\d+|0x[0-9a-fA-F]+|"[^"\n]*")$')


def template(arch="x86"):
    """The shipped base configuration for arch, or None."""
    path = os.path.join(paths.ROOT, "kb", "tree-config", arch + ".config")
    return path if os.path.isfile(path) else None


def read_config(path):
    """[(symbol, value)] of a .config's set options, in file order."""
    try:
        with fswalk.open_regular(path) as f:
            text = f.read(fswalk.MAX_SOURCE).decode("utf-8", "replace")
    except OSError:
        return []
    out = []
    for line in text.split("\n"):
        m = LINE.match(line.strip())
        if m:
            out.append((m.group(1), m.group(2)))
    return out


def read_off(path):
    """The options a .config turns off ("# CONFIG_X is not set")."""
    try:
        with fswalk.open_regular(path) as f:
            text = f.read(fswalk.MAX_SOURCE).decode("utf-8", "replace")
    except OSError:
        return set()
    return set(re.findall(r"^# (CONFIG_\w+) is not set$", text, re.M))


def fit(base, kconfig, off=(), arch="x86"):
    """The base [(symbol, value)] made to fit the tree kconfig read, as
    for arch: what it does not define (for arch) dropped, what it defines and the base
    neither sets nor turns off (off) given the value kconfig would give
    it (kconfeval.py)."""
    if not kconfig.defined_in:
        return list(base)
    out = [(s, v) for s, v in base if s in kconfig.defined_in]
    if arch != BASE_ARCH:
        # the base's architecture options are not this one's: those
        # of architectures only are made again, from the seeds of
        # a configuration of arch as a distribution builds it
        top = os.path.join(kconfig.tree, "arch") + os.sep

        def arch_only(sym):
            # defined under arch/ only, or selected by architectures'
            # options only (ARCH_WANT_BATCHED_UNMAP_TLB_FLUSH)
            return all(f.startswith(top) for f in kconfig.defined_in.get(
                sym, ())) or bool(kconfig.arches(sym))
        out = [(s, v) for s, v in out if not arch_only(s)]
        off = {s for s in off if not arch_only(s)}
        if archnames.is_word32(arch):
            off.add(archnames.WORD_SIZE_OPTION)
        out += [(s, v) for s, v in SEEDS.get(arch, ())
                if s in kconfig.defined_in]
        out = kconfeval.complete(kconfig, out, off, arch)
        # the base's options whose dependencies this architecture does
        # not meet go, as kconfig drops them, and what they held off
        # takes its value (FLATMEM where SPARSEMEM went)
        out = kconfeval.drop_unmet(kconfig, out, {s for s, _ in SEEDS.get(
            arch, ())}, arch)
    return kconfeval.complete(kconfig, out, off, arch)


def header(config, title):
    """<generated/autoconf.h> for [(symbol, value)]."""
    out = ["/*", " * Automatically generated file; DO NOT EDIT.",
           " * %s" % title, " */"]
    for sym, v in config:
        if v == "y":
            out.append("#define %s 1" % sym)
        elif v == "m":
            out.append("#define %s_MODULE 1" % sym)
        else:
            out.append("#define %s %s" % (sym, v))
    return "\n".join(out) + "\n"


def dot_config(config):
    """The same configuration as a .config (for Kconfig.read_config)."""
    return "".join("%s=%s\n" % sv for sv in config)
