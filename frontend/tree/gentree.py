# SPDX-License-Identifier: GPL-2.0-only
"""The headers kbuild generates before it compiles anything, made for a
kernel source tree in Python: nothing of the tree runs.

For one tree, architecture and configuration: include/generated/
(autoconf.h from the configuration; bounds.h and asm-offsets.h with the
names the tree's kernel/bounds.c and asm-offsets*.c define, the values
the parse does not depend on synthesized; timeconst.h computed from HZ;
utsrelease.h and uapi/linux/version.h from the top Makefile), and
arch/ARCH/include/generated/{asm,uapi/asm}: the asm-generic wrappers
that the Kbuild files' generic-y and mandatory-y lists ask for, and the
syscall headers that the architecture's syscall Makefile makes from its
*.tbl tables. files() returns them as {relative path: text}; the scan
writes them under a directory named by their content (overlay.py), so
they are made again only when an input changed.
"""
import hashlib
import os
import re

from . import autoconf, fswalk, genheaders, kerneltree, sysmake, \
    timeconst
from .kconfig import logical_lines
from .archnames import srcarch

# what bounds.c computes, for the configurations the scan assumes (the
# parse does not depend on the values; page-flags-layout.h compares them)
BOUNDS = {"NR_PAGEFLAGS": "25", "MAX_NR_ZONES": "5", "SPINLOCK_SIZE": "4",
          "LRU_GEN_WIDTH": "3", "__LRU_REFS_WIDTH": "2",
          "LRU_REFS_WIDTH": "2", "MAX_NR_GENS": "4", "MAX_NR_TIERS": "4"}
# a 32-bit long leaves page flags fewer spare bits: fewer zones and
# flags, as 32-bit configurations have, and no generation bits
BOUNDS_32 = dict(BOUNDS, NR_PAGEFLAGS="18", MAX_NR_ZONES="2",
                 LRU_GEN_WIDTH="0", __LRU_REFS_WIDTH="0")
MAX_HEADER = 4 << 20


def _read(path, limit=MAX_HEADER):
    try:
        with fswalk.open_regular(path) as f:
            return f.read(limit).decode("utf-8", "replace")
    except OSError:
        return ""


def _guarded(name, lines):
    guard = "__%s__" % re.sub(r"\W", "_", name).upper()
    return "\n".join(["#ifndef %s" % guard, "#define %s" % guard,
                      "/* generated from the tree's sources */"] + lines +
                     ["#endif"]) + "\n"


def _order_base_2(n):
    return max(0, (n - 1).bit_length())


def bounds(tree, config):
    """<generated/bounds.h>: each DEFINE() of kernel/bounds.c."""
    cfg = dict(config)
    names = re.findall(r"\bDEFINE\(\s*(\w+)\s*,", _read(
        os.path.join(tree, "kernel", "bounds.c")))
    table = BOUNDS if cfg.get("CONFIG_64BIT") == "y" else BOUNDS_32
    out, seen = [], set()
    for n in names:
        if n in seen:
            continue
        seen.add(n)
        if n == "NR_CPUS_BITS":
            if cfg.get("CONFIG_SMP") != "y":
                continue
            try:
                v = str(_order_base_2(int(cfg.get("CONFIG_NR_CPUS", "1"),
                                          0)))
            except ValueError:
                v = "1"
        elif n in ("LRU_GEN_WIDTH", "__LRU_REFS_WIDTH") and \
                cfg.get("CONFIG_LRU_GEN") != "y":
            v = "0"
        else:
            v = table.get(n, "1")
        out.append("#define %s %s" % (n, v))
    return _guarded("linux_bounds_h", out)


def asm_offsets(tree, arch):
    """<generated/asm-offsets.h>: the names the architecture's
    asm-offsets*.c define (values only assembly reads)."""
    d = os.path.join(tree, "arch", arch, "kernel")
    names = []
    try:
        files = sorted(f for f in os.listdir(d)
                       if re.fullmatch(r"asm-offsets.*\.c", f))
    except OSError:
        files = []
    for fn in files:
        names += re.findall(r"\b(?:OFFSET|DEFINE)\(\s*(\w+)\s*,",
                            _read(os.path.join(d, fn)))
    return _guarded("asm_offsets_h",
                    ["#define %s 0" % n for n in sorted(set(names))])


def version_headers(tree):
    v = kerneltree.version(tree) or ("0", "0", "0", "")
    major, minor = int(v[0]), int(v[1])
    try:
        sub = int(v[2])
    except ValueError:
        sub = 0
    rel = "%d.%d.%d%s" % (major, minor, sub, v[3])
    code = (major << 16) + (minor << 8) + min(sub, 255)
    return {
        "include/generated/utsrelease.h":
            '#define UTS_RELEASE "%s"\n' % rel,
        "include/generated/uapi/linux/version.h":
            "#define LINUX_VERSION_CODE %d\n"
            "#define KERNEL_VERSION(a,b,c) (((a) << 16) + ((b) << 8) + "
            "((c) > 255 ? 255 : (c)))\n"
            "#define LINUX_VERSION_MAJOR %d\n"
            "#define LINUX_VERSION_PATCHLEVEL %d\n"
            "#define LINUX_VERSION_SUBLEVEL %d\n" % (code, major, minor, sub),
        "include/generated/compile.h":
            '#define UTS_MACHINE\t\t"%s"\n#define LINUX_COMPILE_BY\t"modlife"\n'
            '#define LINUX_COMPILE_HOST\t"modlife"\n'
            '#define LINUX_COMPILER\t\t"modlife"\n' % "x86_64",
        "include/generated/utsversion.h":
            '#define UTS_VERSION "#1 SMP"\n',
    }


