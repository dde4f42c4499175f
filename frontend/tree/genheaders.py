# SPDX-License-Identifier: GPL-2.0-only
"""Headers the kernel build generates, made from the tree's own data.

Without a build, <asm/mach-types.h> (arm board numbers, from
arch/arm/tools/mach-types) and "aic7xxx_reg.h" (kbuild copies the
"aic7xxx_reg.h_shipped" beside it) do not exist. The text is made here,
in Python, from those files: nothing of the tree is run.
"""
import os
import re

from . import buildmade, fswalk

# a host program's source or table read as data (the largest, s390's
# opcodes.txt, is 30 KB)
MAX_TOOL_SOURCE = 1 << 20


def _text(path):
    """A tree's table or source file read as data, or None."""
    try:
        with fswalk.open_regular(path) as f:
            return f.read(fswalk.MAX_SOURCE).decode("utf-8", "replace")
    except OSError:
        return None


def _table(tree, arch, name="mach-types"):
    """The lines of arch/ARCH/tools/NAME, or None."""
    path = os.path.join(tree, "arch", arch, "tools", name)
    if not os.path.isfile(path):
        return None
    text = _text(path)
    return None if text is None else text.splitlines()


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


# headers a host program makes from a file beside the source that
# includes them: the header's name, and its maker (directory, stem)
_BESIDE = (
    (re.compile(r"(\w+)_reg_safe\.h"),
     lambda d, stem: reg_safe(os.path.join(d, "reg_srcs", stem))),
    (re.compile(r"(\w+)\.asn1\.h"),
     lambda d, stem: asn1_header(os.path.join(d, stem + ".asn1"), stem)),
)


def make(tree, source, header):
    """The text of a generated header a file includes, or None."""
    if header == "asm/mach-types.h" and tree:
        return mach_types(tree)
    if header == "generated/user_constants.h" and tree:
        return um_user_constants(tree)
    m = WA_OOB.fullmatch(header)
    if m and tree:
        return wa_oob(tree, os.path.dirname(source), m.group(1),
                      m.group(2) == "h")
    if header == "scsi_devinfo_tbl.c" and tree:
        return scsi_devinfo_tbl(tree)
    if "/" in header or header.startswith("."):
        return None
    for pattern, maker in _BESIDE:
        m = pattern.fullmatch(header)
        text = maker(os.path.dirname(source), m.group(1)) if m else None
        if text is not None:
            return text
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


def um_user_constants(tree):
    """<generated/user_constants.h> of User-mode Linux, which kbuild
    makes from the host's ptrace layout (arch/x86/um/user-offsets.c
    compiled for the build machine): the names its DEFINE()s give, each
    a distinct value, as the parse needs them (array sizes, indexes);
    the host's values do not matter to it."""
    text = _text(os.path.join(tree, "arch", "x86", "um", "user-offsets.c"))
    if text is None or len(text) > MAX_TOOL_SOURCE:
        return None
    # the calls, not the helper macros' definitions ("#define DEFINE_LONGS
    # (sym, val) ... DEFINE(sym, ...)" would define sym): logical lines
    names = []
    for m in re.finditer(r"^[ \t]*DEFINE(?:_LONGS)?\([ \t]*(\w+)[ \t]*,",
                         text.replace("\\\n", " "), re.M):
        if m.group(1) not in names:
            names.append(m.group(1))
    return "\n".join(["#ifndef __UM_USER_CONSTANTS_H",
                      "#define __UM_USER_CONSTANTS_H"] +
                     ["#define %s %d" % (n, i + 1)
                      for i, n in enumerate(names)] + ["#endif", ""])


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


def arm64_headers(tree):
    """{path: text} of the asm/ headers arm64's tools/Makefile makes with
    awk from the tables beside it: the capability numbers (cpucaps.h,
    cpucap-defs.h since 6.4, gen-cpucaps.awk) and the system registers
    (sysreg-defs.h, gen-sysreg.awk)."""
    out = {}
    make = "\n".join(_table(tree, "arm64", "Makefile") or [])
    name = "cpucap-defs.h" if "cpucap-defs.h" in make else "cpucaps.h"
    text = _cpucaps(tree, "__ASM_%s_H" % re.sub(
        r"\W", "_", name[:-2]).upper())
    if text:
        out["arch/arm64/include/generated/asm/" + name] = text
    text = arm64_sysregs(tree)
    if text:
        out["arch/arm64/include/generated/asm/sysreg-defs.h"] = text
    return out


