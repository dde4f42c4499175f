# SPDX-License-Identifier: GPL-2.0-only
"""Headers the kernel build generates, made from the tree's own data.

Without a build, <asm/mach-types.h> (arm board numbers, from
arch/arm/tools/mach-types) and "aic7xxx_reg.h" (kbuild copies the
"aic7xxx_reg.h_shipped" beside it) do not exist. The text is made here,
in Python, from those files: nothing of the tree is run.
"""
import os
import re

from . import fswalk


def _table(tree, arch):
    """The lines of arch/ARCH/tools/mach-types, or None."""
    path = os.path.join(tree, "arch", arch, "tools", "mach-types")
    if not os.path.isfile(path):
        return None
    try:
        with fswalk.open_regular(path) as f:
            return f.read(fswalk.MAX_SOURCE).decode(
                "utf-8", "replace").splitlines()
    except OSError:
        return None


def mach_types(tree):
    """arch/arm/tools/gen-mach-types' output for every board: the
    MACH_TYPE_ numbers and machine_is_*() (false unless the board's
    option is on, as on a build for another board)."""
    lines = _table(tree, "arm")
    if lines is None:
        return None
    out = ["#ifndef __ASM_ARM_MACH_TYPE_H", "#define __ASM_ARM_MACH_TYPE_H",
           "#ifndef __ASSEMBLY__",
           "extern unsigned int __machine_arch_type;", "#endif"]
    for ln in lines:
        w = ln.split("#", 1)[0].split()
        if len(w) != 4 or not re.fullmatch(r"\d+", w[3]) or not all(
                re.fullmatch(r"\w+", x) for x in w[:3]):
            continue
        name, config, mtype, num = w
        out += ["#define MACH_TYPE_%s %s" % (mtype, num),
                "#ifdef CONFIG_%s" % config,
                "# ifdef machine_arch_type",
                "#  undef machine_arch_type",
                "#  define machine_arch_type __machine_arch_type",
                "# else",
                "#  define machine_arch_type MACH_TYPE_%s" % mtype,
                "# endif",
                "# define machine_is_%s() (machine_arch_type == MACH_TYPE_%s)"
                % (name, mtype),
                "#else",
                "# define machine_is_%s() (0)" % name,
                "#endif"]
    out += ["#ifndef machine_arch_type",
            "#define machine_arch_type __machine_arch_type", "#endif",
            "#endif"]
    return "\n".join(out) + "\n"


def make(tree, source, header):
    """The text of a generated header a file includes, or None."""
    if header == "asm/mach-types.h" and tree:
        return mach_types(tree)
    if "/" in header or header.startswith("."):
        return None
    shipped = os.path.join(os.path.dirname(source), header + "_shipped")
    if not os.path.isfile(shipped):
        return None
    try:
        with fswalk.open_regular(shipped) as f:
            data = f.read(fswalk.MAX_SOURCE + 1)
    except OSError:
        return None
    if len(data) > fswalk.MAX_SOURCE:
        return None             # no header a tree ships is this large
    return data.decode("utf-8", "replace")


def sh_machtypes(tree):
    """arch/sh/tools/gen-mach-types' output (include/generated/
    machtypes.h): MACH_x 1 when the board's option is on, else 0, and
    mach_is_x()."""
    lines = _table(tree, "sh")
    if lines is None:
        return None
    machs = []
    for ln in lines:
        w = ln.split()
        if ln.startswith("#") or len(w) != 2 or not all(
                re.fullmatch(r"\w+", x) for x in w):
            continue
        machs.append(w)
    out = ["#ifndef __ASM_SH_MACHTYPES_H", "#define __ASM_SH_MACHTYPES_H"]
    for mach, config in machs:
        out += ["#ifdef CONFIG_%s" % config, "  #define MACH_%s 1" % mach,
                "#else", "  #define MACH_%s 0" % mach, "#endif"]
    out += ["#define mach_is_%s() (MACH_%s)" % (mach.lower(), mach)
            for mach, _ in machs]
    out += ["#endif"]
    return "\n".join(out) + "\n"