def _kbuild_lists(path):
    """{"generic-y": [...], "mandatory-y": [...], ...} of a Kbuild file."""
    out = {}
    for line in logical_lines(path):
        m = re.match(r"^\s*([\w-]+-y)\s*[+:]?=\s*(.*)$", line)
        if m:
            out.setdefault(m.group(1), []).extend(
                w for w in m.group(2).split()
                if re.fullmatch(r"[\w.-]+\.h", w))
    return out


def wrappers(tree, arch):
    """The asm-generic wrappers kbuild writes for the architecture."""
    out = {}
    for sub, generic in (("asm", "include/asm-generic/Kbuild"),
                         ("uapi/asm", "include/uapi/asm-generic/Kbuild")):
        own = os.path.join(tree, "arch", arch, "include", sub)
        mine = _kbuild_lists(os.path.join(own, "Kbuild"))
        names = list(mine.get("generic-y", []))
        names += [n for n in _kbuild_lists(os.path.join(tree, generic)).get(
            "mandatory-y", []) if not os.path.isfile(os.path.join(own, n))]
        for n in names:
            if os.path.isfile(os.path.join(tree, "include", "asm-generic",
                                           n)) or os.path.isfile(
                    os.path.join(tree, "include", "uapi", "asm-generic", n)):
                out["arch/%s/include/generated/%s/%s" % (arch, sub, n)] = \
                    "#include <asm-generic/%s>\n" % n
    return out


def x86_extra(tree):
    """x86's other generated headers: xen-hypercalls.h (the hypercalls
    of xen/interface/xen*.h) and orc_hash.h (a hash of orc_types.h)."""
    out = {}
    calls = set()
    d = os.path.join(tree, "include", "xen", "interface")
    try:
        names = sorted(n for n in os.listdir(d)
                       if re.fullmatch(r"xen.*\.h", n))
    except OSError:
        names = []
    defs = {}
    for n in names:
        for m in re.finditer(r"^#define\s+__HYPERVISOR_([a-z]\w*)\s+(\S+)",
                             _read(os.path.join(d, n)), re.M):
            defs[m.group(1)] = m.group(2)
    for name, value in defs.items():
        if not value.startswith("__HYPERVISOR_"):
            calls.add(name)
    out["arch/x86/include/generated/asm/xen-hypercalls.h"] = \
        "/* auto-generated by scripts/xen-hypercall.sh */\n" + "".join(
            "HYPERCALL(%s)\n" % c for c in sorted(calls))
    types = _read(os.path.join(tree, "arch", "x86", "include", "asm",
                               "orc_types.h"))
    digest = hashlib.sha1(types.encode()).hexdigest()
    out["arch/x86/include/generated/asm/orc_hash.h"] = \
        "#define ORC_HASH %s\n" % "".join(
            "0x%s," % digest[i:i + 2] for i in range(0, 40, 2))
    return out


def files(tree, arch, config):
    """{path relative to the generated tree: text} for tree, arch and
    config ([(symbol, value)])."""
    cfg = dict(config)
    arch_name, arch = arch, srcarch(arch)
    try:
        hz = int(cfg.get("CONFIG_HZ", "250"))
    except ValueError:
        hz = 250
    out = {
        "include/generated/autoconf.h": autoconf.header(
            config, "Linux/%s %s Kernel Configuration (modlife)"
            % (arch_name, kerneltree.release(tree) or "")),
        "include/generated/bounds.h": bounds(tree, config),
        "include/generated/asm-offsets.h": asm_offsets(tree, arch),
        "include/generated/timeconst.h": timeconst.text(hz),
    }
    out.update(version_headers(tree))
    out.update(wrappers(tree, arch))
    out.update(sysmake.headers(tree, arch))
    if arch == "x86":
        out.update(x86_extra(tree))
    if arch == "arm":
        text = genheaders.mach_types(tree)
        if text:
            out["arch/arm/include/generated/asm/mach-types.h"] = text
    if arch == "arm64":
        out.update(genheaders.arm64_headers(tree))
    if arch == "s390":
        text = genheaders.s390_facilities(tree, config)
        if text:
            out["arch/s390/include/generated/asm/facility-defs.h"] = text
        text = genheaders.s390_dis_defs(tree)
        if text:
            out["arch/s390/include/generated/asm/dis-defs.h"] = text
    if arch == "sh":
        text = genheaders.sh_machtypes(tree)
        if text:
            out["include/generated/machtypes.h"] = text
    return out

