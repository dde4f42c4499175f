# SPDX-License-Identifier: GPL-2.0-only
"""The checker flags for a kernel source tree parsed with its own
headers: what kbuild passes to a checker (CHECKFLAGS, LINUXINCLUDE, the
-include of kconfig.h and compiler_types.h, c_flags) with the include
paths of the tree and of the generated headers (gentree.py). The
compiler flags are those kbuild passes on x86_64 (the ones sparse reads:
-std=gnu11, -O2, -m64, -DCC_USING_FENTRY, ...); each architecture adds
sparse's --arch and its endianness."""
import os

from .archnames import srcarch

# kbuild's CHECKFLAGS (before the machine flags)
CHECK = ["-D__linux__", "-Dlinux", "-D__STDC__", "-Dunix", "-D__unix__",
         "-Wbitwise", "-Wno-return-void", "-Wno-unknown-attribute"]
# the machine flags per architecture (arch/*/Makefile's CHECKFLAGS and
# sparse's --arch); other include directories an architecture's
# Makefile adds, relative to the tree
MACHINE = {
    "x86": ["-D__x86_64__", "--arch=x86", "-mlittle-endian", "-m64"],
    # the 32-bit kernels (archnames.py): arch/x86/Makefile's BITS=32
    # flags, sparc's -m32
    "i386": ["-D__i386__", "--arch=i386", "-mlittle-endian", "-m32"],
    "sparc32": ["--arch=sparc", "-mbig-endian", "-m32"],
    "arm": ["--arch=arm", "-mlittle-endian", "-D__LINUX_ARM_ARCH__=7"],
    "arm64": ["--arch=arm64", "-mlittle-endian"],
    "powerpc": ["--arch=powerpc64", "-mlittle-endian"],
    "s390": ["--arch=s390x", "-mbig-endian"],
    # what MIPS's compiler predefines for -march=mips32r2 (the tree's
    # CHECKFLAGS copy them from it; sparse has only the sizes)
    "mips": ["--arch=mips", "-mlittle-endian", "-D_ABIO32=1",
             "-D_ABIN32=2", "-D_ABI64=3", "-D_MIPS_SIM=_ABIO32",
             "-D_MIPS_ISA=_MIPS_ISA_MIPS32", "-D__mips_isa_rev=2",
             "-D_MIPS_ARCH_MIPS32R2=1", "-D__mips_soft_float=1",
             "-I@TREE@/arch/mips/include/asm/mach-malta",
             "-I@TREE@/arch/mips/include/asm/mach-generic"],
    "riscv": ["--arch=riscv64", "-mlittle-endian"],
    "sparc": ["--arch=sparc64", "-mbig-endian"],
    "m68k": ["--arch=m68k", "-mbig-endian"],
    "alpha": ["--arch=alpha", "-mlittle-endian"],
    "sh": ["--arch=sh", "-mlittle-endian"],
    "microblaze": ["--arch=microblaze", "-mbig-endian"],
    # the compiler's default windowed ABI (-mabi=call0 is an option's)
    # and the tree's CHECKFLAGS
    "xtensa": ["--arch=xtensa", "-mlittle-endian",
               "-D__XTENSA_WINDOWED_ABI__=1", "-D__XTENSA_EL__"],
    "openrisc": ["--arch=openrisc", "-mbig-endian"],
    "nios2": ["--arch=nios2", "-mlittle-endian"],
    # sparse 0.6.4 has no LoongArch target: riscv64's LP64 little-endian
    # layout without its macros (LoongArch's char is signed; from 6.2
    # every architecture's kernel makes it unsigned, as x86's flags do
    # not say either), and what LoongArch's compiler predefines
    # (the tree's CHECKFLAGS copy them from it)
    "loongarch": ["--arch=riscv64", "-mlittle-endian", "-fsigned-char",
                  "-U__riscv",
                  "-U__riscv_xlen", "-D__loongarch__=1",
                  "-D__loongarch64=1", "-D__loongarch_grlen=64",
                  "-D__loongarch_lp64=1", "-D_LOONGARCH_SZLONG=64",
                  "-D_LOONGARCH_SZPTR=64", "-D_LOONGARCH_SZINT=32",
                  "-D_ABILP64=3", "-D_LOONGARCH_SIM=_ABILP64"],
    # nor an IA-64 one: the same LP64 little-endian layout, and what
    # IA-64's compiler predefines
    "ia64": ["--arch=riscv64", "-mlittle-endian", "-fsigned-char",
             "-U__riscv", "-U__riscv_xlen", "-D__ia64__=1", "-D__ia64=1"],
    # nor a PA-RISC one: sparc32's ILP32 big-endian layout (signed char,
    # 8-byte long long and double alignment) without its macros, and the
    # tree's CHECKFLAGS (ARCH=parisc is the 32-bit kernel)
    "parisc": ["--arch=sparc", "-mbig-endian", "-m32", "-U__sparc__",
               "-U__sparc", "-Usparc", "-U__sparc_v8__", "-U__sparcv8__",
               "-U__sparcv8", "-D__hppa__=1", "-D__hppa=1"],
}
# kbuild's c_flags on x86_64 that sparse reads, after LINUXINCLUDE
C_FLAGS = [
    "-D__KERNEL__", "-Wall", "-Wundef", "-Werror=strict-prototypes",
    "-Wno-trigraphs", "-fno-strict-aliasing", "-fno-common",
    "-fshort-wchar", "-fno-PIE", "-Werror=implicit-function-declaration",
    "-Werror=implicit-int", "-Werror=return-type", "-Wno-format-security",
    "-std=gnu11"]