def _cpucaps(tree, guard):
    """ARM64_<CAP> numbered in the order of arch/arm64/tools/cpucaps,
    and ARM64_NCAPS."""
    lines = _table(tree, "arm64", "cpucaps")
    if lines is None:
        return None
    caps = [ln for ln in lines if re.fullmatch(r"[vA-Z0-9_]+", ln)]
    out = ["#ifndef " + guard, "#define " + guard]
    out += ["#define ARM64_%s %d" % (c, i) for i, c in enumerate(caps)]
    out += ["#define ARM64_NCAPS %d" % len(caps), "#endif"]
    return "\n".join(out) + "\n"


_NAME = re.compile(r"[A-Za-z0-9_]+")
_BITS = re.compile(r"([0-9]{1,2})(?::([0-9]{1,2}))?")


def arm64_sysregs(tree):
    """arch/arm64/tools/gen-sysreg.awk's output (asm/sysreg-defs.h) from
    arch/arm64/tools/sysreg: per register its encoding (REG_, SYS_ and
    its _Op0.._Op2), per field its mask, shift and width and its named
    values, per block the RES0/RES1/UNKN masks. A line this does not
    know, or with a name that is not one, is skipped: the parse needs
    the names, and the tree's table is data, not checked here."""
    lines = _table(tree, "arm64", "sysreg")
    if lines is None:
        return None
    out = ["#ifndef __ASM_SYSREG_DEFS_H", "#define __ASM_SYSREG_DEFS_H"]
    # UNKN masks came with 6.7's generator: define what the tree's does
    awk = _table(tree, "arm64", "gen-sysreg.awk") or []
    kinds = ["RES0", "RES1"] + (["UNKN"] if any(
        '"_UNKN"' in ln for ln in awk) else [])

    def define(name, value):
        out.append("#define %s %s" % (name, value))

    reg = field = masks = None
    for ln in lines:
        w = ln.split()
        if not w or w[0].startswith("#"):
            continue
        kw, args = w[0], w[1:]
        names = all(_NAME.fullmatch(a) for a in args)
        if kw == "Sysreg" and len(args) == 6 and _NAME.fullmatch(args[0]) \
                and all(a.isdigit() for a in args[1:]):
            reg, op = args[0], args[1:]
            define("REG_" + reg, "S%s_%s_C%s_C%s_%s" % tuple(op))
            define("SYS_" + reg, "sys_reg(%s)" % ", ".join(op))
            for part, value in zip(("Op0", "Op1", "CRn", "CRm", "Op2"), op):
                define("SYS_%s_%s" % (reg, part), value)
            masks = dict((k, []) for k in kinds)
        elif kw == "SysregFields" and len(args) == 1 and names:
            reg, masks = args[0], dict((k, []) for k in kinds)
        elif kw in ("EndSysreg", "EndSysregFields") and reg:
            for name, spans in sorted((masks or {}).items()):
                define("%s_%s" % (reg, name), "(UL(0)%s)" % "".join(
                    " | GENMASK_ULL(%s, %s)" % s for s in spans))
            reg = field = masks = None
        elif kw == "Fields" and reg:
            masks = None    # the fields block defines them
        elif kw in ("Res0", "Res1", "Unkn") and reg and len(args) == 1:
            m = _BITS.fullmatch(args[0])
            if m and masks is not None and kw.upper() in masks:
                masks[kw.upper()].append((m.group(1),
                                          m.group(2) or m.group(1)))
        elif kw in ("Field", "Enum", "SignedEnum", "UnsignedEnum") \
                and reg and len(args) == 2 and _NAME.fullmatch(args[1]):
            m = _BITS.fullmatch(args[0])
            if not m:
                continue
            msb, lsb = int(m.group(1)), int(m.group(2) or m.group(1))
            field = args[1]
            name = "%s_%s" % (reg, field)
            define(name, "GENMASK(%d, %d)" % (msb, lsb))
            define(name + "_MASK", "GENMASK(%d, %d)" % (msb, lsb))
            define(name + "_SHIFT", "%d" % lsb)
            define(name + "_WIDTH", "%d" % (msb - lsb + 1))
            if kw != "Field" and kw != "Enum":
                define(name + "_SIGNED",
                       "true" if kw == "SignedEnum" else "false")
        elif kw == "EndEnum":
            field = None
        elif re.fullmatch(r"0b[01]+", kw) and field and len(args) == 1 \
                and names:
            define("%s_%s_%s" % (reg, field, args[0]), "UL(%s)" % kw)
    out.append("#endif")
    return "\n".join(out) + "\n"


MAX_FACILITY = 1 << 12


def s390_facilities(tree, config):
    """arch/s390/tools/gen_facilities.c's output (asm/facility-defs.h):
    per list of facility_defs[] its bits as 64-bit words, the bits under
    an #ifdef CONFIG_ that config sets. The program is a host tool of
    the tree: its table is read here, the program is never built."""
    text = _text(os.path.join(tree, "arch", "s390", "tools",
                              "gen_facilities.c"))
    if text is None or len(text) > MAX_TOOL_SOURCE:
        return None
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    # C defines CONFIG_X for y (and values), CONFIG_X_MODULE for m
    on = set(k for k, v in config if v not in ("n", "m"))
    keep, lines = [], []
    for ln in text.splitlines():
        m = re.match(r"\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b\s*(\w*)",
                     ln)
        if m:
            kind, name = m.groups()
            if kind in ("ifdef", "ifndef"):
                keep.append((name in on) == (kind == "ifdef"))
            elif kind == "if":
                keep.append(True)   # not evaluated: its lines are kept
            elif kind == "else" and keep:
                keep[-1] = not keep[-1]
            elif kind == "endif" and keep:
                keep.pop()
            continue
        if all(keep):
            lines.append(ln)
    out = ["#ifndef __ASM_S390_FACILITY_DEFS__",
           "#define __ASM_S390_FACILITY_DEFS__", "#include <linux/const.h>"]
    for m in re.finditer(r'\.name\s*=\s*"(\w+)"\s*,\s*\.bits\s*=\s*'
                         r'\(int\[\]\)\s*\{([^{}]{0,65536})\}', "\n".join(lines)):
        bits = [int(b) for b in re.findall(r"-?[0-9]{1,5}\b", m.group(2))]
        bits = bits[:bits.index(-1)] if -1 in bits else bits
        # facility numbers are under 256; a table made to be huge is not
        bits = [b for b in bits if 0 <= b < MAX_FACILITY]
        words = [0] * (max(bits) // 64 + 1 if bits else 1)
        for b in bits:
            words[b // 64] |= 1 << (63 - (b & 63))
        out.append("#define %s %s" % (m.group(1), ",".join(
            "_AC(0x%016x,UL)" % w for w in words)))
    out.append("#endif")
    return "\n".join(out) + "\n"


# radeon's tables end below 0x10000
MAX_REGISTER = 1 << 20


def reg_safe(path):
    """radeon's mkregtable output for a reg_srcs/ table (the host
    program is not built): NAME_reg_safe_bm[], one bit per register
    dword up to the highest offset, set unless the table lists it."""
    text = _text(path)
    if text is None:
        return None
    lines = text.splitlines()
    head = lines[0].split() if lines else []
    if len(head) < 2 or not re.fullmatch(r"[A-Za-z_]\w{0,8}", head[0]):
        return None
    m = re.fullmatch(r"(?:0[xX])?([0-9a-fA-F]{1,8})", head[1])
    top = int(m.group(1), 16) if m else 0
    offsets = []
    for ln in lines[1:]:
        m = re.search(r"0x([0-9a-fA-F]{1,8})", ln)
        if m:
            offsets.append(int(m.group(1), 16))
    top = max(offsets + [top])
    if top > MAX_REGISTER:
        return None
    words = [0xffffffff] * (((top >> 2) + 31) // 32)
    for o in offsets:
        # mkregtable writes past its array for such an offset: skipped
        if (o >> 2) // 32 < len(words):
            words[(o >> 2) // 32] ^= 1 << ((o >> 2) & 31)
    out = ["static const unsigned %s_reg_safe_bm[%d] = {" % (head[0],
                                                           len(words))]
    for i in range(0, len(words), 4):
        out.append("\t" + " ".join("0x%08X," % w for w in words[i:i + 4]))
    out.append("};")
    return "\n".join(out) + "\n"


# the largest grammar of the tree has a few dozen actions
MAX_ACTIONS = 4096
ASN1_COMMENT = re.compile(r"--.*?(?:--|$)", re.M)
ASN1_ACTION = re.compile(r"\(\{\s*([A-Za-z_]\w{0,127})\s*\}\)")


def asn1_header(path, grammar):
    """scripts/asn1_compiler's NAME.asn1.h for a grammar of the tree (the
    host program is not built): the decoder, and the action functions
    the grammar names in "({ fn })", sorted and once each, declared as
    the compiler declares them."""
    text = _text(path)
    if text is None:
        return None
    actions = sorted(set(ASN1_ACTION.findall(ASN1_COMMENT.sub("", text))))
    if len(actions) > MAX_ACTIONS:
        return None
    out = ["/*", " * Automatically generated by asn1_compiler.  Do not edit",
           " *", " * ASN.1 parser for %s" % grammar, " */",
           "#include <linux/asn1_decoder.h>", "",
           "extern const struct asn1_decoder %s_decoder;" % grammar, ""]
    out += ["extern int %s(void *, size_t, unsigned char, const void *, "
            "size_t);" % a for a in actions]
    return "\n".join(out) + "\n\n"


# s390 has about 1300 instructions; names and formats are short words
MAX_OPCODES = 1 << 14
S390_WORD = re.compile(r"[A-Za-z0-9_.]{1,19}")


def s390_dis_defs(tree):
    """arch/s390/tools/gen_opcode_table.c's output (asm/dis-defs.h) for
    the tree's opcodes.txt: the INSTR_ format enum, the LONG_INSN_ names
    of six characters or more, the opcode table grouped by the first
    byte and the groups' offsets. The format types (which byte holds the
    rest of the opcode, its mask) are the program's insn_type_table[],
    read from its source; the program is never built."""
    base = os.path.join(tree, "arch", "s390", "tools")
    src = _text(os.path.join(base, "gen_opcode_table.c"))
    table = _text(os.path.join(base, "opcodes.txt"))
    if src is None or table is None or \
            max(len(src), len(table)) > MAX_TOOL_SOURCE:
        return None
    types = []      # [(byte, mask, {formats})]
    for m in re.finditer(r"\.byte\s*=\s*(\d{1,2})\s*,\s*\.mask\s*=\s*"
                         r"0x([0-9a-fA-F]{1,2})\s*,\s*\.format\s*=\s*"
                         r"\(char\s*\*\[\]\)\s*\{([^{}]{0,4096})\}", src):
        types.append((int(m.group(1)), int(m.group(2), 16),
                      set(re.findall(r'"(\w+)"', m.group(3)))))
    insns = []      # [(opcode, name, format, type)]
    words = table.split()
    if len(words) % 3 or len(words) > 3 * MAX_OPCODES or not types:
        return None
    for i in range(0, len(words), 3):
        opcode, name, fmt = words[i:i + 3]
        if not (re.fullmatch(r"[0-9a-fA-F]{2,4}", opcode) and
                S390_WORD.fullmatch(name) and S390_WORD.fullmatch(fmt)):
            return None
        kind = next((t for t in types if fmt.split("_")[0] in t[2]), None)
        if kind is None:
            return None     # the program exits without a header
        insns.append((opcode, name, fmt, kind))
    out = ["#ifndef __S390_GENERATED_DIS_DEFS_H__",
           "#define __S390_GENERATED_DIS_DEFS_H__", "", "enum {"]
    formats = sorted(set(i[2] for i in insns))
    out += ["\tINSTR_%s," % f for f in formats]
    out += ["}; /* %d */" % len(formats), "", "enum {"]
    longs = sorted((i for i in insns if len(i[1]) >= 6),
                   key=lambda i: i[1])
    out += ["\tLONG_INSN_%s," % i[1].upper() for i in longs]
    out += ["}; /* %d */" % len(longs), "",
            "#define LONG_INSN_INITIALIZER { \\"]
    out += ['\t[LONG_INSN_%s] = "%s", \\' % (i[1].upper(), i[1])
            for i in longs]
    out += ["}", "", "#define OPCODE_TABLE_INITIALIZER { \\"]
    groups = []     # [opcode byte, type, offset, count]

    def entry(insn, nr):
        opcode, name, fmt, kind = insn
        if groups and (groups[-1][0] == opcode[:2] or groups[-1][1][0] == 0):
            groups[-1][3] += 1
        else:
            groups.append([opcode[:2], kind, nr, 1])
        frag = opcode[2:] if kind[0] else opcode
        what = '.name = "%s" ' % name if len(name) < 6 else \
            ".offset = LONG_INSN_%s " % name.upper()
        return "\t[%4d] = { .opfrag = 0x%s, .format = INSTR_%s, %s}, \\" % (
            nr, frag, fmt, what)
    by_opcode = sorted(insns, key=lambda i: i[0])
    nr, first = 0, ""
    for insn in by_opcode:
        if insn[3][0] == 0:
            continue
        if first != insn[0][:2]:
            first = insn[0][:2]
            out.append("\t/* %s */ \\" % first)
        out.append(entry(insn, nr))
        nr += 1
    out.append("\t/* 1-byte opcode instructions */ \\")
    for insn in by_opcode:
        if insn[3][0] != 0:
            continue
        out.append(entry(insn, nr))
        nr += 1
    out += ["}", "", "#define OPCODE_OFFSET_INITIALIZER { \\"]
    out += ["\t{ .opcode = 0x%s, .mask = 0x%02x, .byte = %d, .offset = %d, "
            ".count = %d }, \\" % (g[0], g[1][1], g[1][0], g[2], g[3])
            for g in groups]
    out += ["}", "", "#endif"]
    return "\n".join(out) + "\n"


# xe's <generated/xe_wa_oob.h> and .c: xe_gen_wa_oob's output for the
# rules file of the driver's directory
WA_OOB = re.compile(r"generated/([a-z][a-z0-9_]{0,31})_wa_oob\.([ch])")
MAX_RULES = 1 << 12


def wa_oob(tree, d, stem, header):
    """xe_gen_wa_oob's header (an enum naming each rule) or source (the
    rules' table) for STEM_wa_oob.rules, which lies in the directory d
    of the file that includes it or in one above (xe/display/ includes
    xe/'s), within tree."""
    text = next((t for t in (_text(os.path.join(up, stem + "_wa_oob.rules"))
                             for up in buildmade.dirs_up(tree, d, 3))
                 if t is not None), None)
    if text is None:
        return None
    rules = []          # [name, [rules of each line]]
    for ln in text.splitlines():
        if not ln or ln.startswith("#"):
            continue
        if ln[0].isspace():
            if not rules or not ln.strip():
                return None     # the program refuses these
            rules[-1][1].append(ln.strip())
            continue
        w = ln.strip().split(None, 1)
        if len(w) < 2 or not re.fullmatch(r"\w{1,64}", w[0]):
            return None
        rules.append([w[0], [w[1].strip()]])
        if len(rules) > MAX_RULES:
            return None
    up = stem.upper() + "_WA_OOB_"
    if header:
        guard = "_GENERATED_" + up
        out = ["#ifndef " + guard, "#define " + guard, "", "enum {"]
        out += ["\t%s%s = %d," % (up, n, i) for i, (n, _) in
                enumerate(rules)]
        out += ["\t_%sCOUNT = %d" % (up, len(rules)), "};", "", "#endif"]
        return "\n".join(out) + "\n"
    out = []
    for name, lines in rules:
        out.append('{ XE_RTP_NAME("%s"),\n  XE_RTP_RULES(%s%s) },' % (
            name, lines[0], "".join(", OR,\n\t" + r for r in lines[1:])))
    return "\n".join(out) + "\n"


def scsi_devinfo_tbl(tree):
    """drivers/scsi/Makefile's sed over <scsi/scsi_devinfo.h>: a
    BLIST_FLAG_NAME() line for each BLIST_ flag it defines."""
    text = _text(os.path.join(tree, "include", "scsi", "scsi_devinfo.h"))
    if text is None:
        return None
    out = []
    for ln in text.splitlines():
        m = re.match(r".*define *BLIST_([A-Z0-9_]*) *", ln)
        if m:
            out.append("BLIST_FLAG_NAME(%s)," % m.group(1))
    return "\n".join(out) + "\n"