X86_C_FLAGS = [
    "-mno-sse", "-mno-mmx", "-mno-sse2", "-mno-3dnow", "-mno-avx",
    "-fcf-protection=none", "-m64", "-falign-jumps=1", "-falign-loops=1",
    "-mno-80387", "-mno-fp-ret-in-387", "-mpreferred-stack-boundary=3",
    "-mskip-rax-setup", "-mtune=generic", "-mno-red-zone",
    "-mcmodel=kernel", "-Wno-sign-compare", "-fno-asynchronous-unwind-tables",
    "-mindirect-branch=thunk-extern", "-mindirect-branch-register",
    "-mindirect-branch-cs-prefix", "-mfunction-return=thunk-extern",
    "-fno-jump-tables", "-mharden-sls=all"]
# arch/x86/Makefile's for BITS=32 (sparse reads -m32; no -mcmodel)
X86_32_C_FLAGS = ["-m32", "-mregparm=3", "-fno-pic", "-mno-sse",
                  "-mno-mmx", "-mno-sse2", "-mno-3dnow", "-mno-avx",
                  "-fcf-protection=none", "-mpreferred-stack-boundary=2",
                  "-march=i686", "-ffreestanding", "-Wno-sign-compare",
                  "-fno-asynchronous-unwind-tables", "-fno-jump-tables"]
TAIL = [
    "-fno-delete-null-pointer-checks", "-Wno-frame-address",
    "-Wno-format-truncation", "-Wno-format-overflow",
    "-Wno-address-of-packed-member", "-O2", "-fno-allow-store-data-races",
    "-Wframe-larger-than=2048", "-fstack-protector-strong", "-Wno-main",
    "-Wno-unused-but-set-variable", "-Wno-unused-const-variable",
    "-Wno-dangling-pointer", "-ftrivial-auto-var-init=zero",
    "-fno-stack-clash-protection", "-pg", "-mrecord-mcount", "-mfentry",
    "-DCC_USING_FENTRY", "-Wvla", "-Wno-pointer-sign", "-Wcast-function-type",
    "-Wno-stringop-truncation", "-Wno-stringop-overflow", "-Wno-restrict",
    "-Wno-maybe-uninitialized", "-Wno-array-bounds",
    "-Wno-alloc-size-larger-than", "-Wimplicit-fallthrough=5",
    "-fno-strict-overflow", "-fno-stack-check", "-fconserve-stack",
    "-Werror=date-time", "-Werror=incompatible-pointer-types",
    "-Werror=designated-init", "-fno-builtin-wcslen",
    "-Wno-packed-not-aligned", "-g"]
X86_ONLY = ("-pg", "-mrecord-mcount", "-mfentry", "-DCC_USING_FENTRY")


def include_flags(tree, arch, gen):
    """kbuild's LINUXINCLUDE for tree (source) and gen (the generated
    headers), and the headers every file includes first."""
    a = os.path.join(tree, "arch", srcarch(arch), "include")
    g = os.path.join(gen, "arch", srcarch(arch), "include", "generated")
    out = ["-nostdinc",
           "-I" + a, "-I" + g,
           "-I" + os.path.join(tree, "include"),
           "-I" + os.path.join(gen, "include"),
           "-I" + os.path.join(a, "uapi"), "-I" + os.path.join(g, "uapi"),
           "-I" + os.path.join(tree, "include", "uapi"),
           "-I" + os.path.join(gen, "include", "generated", "uapi")]
    for name in ("compiler-version.h", "kconfig.h", "compiler_types.h"):
        path = os.path.join(tree, "include", "linux", name)
        if os.path.isfile(path):
            out += ["-include", path]
    return out


def flags(tree, arch, gen):
    """The checker flags for files of tree parsed as for arch, with the
    generated headers under gen; None for an architecture sparse is not
    told about here."""
    if arch not in MACHINE:
        return None
    machine = [f.replace("@TREE@", tree) for f in MACHINE[arch]]
    extra = [f for f in machine if f.startswith("-I")]
    machine = [f for f in machine if not f.startswith("-I")]
    tail = TAIL if srcarch(arch) == "x86" else [f for f in TAIL if f not in X86_ONLY]
    return CHECK + machine + include_flags(tree, arch, gen) + extra + \
        C_FLAGS + (X86_C_FLAGS if arch == "x86" else X86_32_C_FLAGS
                   if arch == "i386" else []) + tail


def with_machine_dirs(flags_list, tree, arch, dirs):
    """flags_list (flags() of arch) with the include directories of the
    machine a file's configuration builds (machdirs.py) in place of the
    default ones, where kbuild puts them: after LINUXINCLUDE."""
    default = {f.replace("@TREE@", tree) for f in MACHINE.get(arch, ())
               if f.startswith("-I")}
    out = [f for f in flags_list if f not in default]
    at = out.index(C_FLAGS[0]) if C_FLAGS[0] in out else len(out)
    return out[:at] + ["-I" + d for d in dirs] + out[at:]
