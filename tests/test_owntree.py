# SPDX-License-Identifier: GPL-2.0-only
"""A kernel tree parsed with its own headers: the generated headers made
from a tree's data, the configuration made for it, which KDIR a tree is
parsed with, and a corpus module scanned in the real 6.1 tree's layout
with and without a matching KDIR."""
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
import unittest

from util import (CORPUS, MODLIFE, ROOT, TempDir, copy_module,
                  needs_fetched, run, scan, write)

sys.path.insert(0, ROOT)
from frontend import paths                              # noqa: E402
from frontend.tree import gentree, kconfeval, kerneltree  # noqa: E402
from frontend.tree import machdirs, ownheaders, timeconst  # noqa: E402
from frontend.tree.kconfig import Kconfig               # noqa: E402

LINUX61 = os.path.join(ROOT, "build", "linux", "linux-source-6.1")

KCONFIG = """\
source "arch/$(SRCARCH)/Kconfig"
source "lib/Kconfig"
"""
ARCH_KCONFIG = """\
config X86
	def_bool y
	select HAVE_NEW_THING
	select GONE_THING if NOT_THERE
"""
LIB_KCONFIG = """\
config HAVE_NEW_THING
	bool

config GONE_THING
	bool

config OLD_ON
	bool "old, on in the base"

config NEW_SIZE
	int
	default 16 if NEW_BIG && !OLD_OFF
	default 12 if HAVE_NEW_THING

choice
	prompt "new choice"
	depends on OLD_ON

config NEW_BIG
	bool "big"
	depends on GONE_THING

config NEW_SMALL
	bool "small"
endchoice

config NEW_NAME
	string
	default "x" if OLD_NAME != ""

config OLD_NAME
	string "a name"

config OLD_OFF
	bool "off in the base"
	default y
"""


def fixture(tmp):
    """A small kernel tree: version, Kconfig, Kbuild lists, a syscall
    table and its Makefile, bounds.c and asm-offsets.c."""
    t = os.path.join(tmp, "linux")
    write(os.path.join(t, "Makefile"),
          "VERSION = 6\nPATCHLEVEL = 99\nSUBLEVEL = 3\nEXTRAVERSION = -rc1\n")
    write(os.path.join(t, "Kconfig"), KCONFIG)
    write(os.path.join(t, "arch", "x86", "Kconfig"), ARCH_KCONFIG)
    write(os.path.join(t, "arch", "arm", "Kconfig"),
          "config ARM\n\tdef_bool y\n\tselect OLD_ON\n")
    write(os.path.join(t, "lib", "Kconfig"), LIB_KCONFIG)
    write(os.path.join(t, "include", "linux", "kconfig.h"), "\n")
    write(os.path.join(t, "include", "asm-generic", "Kbuild"),
          "mandatory-y += barrier.h\nmandatory-y += own.h\n")
    for h in ("barrier.h", "own.h", "mcs_spinlock.h"):
        write(os.path.join(t, "include", "asm-generic", h), "\n")
    a = os.path.join(t, "arch", "x86")
    write(os.path.join(a, "include", "asm", "own.h"), "\n")
    write(os.path.join(a, "include", "asm", "Kbuild"),
          "generic-y += mcs_spinlock.h\ngenerated-y += syscalls_64.h\n")
    write(os.path.join(a, "entry", "syscalls", "Makefile"),
          "out := arch/$(SRCARCH)/include/generated/asm\n"
          "uapi := arch/$(SRCARCH)/include/generated/uapi/asm\n"
          "syscall64 := $(src)/syscall_64.tbl\n"
          "syshdr := $(srctree)/scripts/syscallhdr.sh\n"
          "systbl := $(srctree)/scripts/syscalltbl.sh\n"
          "      cmd_syshdr = $(CONFIG_SHELL) $(syshdr) --abis $(abis) "
          "--emit-nr \\\n\t\t$(if $(offset),--offset $(offset)) \\\n"
          "\t\t$(if $(prefix),--prefix $(prefix)) \\\n\t\t$< $@\n"
          "      cmd_systbl = $(CONFIG_SHELL) $(systbl) --abis $(abis) "
          "$< $@\n"
          "$(uapi)/unistd_64.h: abis := common,64\n"
          "$(uapi)/unistd_64.h: $(syscall64) $(syshdr) FORCE\n"
          "\t$(call if_changed,syshdr)\n"
          "$(out)/syscalls_64.h: abis := common,64\n"
          "$(out)/syscalls_64.h: $(syscall64) $(systbl) FORCE\n"
          "\t$(call if_changed,systbl)\n"
          "uapisyshdr-y\t\t\t+= unistd_64.h\n"
          "syshdr-$(CONFIG_X86_64)\t\t+= syscalls_64.h\n"
          "uapisyshdr-y\t:= $(addprefix $(uapi)/, $(uapisyshdr-y))\n"
          "syshdr-y\t:= $(addprefix $(out)/, $(syshdr-y))\n")
    write(os.path.join(a, "entry", "syscalls", "syscall_64.tbl"),
          "# comment\n0\tcommon\tread\tsys_read\n"
          "1\tx32\twritev\tcompat_sys_writev\n3\t64\tclose\tsys_close\n")
    write(os.path.join(t, "kernel", "bounds.c"),
          "\tDEFINE(NR_PAGEFLAGS, __NR_PAGEFLAGS);\n"
          "#ifdef CONFIG_SMP\n\tDEFINE(NR_CPUS_BITS, order_base_2(X));\n"
          "#endif\n\tDEFINE(NEW_BOUND, 1);\n")
    write(os.path.join(a, "kernel", "asm-offsets.c"),
          "\tOFFSET(pt_regs_bx, pt_regs, bx);\n\tDEFINE(PTREGS_SIZE, 1);\n")
    return t


class GeneratedHeadersTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.tree = fixture(self.tmp)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_version_of_the_tree(self):
        self.assertEqual(kerneltree.version(self.tree),
                         ("6", "99", "3", "-rc1"))
        self.assertEqual(kerneltree.release(self.tree), "6.99")
        self.assertTrue(kerneltree.is_source_tree(self.tree))
        self.assertFalse(kerneltree.is_source_tree(self.tmp))

    def test_configuration_fitted_to_the_tree(self):
        kc = Kconfig(tree=self.tree)
        base = [("CONFIG_X86", "y"), ("CONFIG_OLD_ON", "y"),
                ("CONFIG_REMOVED", "y"), ("CONFIG_OLD_NAME", '"n"')]
        got = dict(kconfeval.complete(
            kc, [(s, v) for s, v in base if s in kc.defined_in],
            {"CONFIG_OLD_OFF"}))
        self.assertNotIn("CONFIG_REMOVED", got)     # not defined here
        self.assertEqual(got["CONFIG_HAVE_NEW_THING"], "y")   # selected
        self.assertNotIn("CONFIG_GONE_THING", got)  # select's if is off
        self.assertNotIn("CONFIG_OLD_OFF", got)     # the base turns it off
        self.assertNotIn("CONFIG_ARM", got)         # another arch
        # a choice without default: its first visible member
        self.assertEqual(got.get("CONFIG_NEW_SMALL"), "y")
        self.assertNotIn("CONFIG_NEW_BIG", got)
        self.assertEqual(got["CONFIG_NEW_SIZE"], "12")
        self.assertEqual(got["CONFIG_NEW_NAME"], '"x"')

    def test_options_another_arch_cannot_have_go(self):
        # kconfig drops what a .config sets against its dependencies:
        # what rests on an x86-only select, unless something selects it
        kc = Kconfig(tree=self.tree)
        base = [("CONFIG_X86", "y"), ("CONFIG_HAVE_NEW_THING", "y"),
                ("CONFIG_OLD_ON", "y"), ("CONFIG_NEW_BIG", "y"),
                ("CONFIG_GONE_THING", "y"), ("CONFIG_OLD_NAME", '"n"')]
        got = dict(kconfeval.drop_unmet(kc, base, arch="x86"))
        self.assertEqual(got["CONFIG_NEW_BIG"], "y")  # GONE_THING is on
        got = dict(kconfeval.drop_unmet(
            kc, [(s, v) for s, v in base if s != "CONFIG_GONE_THING"],
            arch="x86"))
        self.assertNotIn("CONFIG_NEW_BIG", got)     # it depends on it
        self.assertEqual(got["CONFIG_OLD_ON"], "y")     # no dependency
        self.assertEqual(got["CONFIG_HAVE_NEW_THING"], "y")   # selected
        self.assertEqual(got["CONFIG_OLD_NAME"], '"n"')  # not a bool
        got = dict(kconfeval.drop_unmet(
            kc, [(s, v) for s, v in base if s != "CONFIG_GONE_THING"],
            {"CONFIG_NEW_BIG"}, arch="x86"))
        self.assertEqual(got["CONFIG_NEW_BIG"], "y")  # kept as asked

    def test_generated_headers(self):
        cfg = [("CONFIG_X86", "y"), ("CONFIG_SMP", "y"),
               ("CONFIG_NR_CPUS", "8192"), ("CONFIG_HZ", "250"),
               ("CONFIG_FOO", "m"), ("CONFIG_S", '"a b"')]
        out = gentree.files(self.tree, "x86", cfg)
        ac = out["include/generated/autoconf.h"]
        self.assertIn("#define CONFIG_X86 1\n", ac)
        self.assertIn("#define CONFIG_FOO_MODULE 1\n", ac)
        self.assertIn('#define CONFIG_S "a b"\n', ac)
        self.assertIn("#define NR_CPUS_BITS 13\n",
                      out["include/generated/bounds.h"])
        self.assertIn("#define NEW_BOUND ",
                      out["include/generated/bounds.h"])
        # a 32-bit long: flags and zones that leave page flags room
        # (page-flags-layout.h stops the parse otherwise)
        self.assertIn("#define NR_PAGEFLAGS 18\n",
                      out["include/generated/bounds.h"])
        out64 = gentree.files(self.tree, "x86", cfg + [("CONFIG_64BIT",
                                                        "y")])
        self.assertIn("#define NR_PAGEFLAGS 25\n",
                      out64["include/generated/bounds.h"])
        self.assertIn("#define pt_regs_bx 0\n",
                      out["include/generated/asm-offsets.h"])
        self.assertIn("#define LINUX_VERSION_CODE %d\n" % (6 << 16 | 99 << 8
                                                           | 3),
                      out["include/generated/uapi/linux/version.h"])
        self.assertIn('"6.99.3-rc1"', out["include/generated/utsrelease.h"])
        g = "arch/x86/include/generated/"
        self.assertEqual(out[g + "asm/mcs_spinlock.h"],
                         "#include <asm-generic/mcs_spinlock.h>\n")
        self.assertIn(g + "asm/barrier.h", out)     # mandatory, not own
        self.assertNotIn(g + "asm/own.h", out)      # the arch has its own
        unistd = out[g + "uapi/asm/unistd_64.h"]
        self.assertIn("#define __NR_read 0\n", unistd)
        self.assertIn("#define __NR_close 3\n", unistd)
        self.assertNotIn("writev", unistd)          # x32 only
        self.assertIn("#define __NR_syscalls 4\n", unistd)
        self.assertEqual(out[g + "asm/syscalls_64.h"].split("\n")[:4],
                         ["__SYSCALL(0, sys_read)",
                          "__SYSCALL(1, sys_ni_syscall)",
                          "__SYSCALL(2, sys_ni_syscall)",
                          "__SYSCALL(3, sys_close)"])

    def test_sh_machtypes_from_the_boards_table(self):
        write(os.path.join(self.tree, "arch", "sh", "tools", "mach-types"),
              "#\n# MACH_<xxx>\t\tCONFIG_<xxx>\n#\n"
              "SE\t\t\tSH_SOLUTION_ENGINE\n7206SE\t\t\t"
              "SH_7206_SOLUTION_ENGINE\nbad line here\n")
        out = gentree.files(self.tree, "sh", [])
        text = out["include/generated/machtypes.h"]
        self.assertIn("#ifdef CONFIG_SH_SOLUTION_ENGINE\n  #define MACH_SE 1"
                      "\n#else\n  #define MACH_SE 0\n#endif\n", text)
        self.assertIn("#define mach_is_7206se() (MACH_7206SE)\n", text)
        self.assertNotIn("bad", text)
        self.assertNotIn("include/generated/machtypes.h",
                         gentree.files(self.tree, "x86", []))

    def test_arm64_capabilities_and_system_registers(self):
        tools = os.path.join(self.tree, "arch", "arm64", "tools")
        write(os.path.join(tools, "cpucaps"),
              "# sorted\n\nALWAYS_BOOT\nHAS_ARMv8_4_TTL\nbad cap\n")
        write(os.path.join(tools, "Makefile"),
              "kapisyshdr-y := cpucap-defs.h sysreg-defs.h\n")
        write(os.path.join(tools, "gen-sysreg.awk"),
              '\tdefine(reg "_UNKN", "(" unkn ")")\n')
        write(os.path.join(tools, "sysreg"), """\
Sysreg\tID_AA64MMFR0_EL1\t3\t0\t0\t7\t0
UnsignedEnum\t7:4\tASIDBITS
\t0b0000\t8
\t0b0010\t16
EndEnum
Res0\t3:1
Field\t0\tBIT0
Field\tx:y\tBAD
Field\t63:8\tBad-Name
EndSysreg
Sysreg\tZCR_EL1\t3\t0\t1\t2\t0
Fields\tZCR_ELx
EndSysreg
SysregFields\tZCR_ELx
Res0\t63:9
Raz\t8:4
Field\t3:0\tLEN
EndSysregFields
Sysreg\tX;Y\t1\t2\t3\t4\t5
""")
        out = gentree.files(self.tree, "arm64", [])
        g = "arch/arm64/include/generated/asm/"
        caps = out[g + "cpucap-defs.h"]
        self.assertIn("#ifndef __ASM_CPUCAP_DEFS_H\n", caps)
        self.assertIn("#define ARM64_HAS_ARMv8_4_TTL 1\n", caps)
        self.assertIn("#define ARM64_NCAPS 2\n", caps)
        self.assertNotIn(g + "cpucaps.h", out)
        regs = out[g + "sysreg-defs.h"]
        for line in (
                "#define REG_ID_AA64MMFR0_EL1 S3_0_C0_C7_0",
                "#define SYS_ID_AA64MMFR0_EL1 sys_reg(3, 0, 0, 7, 0)",
                "#define SYS_ID_AA64MMFR0_EL1_CRm 7",
                "#define ID_AA64MMFR0_EL1_ASIDBITS_MASK GENMASK(7, 4)",
                "#define ID_AA64MMFR0_EL1_ASIDBITS_SHIFT 4",
                "#define ID_AA64MMFR0_EL1_ASIDBITS_WIDTH 4",
                "#define ID_AA64MMFR0_EL1_ASIDBITS_SIGNED false",
                "#define ID_AA64MMFR0_EL1_ASIDBITS_16 UL(0b0010)",
                "#define ID_AA64MMFR0_EL1_BIT0 GENMASK(0, 0)",
                "#define ID_AA64MMFR0_EL1_RES0 (UL(0) | GENMASK_ULL(3, 1))",
                "#define ID_AA64MMFR0_EL1_UNKN (UL(0))",
                "#define ZCR_ELx_RES0 (UL(0) | GENMASK_ULL(63, 9))",
                "#define ZCR_ELx_LEN_SHIFT 0"):
            self.assertIn(line + "\n", regs)
        self.assertNotIn("ZCR_EL1_RES0", regs)      # its fields block has
        self.assertNotIn("BAD", regs)
        self.assertNotIn("Bad-Name", regs)
        self.assertNotIn("X;Y", regs)
        # before 6.4 the numbers were asm/cpucaps.h; before 6.7 no UNKN
        write(os.path.join(tools, "Makefile"),
              "kapi-hdrs-y := $(kapi)/cpucaps.h $(kapi)/sysreg-defs.h\n")
        os.unlink(os.path.join(tools, "gen-sysreg.awk"))
        out = gentree.files(self.tree, "arm64", [])
        self.assertIn("#ifndef __ASM_CPUCAPS_H\n", out[g + "cpucaps.h"])
        self.assertNotIn(g + "cpucap-defs.h", out)
        self.assertNotIn("UNKN", out[g + "sysreg-defs.h"])
        self.assertNotIn(g + "sysreg-defs.h", gentree.files(self.tree,
                                                            "x86", []))

    def test_syscall_headers_of_the_asm_headers_makefile(self):
        """6.11 on: asm/Kbuild's syscall-y, the ABIs and the table from
        arch/ARCH/kernel/Makefile.syscalls."""
        write(os.path.join(self.tree, "scripts", "Makefile.asm-headers"),
              "syscall_abis_32 += common,32\n")
        write(os.path.join(self.tree, "arch", "arm64", "kernel",
                           "Makefile.syscalls"),
              "syscall_abis_64 += renameat rlimit\n"
              "syscalltbl = arch/arm64/tools/syscall_%.tbl\n")
        write(os.path.join(self.tree, "arch", "arm64", "tools",
                           "syscall_64.tbl"),
              "0\tcommon\tio_setup\tsys_io_setup\tcompat_sys_io_setup\n"
              "1\trenameat\trenameat\tsys_renameat\n"
              "2\t32\tonly32\tsys_only32\n"
              "4\tcommon\tclose\tsys_close\n")
        write(os.path.join(self.tree, "arch", "arm64", "tools",
                           "syscall_32.tbl"),
              "0\tcommon\trestart_syscall\tsys_restart_syscall\n")
        write(os.path.join(self.tree, "arch", "arm64", "include", "asm",
                           "Kbuild"),
              "syscall-y += syscall_table_64.h\n"
              "syscall-y += unistd_compat_32.h\n")
        write(os.path.join(self.tree, "arch", "arm64", "include", "uapi",
                           "asm", "Kbuild"), "syscall-y += unistd_64.h\n")
        out = gentree.files(self.tree, "arm64", [])
        g = "arch/arm64/include/generated/"
        self.assertEqual(out[g + "asm/syscall_table_64.h"].split("\n")[:5], [
            "__SYSCALL_WITH_COMPAT(0, sys_io_setup, compat_sys_io_setup)",
            "__SYSCALL(1, sys_renameat)", "__SYSCALL(2, sys_ni_syscall)",
            "__SYSCALL(3, sys_ni_syscall)", "__SYSCALL(4, sys_close)"])
        unistd = out[g + "uapi/asm/unistd_64.h"]
        self.assertIn("#ifndef _UAPI_ASM_UNISTD_64_H\n", unistd)
        self.assertIn("#define __NR_renameat 1\n", unistd)
        self.assertNotIn("only32", unistd)
        self.assertIn("#define __NR_syscalls 5\n", unistd)
        compat = out[g + "asm/unistd_compat_32.h"]
        self.assertIn("#ifndef _UAPI_ASM_UNISTD_COMPAT_32_H\n", compat)
        self.assertIn("#define __NR_compat32_restart_syscall 0\n", compat)
        # a table outside the tree is not read
        write(os.path.join(self.tree, "arch", "arm64", "kernel",
                           "Makefile.syscalls"),
              "syscalltbl = ../outside/syscall_%.tbl\n")
        self.assertNotIn(g + "uapi/asm/unistd_64.h",
                         gentree.files(self.tree, "arm64", []))

    def test_syscall_headers_of_pattern_rules_and_arch_scripts(self):
        """mips' pattern rules and syscallnr.sh (its macro and prefix read
        from the script), arm's aligned count, s390's own script (-H,
        -N), a table with no --abis (every line)."""
        d = os.path.join(self.tree, "arch", "mips", "kernel", "syscalls")
        write(os.path.join(d, "syscall_n32.tbl"),
              "0\tn32\tread\tsys_read\n1\tn32\twrite\tsys_write\n"
              "5\tn32\tclose\tsys_close\n")
        write(os.path.join(d, "syscallnr.sh"),
              'printf "#define __NR_%s_Linux_syscalls\\t%s\\n" '
              '"${prefix}" "${nxt}"\n')
        write(os.path.join(d, "Makefile"), """\
kapi := arch/$(SRCARCH)/include/generated/asm
uapi := arch/$(SRCARCH)/include/generated/uapi/asm
syshdr := $(srctree)/scripts/syscallhdr.sh
sysnr := $(srctree)/$(src)/syscallnr.sh
systbl := $(srctree)/scripts/syscalltbl.sh
quiet_cmd_syshdr = SYSHDR  $@
      cmd_syshdr = $(CONFIG_SHELL) $(syshdr) --offset __NR_Linux $< $@
      cmd_sysnr = $(CONFIG_SHELL) '$(sysnr)' '$<' '$@'\t\t\\
\t\t  '$(sysnr_abis_$(basetarget))'\t\t\t\\
\t\t  '$(sysnr_pfx_$(basetarget))'
      cmd_systbl = $(CONFIG_SHELL) $(systbl) $< $@
$(uapi)/unistd_%.h: $(src)/syscall_%.tbl $(syshdr) FORCE
\t$(call if_changed,syshdr)
sysnr_pfx_unistd_nr_n32 := N32
$(kapi)/unistd_nr_%.h: $(src)/syscall_%.tbl $(sysnr) FORCE
\t$(call if_changed,sysnr)
$(kapi)/syscall_table_%.h: $(src)/syscall_%.tbl $(systbl) FORCE
\t$(call if_changed,systbl)
uapisyshdr-y\t\t+= unistd_n32.h
kapisyshdr-y\t\t+= syscall_table_n32.h\t\t\\
\t\t\t   unistd_nr_n32.h
uapisyshdr-y\t:= $(addprefix $(uapi)/, $(uapisyshdr-y))
kapisyshdr-y\t:= $(addprefix $(kapi)/, $(kapisyshdr-y))
""")
        out = gentree.files(self.tree, "mips", [])
        g = "arch/mips/include/generated/"
        self.assertIn("#define __NR_write (__NR_Linux + 1)\n",
                      out[g + "uapi/asm/unistd_n32.h"])
        self.assertNotIn("__NR_syscalls", out[g + "uapi/asm/unistd_n32.h"])
        self.assertIn("#define __NR_N32_Linux_syscalls 6\n",
                      out[g + "asm/unistd_nr_n32.h"])
        self.assertIn("__SYSCALL(5, sys_close)",
                      out[g + "asm/syscall_table_n32.h"])

        d = os.path.join(self.tree, "arch", "arm", "tools")
        write(os.path.join(d, "syscall.tbl"), "".join(
            "%d\tcommon\tc%d\tsys_c%d\n" % (n, n, n) for n in range(258)) +
            "258\toabi\told\tsys_old\n")
        write(os.path.join(d, "syscallnr.sh"),
              "align=1\n  while [ \"$(($nr / (256 * $align) ))\" -gt 0 ]\n"
              "    echo \"#define __NR_syscalls $nr\"\n")
        write(os.path.join(d, "Makefile"), """\
gen := arch/$(ARCH)/include/generated
kapi := $(gen)/asm
uapi := $(gen)/uapi/asm
syshdr := $(srctree)/scripts/syscallhdr.sh
sysnr := $(srctree)/$(src)/syscallnr.sh
syscall := $(src)/syscall.tbl
kapi-hdrs-y := $(kapi)/unistd-nr.h
uapi-hdrs-y += $(uapi)/unistd-eabi.h
      cmd_syshdr = $(CONFIG_SHELL) $(syshdr) --abis common,$* \\
\t\t   --offset __NR_SYSCALL_BASE $< $@
      cmd_sysnr  = $(CONFIG_SHELL) $(sysnr) $< $@
$(uapi)/unistd-%.h: $(syscall) $(syshdr) FORCE
\t$(call if_changed,syshdr)
$(kapi)/unistd-nr.h: $(syscall) $(sysnr) FORCE
\t$(call if_changed,sysnr)
""")
        out = gentree.files(self.tree, "arm", [])
        g = "arch/arm/include/generated/"
        eabi = out[g + "uapi/asm/unistd-eabi.h"]
        self.assertIn("#define __NR_c257 (__NR_SYSCALL_BASE + 257)\n", eabi)
        self.assertNotIn("__NR_old", eabi)
        # 259 entries, past 256: a multiple of 4
        self.assertIn("#define __NR_syscalls 260\n", out[g + "asm/unistd-nr.h"])

        d = os.path.join(self.tree, "arch", "s390", "kernel", "syscalls")
        write(os.path.join(d, "syscall.tbl"),
              "1\tcommon\texit\tsys_exit\tsys_exit\n"
              "7\t32\tonly32\t-\tsys_only32\n"
              "9\t64\tonly64\tsys_only64\t-\n")
        write(os.path.join(d, "syscalltbl"),
              "\t#define NR_syscalls ${num_syscalls}\n")
        write(os.path.join(d, "Makefile"), """\
gen\t:= arch/$(ARCH)/include/generated
kapi\t:= $(gen)/asm
uapi\t:= $(gen)/uapi/asm
syscall\t:= $(srctree)/$(src)/syscall.tbl
systbl\t:= $(srctree)/$(src)/syscalltbl
gen-y := $(kapi)/syscall_table.h
kapi-hdrs-y := $(kapi)/unistd_nr.h
uapi-hdrs-y := $(uapi)/unistd_32.h
filechk_syshdr = $(CONFIG_SHELL) '$(systbl)' -H -a $(syshdr_abi_$(basetarget)) -f "$2" < $<
filechk_sysnr = $(CONFIG_SHELL) '$(systbl)' -N -a $(sysnr_abi_$(basetarget)) < $<
filechk_syscalls = $(CONFIG_SHELL) '$(systbl)' -S < $<
syshdr_abi_unistd_32 := common,32
$(uapi)/unistd_32.h: $(syscall) FORCE
\t$(call filechk,syshdr,$@)
$(kapi)/syscall_table.h: $(syscall) FORCE
\t$(call filechk,syscalls)
sysnr_abi_unistd_nr := common,32,64
$(kapi)/unistd_nr.h: $(syscall) FORCE
\t$(call filechk,sysnr)
""")
        out = gentree.files(self.tree, "s390", [])
        g = "arch/s390/include/generated/"
        u32 = out[g + "uapi/asm/unistd_32.h"]
        self.assertIn("#define __NR_only32 7\n", u32)
        self.assertNotIn("only64", u32)
        self.assertIn("#define NR_syscalls 10\n", out[g + "asm/unistd_nr.h"])
        self.assertNotIn(g + "asm/syscall_table.h", out)
        # a table outside the tree is not read; the same inside is
        write(os.path.join(self.tree, "..", "x.tbl"), "0\tcommon\tx\tsys_x\n")
        write(os.path.join(self.tree, "x.tbl"), "0\tcommon\tx\tsys_x\n")
        for table, made in (("../x.tbl", False), ("x.tbl", True)):
            write(os.path.join(d, "Makefile"), "syscall := %s\n" % table +
                  "uapi-hdrs-y := arch/s390/include/generated/uapi/asm/u.h\n"
                  "      cmd_syshdr = $(syshdr) $< $@\n"
                  "syshdr := scripts/syscallhdr.sh\n"
                  "arch/s390/include/generated/uapi/asm/u.h: $(syscall)\n"
                  "\t$(call if_changed,syshdr)\n")
            self.assertEqual(g + "uapi/asm/u.h" in gentree.files(
                self.tree, "s390", []), made, table)
        # a rule without a recipe does not take the next rule's
        write(os.path.join(d, "Makefile"), "syscall := x.tbl\n"
              "syshdr := scripts/syscallhdr.sh\n"
              "      cmd_syshdr = $(syshdr) $< $@\n"
              "uapi-hdrs-y := $(addprefix arch/s390/include/generated/"
              "uapi/asm/,a.h b.h)\n"
              "arch/s390/include/generated/uapi/asm/a.h: $(syscall)\n"
              "arch/s390/include/generated/uapi/asm/b.h: $(syscall)\n"
              "\t$(call if_changed,syshdr)\n")
        out = gentree.files(self.tree, "s390", [])
        self.assertNotIn(g + "uapi/asm/a.h", out)
        self.assertIn(g + "uapi/asm/b.h", out)
        # a header outside the architecture's generated directories is
        # not made (include/generated/autoconf.h is the scan's own)
        write(os.path.join(d, "Makefile"), "syscall := x.tbl\n"
              "syshdr := scripts/syscallhdr.sh\n"
              "      cmd_syshdr = $(syshdr) $< $@\n"
              "uapi-hdrs-y := include/generated/autoconf.h\n"
              "include/generated/autoconf.h: $(syscall)\n"
              "\t$(call if_changed,syshdr)\n")
        self.assertNotIn("#define __NR_x", gentree.files(
            self.tree, "s390", [])["include/generated/autoconf.h"])
        # a variable made to explode, used on many lines, and functions
        # that would build huge strings: the Makefile makes no header
        # (50^8 references otherwise: the scan would not end)
        good = ("syscall := x.tbl\nsyshdr := scripts/syscallhdr.sh\n"
                "      cmd_syshdr = $(syshdr) $< $@\n"
                "uapi-hdrs-y := arch/s390/include/generated/uapi/asm/u.h\n"
                "arch/s390/include/generated/uapi/asm/u.h: $(syscall)\n"
                "\t$(call if_changed,syshdr)\n")
        big = "w " * 3000
        for bad in ("A = " + "$(A)" * 50 + "x\n" + "X := $(A)\n" * 2000,
                    "B := %s\nC := $(addprefix %s,$(B))\n" % (big, big),
                    "B := %s\nC := $(subst w,%s,$(B))\n" % (big, big)):
            write(os.path.join(d, "Makefile"), good + bad)
            self.assertNotIn(g + "uapi/asm/u.h",
                             gentree.files(self.tree, "s390", []), bad[:20])
        write(os.path.join(d, "Makefile"), good)
        self.assertIn(g + "uapi/asm/u.h", gentree.files(self.tree, "s390",
                                                         []))
        # numbers that are not ASCII digits or a table's: lines skipped
        write(os.path.join(self.tree, "x.tbl"),
              "0\tcommon\tx\tsys_x\n\u00b2\tcommon\ty\tsys_y\n"
              "999999999\tcommon\tz\tsys_z\n")
        text = gentree.files(self.tree, "s390", [])[g + "uapi/asm/u.h"]
        self.assertIn("#define __NR_x 0\n", text)
        self.assertNotIn("__NR_y", text)
        self.assertNotIn("__NR_z", text)

    def test_s390_facility_lists_from_the_host_programs_table(self):
        """gen_facilities.c is read, never built: its lists' bits under
        the configuration's #ifdefs, as 64-bit words, bit 0 leftmost."""
        write(os.path.join(self.tree, "arch", "s390", "tools",
                           "gen_facilities.c"), """\
static struct facility_def facility_defs[] = {
	{
		/* .name = "NOT_THIS", */
		.name = "FACILITIES_ALS",
		.bits = (int[]){
			0,  /* N3 */
			1,
#ifdef CONFIG_HAVE_MARCH_Z196_FEATURES
			45, /* fast-BCR */
#endif
#ifndef CONFIG_HAVE_MARCH_Z196_FEATURES
			46,
#endif
			-1 /* END */
		}
	},
	{
		.name = "FACILITIES_KVM",
		.bits = (int[]){
			64,
			129,
			-1
		}
	},
};
""")
        out = gentree.files(self.tree, "s390", [
            ("CONFIG_HAVE_MARCH_Z196_FEATURES", "y")])
        text = out["arch/s390/include/generated/asm/facility-defs.h"]
        self.assertIn("#define FACILITIES_ALS _AC(0xc000000000040000,UL)\n",
                      text)
        self.assertIn("#define FACILITIES_KVM _AC(0x0000000000000000,UL),"
                      "_AC(0x8000000000000000,UL),"
                      "_AC(0x4000000000000000,UL)\n", text)
        self.assertNotIn("NOT_THIS", text)
        # =m defines CONFIG_X_MODULE, not CONFIG_X
        out = gentree.files(self.tree, "s390", [
            ("CONFIG_HAVE_MARCH_Z196_FEATURES", "m")])
        self.assertIn("#define FACILITIES_ALS _AC(0xc000000000020000,UL)\n",
                      out["arch/s390/include/generated/asm/facility-defs.h"])
        out = gentree.files(self.tree, "s390", [])
        self.assertIn("#define FACILITIES_ALS _AC(0xc000000000020000,UL)\n",
                      out["arch/s390/include/generated/asm/facility-defs.h"])

    def test_s390_opcode_table_from_opcodes_txt(self):
        """dis-defs.h as gen_opcode_table makes it from opcodes.txt: the
        format types read from the program's table, long names (six
        characters or more) by offset, two-byte opcodes grouped by their
        first byte before the one-byte ones; a format the table lacks
        makes no header, as the program exits."""
        tools = os.path.join(self.tree, "arch", "s390", "tools")
        write(os.path.join(tools, "gen_opcode_table.c"), """\
static struct insn_type insn_type_table[] = {
	{
		.byte = 0,
		.mask = 0xff,
		.format = (char *[]) {
			"RR",
			NULL,
		},
	},
	{
		.byte = 1,
		.mask = 0x0f,
		.format = (char *[]) {
			"RI",
			NULL,
		},
	},
};
""")
        write(os.path.join(tools, "opcodes.txt"),
              "a70 tmlh RI_a\n05 balr RR\na71 tmllong RI_a\n"
              "07 bcr RR_b\nb2 xx RI_a\n")
        text = gentree.files(self.tree, "s390", [])[
            "arch/s390/include/generated/asm/dis-defs.h"]
        self.assertEqual(text.split("\n"), [
            "#ifndef __S390_GENERATED_DIS_DEFS_H__",
            "#define __S390_GENERATED_DIS_DEFS_H__", "",
            "enum {", "\tINSTR_RI_a,", "\tINSTR_RR,", "\tINSTR_RR_b,",
            "}; /* 3 */", "",
            "enum {", "\tLONG_INSN_TMLLONG,", "}; /* 1 */", "",
            "#define LONG_INSN_INITIALIZER { \\",
            '\t[LONG_INSN_TMLLONG] = "tmllong", \\', "}", "",
            "#define OPCODE_TABLE_INITIALIZER { \\",
            "\t/* a7 */ \\",
            '\t[   0] = { .opfrag = 0x0, .format = INSTR_RI_a, '
            '.name = "tmlh" }, \\',
            "\t[   1] = { .opfrag = 0x1, .format = INSTR_RI_a, "
            ".offset = LONG_INSN_TMLLONG }, \\",
            "\t/* b2 */ \\",
            '\t[   2] = { .opfrag = 0x, .format = INSTR_RI_a, '
            '.name = "xx" }, \\',
            "\t/* 1-byte opcode instructions */ \\",
            '\t[   3] = { .opfrag = 0x05, .format = INSTR_RR, '
            '.name = "balr" }, \\',
            '\t[   4] = { .opfrag = 0x07, .format = INSTR_RR_b, '
            '.name = "bcr" }, \\',
            "}", "",
            "#define OPCODE_OFFSET_INITIALIZER { \\",
            "\t{ .opcode = 0xa7, .mask = 0x0f, .byte = 1, .offset = 0, "
            ".count = 2 }, \\",
            "\t{ .opcode = 0xb2, .mask = 0x0f, .byte = 1, .offset = 2, "
            ".count = 1 }, \\",
            "\t{ .opcode = 0x05, .mask = 0xff, .byte = 0, .offset = 3, "
            ".count = 2 }, \\",
            "}", "", "#endif", ""])
        write(os.path.join(tools, "opcodes.txt"), "05 balr RR\n07 x SS\n")
        self.assertNotIn("arch/s390/include/generated/asm/dis-defs.h",
                         gentree.files(self.tree, "s390", []))
        # a table or program made huge: no header, at once
        write(os.path.join(tools, "opcodes.txt"), "05 balr RR\n" * 200000)
        self.assertNotIn("arch/s390/include/generated/asm/dis-defs.h",
                         gentree.files(self.tree, "s390", []))

    def test_um_user_constants_from_user_offsets(self):
        """User-mode Linux's <generated/user_constants.h> names what
        user-offsets.c DEFINE()s, each once, with distinct values (a
        switch on them must not see duplicate cases)."""
        from frontend.tree import genheaders
        write(os.path.join(self.tree, "arch", "x86", "um",
                           "user-offsets.c"),
              "#define DEFINE_LONGS(sym, val)\t\\\n"
              "\tDEFINE(sym, val / sizeof(unsigned long))\n"
              "void foo(void)\n{\n#ifdef __i386__\n"
              "\tDEFINE_LONGS(HOST_FP_SIZE, 8);\n\tDEFINE(HOST_IP, EIP);\n"
              "#else\n\tDEFINE(HOST_IP, RIP);\n\tDEFINE(HOST_SP, RSP);\n"
              "#endif\n}\n")
        src = os.path.join(self.tree, "arch", "um", "drivers", "x.c")
        self.assertEqual(genheaders.make(
            self.tree, src, "generated/user_constants.h").split("\n"), [
                "#ifndef __UM_USER_CONSTANTS_H",
                "#define __UM_USER_CONSTANTS_H", "#define HOST_FP_SIZE 1",
                "#define HOST_IP 2", "#define HOST_SP 3", "#endif", ""])
        self.assertIsNone(genheaders.make(self.tree, src,
                                          "generated/other.h"))

    def test_radeon_register_tables_from_reg_srcs(self):
        """A driver's header a host program makes from a table beside
        it (radeon's mkregtable): read from the table."""
        from frontend.tree import genheaders
        d = os.path.join(self.tree, "drivers", "gpu", "radeon")
        write(os.path.join(d, "reg_srcs", "r9"),
              "r9 0x0100\n0x0000 FIRST\n0x0084 SECOND\nno register\n")
        text = genheaders.make(self.tree, os.path.join(d, "r9.c"),
                               "r9_reg_safe.h")
        # 0x100 >> 2 = 64 dwords: two words, offsets 0 and 33 cleared
        self.assertEqual(text, "static const unsigned r9_reg_safe_bm[2] = "
                         "{\n\t0xFFFFFFFE, 0xFFFFFFFD,\n};\n")
        self.assertIsNone(genheaders.make(self.tree, os.path.join(
            d, "r9.c"), "r8_reg_safe.h"))
        # an offset at the end of its last word (mkregtable writes past
        # its array) and a table made huge: no exception, no huge array
        write(os.path.join(d, "reg_srcs", "edge"), "e 0x0\n0x80 A\n")
        self.assertEqual(genheaders.make(self.tree, os.path.join(
            d, "r9.c"), "edge_reg_safe.h"),
            "static const unsigned e_reg_safe_bm[1] = {\n\t0xFFFFFFFF,\n};\n")
        write(os.path.join(d, "reg_srcs", "huge"), "h 0xffffffff\n0x0 A\n")
        self.assertIsNone(genheaders.make(self.tree, os.path.join(
            d, "r9.c"), "huge_reg_safe.h"))
        write(os.path.join(d, "reg_srcs", "bad"), "a;b 0x10\n")
        self.assertIsNone(genheaders.make(self.tree, os.path.join(
            d, "r9.c"), "bad_reg_safe.h"))

    def test_xe_workaround_tables_from_the_rules(self):
        """xe's <generated/xe_wa_oob.h> and .c, which xe_gen_wa_oob makes
        from xe_wa_oob.rules (its output on 6.12's rules, byte for byte
        but the comment): found from a file of xe/display/ too."""
        from frontend.tree import genheaders
        d = os.path.join(self.tree, "drivers", "gpu", "drm", "xe")
        write(os.path.join(d, "xe_wa_oob.rules"),
              "# a comment\n1409600907\tGRAPHICS_VERSION_RANGE(1200, 1250)\n"
              "\n14016763929\tSUBPLATFORM(DG2, G10)\n"
              "\t\tSUBPLATFORM(DG2, G12)\n")
        src = os.path.join(d, "display", "xe_display_wa.c")
        self.assertEqual(genheaders.make(
            self.tree, src, "generated/xe_wa_oob.h").split("\n"), [
                "#ifndef _GENERATED_XE_WA_OOB_",
                "#define _GENERATED_XE_WA_OOB_", "", "enum {",
                "\tXE_WA_OOB_1409600907 = 0,",
                "\tXE_WA_OOB_14016763929 = 1,",
                "\t_XE_WA_OOB_COUNT = 2", "};", "", "#endif", ""])
        self.assertEqual(genheaders.make(
            self.tree, os.path.join(d, "xe_wa.c"), "generated/xe_wa_oob.c"),
            '{ XE_RTP_NAME("1409600907"),\n'
            '  XE_RTP_RULES(GRAPHICS_VERSION_RANGE(1200, 1250)) },\n'
            '{ XE_RTP_NAME("14016763929"),\n'
            '  XE_RTP_RULES(SUBPLATFORM(DG2, G10), OR,\n'
            '\tSUBPLATFORM(DG2, G12)) },\n')
        # no rules file: none; a continuation first, as the program
        # refuses it: none
        self.assertIsNone(genheaders.make(
            self.tree, src, "generated/other_wa_oob.h"))
        write(os.path.join(d, "bad_wa_oob.rules"), "\tPLATFORM(DG2)\n")
        self.assertIsNone(genheaders.make(
            self.tree, src, "generated/bad_wa_oob.h"))
        # not above the tree
        self.assertIsNone(genheaders.make(
            os.path.join(self.tree, "drivers"), os.path.join(
                self.tree, "x.c"), "generated/xe_wa_oob.h"))

    def test_scsi_devinfo_table_from_the_header(self):
        """drivers/scsi/Makefile's sed over <scsi/scsi_devinfo.h> (the
        same lines as sed gives on 6.1's and 6.12's header)."""
        from frontend.tree import genheaders
        write(os.path.join(self.tree, "include", "scsi", "scsi_devinfo.h"),
              "#define BLIST_NOLUN\t((__force blist_flags_t)(1ULL << 0))\n"
              "#define __BLIST_LAST_USED BLIST_RETRY_ITF\n"
              "/* #define BLIST_OLD 1 */\n#define BLIST_SPARSELUN (2)\n")
        self.assertEqual(genheaders.make(
            self.tree, os.path.join(self.tree, "drivers", "scsi",
                                    "scsi_sysfs.c"), "scsi_devinfo_tbl.c"),
            "BLIST_FLAG_NAME(NOLUN),\nBLIST_FLAG_NAME(OLD),\n"
            "BLIST_FLAG_NAME(SPARSELUN),\n")

    def test_asn1_headers_from_the_grammar(self):
        """NAME.asn1.h, which scripts/asn1_compiler makes from NAME.asn1
        beside the file: the decoder and the grammar's action functions,
        sorted, once each, comments left out (the compiler's output on
        all 16 grammars of 6.1, byte for byte)."""
        from frontend.tree import genheaders
        d = os.path.join(self.tree, "crypto", "keys")
        write(os.path.join(d, "cert.asn1"), """\
-- a comment ({ not_an_action }) to the end of the line
Cert ::= SEQUENCE {
	version [ 0 ] INTEGER ({ cert_version }),  -- ({ gone }) -- kept
	serial	INTEGER ({ cert_note_serial }),
	again	INTEGER ({
		cert_version
	})
}
""")
        src = os.path.join(d, "cert_parser.c")
        self.assertEqual(genheaders.make(self.tree, src, "cert.asn1.h"), """\
/*
 * Automatically generated by asn1_compiler.  Do not edit
 *
 * ASN.1 parser for cert
 */
#include <linux/asn1_decoder.h>

extern const struct asn1_decoder cert_decoder;

extern int cert_note_serial(void *, size_t, unsigned char, const void *, \
size_t);
extern int cert_version(void *, size_t, unsigned char, const void *, size_t);

""")
        self.assertIsNone(genheaders.make(self.tree, src, "other.asn1.h"))
        self.assertIsNone(genheaders.make(self.tree, src, "../cert.asn1.h"))

    def test_m68k_seeds_choose_a_page_size(self):
        """Without a machine, m68k has no MMU type, so no page size, and
        6.12's slab.h stops at CONFIG_PAGE_SHIFT."""
        write(os.path.join(self.tree, "arch", "m68k", "Kconfig"), """\
config M68K
	def_bool y
config MMU
	bool "MMU"
config MMU_MOTOROLA
	bool
	select HAVE_PAGE_SIZE_4KB
config ATARI
	bool "Atari"
	select MMU_MOTOROLA if MMU
config HAVE_PAGE_SIZE_4KB
	bool
choice
	prompt "page size"
config PAGE_SIZE_4KB
	bool "4KiB"
	depends on HAVE_PAGE_SIZE_4KB
endchoice
config PAGE_SHIFT
	int
	default 12 if PAGE_SIZE_4KB
""")
        got = dict(ownheaders.OwnHeaders.config(Kconfig(tree=self.tree),
                                                "m68k"))
        self.assertEqual(got.get("CONFIG_PAGE_SHIFT"), "12")
        self.assertEqual(got.get("CONFIG_ATARI"), "y")

    def test_defaults_in_kconfigs_reading_order(self):
        # arch/Kconfig sources the architecture's Kconfig at its top: the
        # architecture's default of an option defined in both is first
        write(os.path.join(self.tree, "Kconfig"),
              'source "arch/Kconfig"\nsource "lib/Kconfig"\n')
        write(os.path.join(self.tree, "arch", "Kconfig"),
              'source "arch/$(SRCARCH)/Kconfig"\n'
              "config LEVELS\n\tint\n\tdefault 2\n")
        write(os.path.join(self.tree, "arch", "x86", "Kconfig"),
              ARCH_KCONFIG + "config LEVELS\n\tint\n\tdefault 4 if X86\n")
        kc = Kconfig(tree=self.tree)
        got = dict(kconfeval.complete(kc, [("CONFIG_X86", "y")]))
        self.assertEqual(got["CONFIG_LEVELS"], "4")

    def test_a_fifo_in_the_trees_headers_is_not_trusted(self):
        ok, digest = ownheaders.look(self.tree, "x86")
        self.assertTrue(ok)
        os.mkfifo(os.path.join(self.tree, "arch", "x86", "include", "asm",
                               "f.h"))
        ok, again = ownheaders.look(self.tree, "x86")
        self.assertFalse(ok)
        self.assertNotEqual(digest, again)

    def test_timeconst_as_timeconst_bc(self):
        text = timeconst.text(250)
        self.assertIn("#define HZ_TO_MSEC_MUL32\tU64_C(0x80000000)\n", text)
        self.assertIn("#define USEC_TO_HZ_ADJ32\tU64_C(0x7FF7CED9168)\n",
                      text)
        self.assertIn("#define HZ_TO_NSEC_NUM\t\t4000000\n", text)
        self.assertIn("#define USEC_TO_HZ_SHR32\t43\n", text)


class DefaultKdirTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.env = dict(os.environ)
        os.environ.pop("KDIR", None)
        os.environ["MODLIFE_HEADERS_DIR"] = self.tmp
        for v in ("6.1.0-57", "6.12.0-1", "6.9.0-3"):
            d = os.path.join(self.tmp, "linux-headers-%s-amd64" % v)
            write(os.path.join(d, "include", "config", "kernel.release"),
                  v.split("-")[0] + "\n")

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self.env)
        shutil.rmtree(self.tmp)

    def test_the_headers_of_the_trees_version_not_the_newest(self):
        self.assertTrue(paths.default_kdir("6.1").endswith(
            "linux-headers-6.1.0-57-amd64"))
        self.assertTrue(paths.default_kdir().endswith(
            "linux-headers-6.12.0-1-amd64"))
        self.assertIsNone(paths.default_kdir("6.13"))


def layout_61(dest, arches=None):
    """The real 6.1 tree's layout (its top files, include/, arch/ - only
    the arches named, if any -, scripts/ and every Kconfig file),
    hard-linked under dest."""
    top = os.path.join(dest, "linux")
    os.makedirs(top)
    for name in ("Makefile", "Kconfig"):
        os.link(os.path.join(LINUX61, name), os.path.join(top, name))
    shutil.copytree(os.path.join(LINUX61, "include"),
                    os.path.join(top, "include"), copy_function=os.link,
                    symlinks=True)
    os.makedirs(os.path.join(top, "arch"))
    for a in os.listdir(os.path.join(LINUX61, "arch")):
        src = os.path.join(LINUX61, "arch", a)
        if not os.path.isdir(src):
            os.link(src, os.path.join(top, "arch", a))     # arch/Kconfig
        elif not arches or a in arches:
            shutil.copytree(src, os.path.join(top, "arch", a),
                            copy_function=os.link, symlinks=True)
    os.makedirs(os.path.join(top, "scripts"))
    for dirpath, dirnames, filenames in os.walk(LINUX61):
        rel = os.path.relpath(dirpath, LINUX61)
        dirnames[:] = [d for d in dirnames if rel != "." or
                       d not in ("include", "arch", "Documentation")]
        for fn in filenames:
            if fn.startswith("Kconfig") and rel != ".":
                os.makedirs(os.path.join(top, rel), exist_ok=True)
                os.link(os.path.join(dirpath, fn),
                        os.path.join(top, rel, fn))
    return top


MODULES = ("misc-char-bug", "cdev-bug", "kthread-bug")


@needs_fetched(LINUX61, "linux-source")
class RealTreeTest(unittest.TestCase):
    """Corpus modules in the 6.1 tree's drivers/misc/: the findings are
    the same with the 6.1 headers, with another kernel's headers also
    installed, and with the tree's own headers."""

    @classmethod
    def setUpClass(cls):
        if not os.path.isdir(LINUX61):
            raise unittest.SkipTest("no %s (make linux-source)" % LINUX61)
        cls.kdir = paths.matching_kdir("6.1")
        if not cls.kdir:
            raise unittest.SkipTest("no Linux 6.1 headers installed")
        cls.tmp = tempfile.mkdtemp(dir=os.path.join(ROOT, "build"))
        cls.top = layout_61(cls.tmp)
        cls.dirs = []
        for m in MODULES:
            d = os.path.join(cls.top, "drivers", "misc", m)
            shutil.copytree(os.path.join(CORPUS, m), d)
            cls.dirs.append(d)
        cls.cache = os.path.join(cls.tmp, "cache")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def headers(self, *versions):
        """A headers directory holding the 6.1 KDIR and fake ones."""
        d = tempfile.mkdtemp(dir=self.tmp)
        for v in versions:
            name = os.path.join(d, "linux-headers-%s-amd64" % v)
            if v.startswith("6.1."):
                os.symlink(self.kdir, name)
            else:
                write(os.path.join(name, "include", "config",
                                   "kernel.release"), v + "\n")
        return d

    def scan(self, headers):
        env = dict(os.environ, MODLIFE_HEADERS_DIR=headers)
        env.pop("KDIR", None)
        res = run([MODLIFE, "scan", "--format", "json", "--rules", "all",
                   "--no-cocci", "--cache-dir", self.cache] + self.dirs,
                  cwd=self.top, env=env)
        return json.loads(res.stdout), res.stderr

    def expected(self):
        out = []
        for m in MODULES:
            with open(os.path.join(CORPUS, m, "EXPECTED")) as f:
                out += ["drivers/misc/%s/%s" % (m, ln.strip())
                        for ln in f if ln.strip()]
        return sorted(out)

    @staticmethod
    def keys(result):
        return sorted("%s:%d:%s" % (f["file"], f["line"], f["rule"])
                      for f in result["findings"])

    def test_matching_kdir_and_another_kernels_headers(self):
        alone, err = self.scan(self.headers("6.1.0-57"))
        self.assertEqual(self.keys(alone), self.expected())
        self.assertEqual(alone["errors"], [])
        self.assertNotIn("own headers", err)
        both, err = self.scan(self.headers("6.1.0-57", "6.12.0-1"))
        self.assertEqual(both, alone)
        self.assertNotIn("own headers", err)

    def test_own_headers_without_a_matching_kdir(self):
        result, err = self.scan(self.headers("6.12.0-1"))
        self.assertIn("is Linux 6.12, the tree is 6.1: parsed with the "
                      "tree's own headers", err)
        self.assertEqual(err.count("own headers"), 1)
        self.assertEqual(result["errors"], [])
        self.assertEqual(self.keys(result), self.expected())
        result, err = self.scan(self.headers())
        self.assertIn("no configured headers of Linux 6.1", err)
        self.assertEqual(self.keys(result), self.expected())



# an architecture's Makefile as a hostile tree may write it
HOSTILE_ARCH_MAKEFILE = """\
boarddirs-$(CONFIG_BOARD_A) += board-a
boarddirs-$(CONFIG_BOARD_B) += board-b
KBUILD_CPPFLAGS += $(patsubst %,-I$(srctree)/arch/foo/%/include,$(boarddirs-y))
KBUILD_CFLAGS += $(shell touch $(srctree)/PWNED) -I$(srctree)/../outside
KBUILD_CFLAGS += $(call cc-option,-I$(srctree)/arch/foo/probe)
include $(srctree)/../outside/Makefile
x0 := a a a a a a a a
x1 = $(x0) $(x0) $(x0) $(x0) $(x0) $(x0) $(x0) $(x0)
x2 = $(x1) $(x1) $(x1) $(x1) $(x1) $(x1) $(x1) $(x1)
x3 = $(x2) $(x2) $(x2) $(x2) $(x2) $(x2) $(x2) $(x2)
x4 = $(x3) $(x3) $(x3) $(x3) $(x3) $(x3) $(x3) $(x3)
x5 = $(x4) $(x4) $(x4) $(x4) $(x4) $(x4) $(x4) $(x4)
x6 = $(x5) $(x5) $(x5) $(x5) $(x5) $(x5) $(x5) $(x5)
x7 = $(x6) $(x6) $(x6) $(x6) $(x6) $(x6) $(x6) $(x6)
ifeq ($(CONFIG_BOARD_B),y)
KBUILD_CPPFLAGS += -I$(srctree)/arch/foo/b-only
endif
-include $(srctree)/arch/foo/Platform
"""


def scan_61(files):
    """modlife scan (JSON, all rules, a fresh cache) of files of the 6.1
    tree: (report, stderr)."""
    with TempDir() as tmp:
        res = run([MODLIFE, "scan", "--format", "json", "--no-cocci",
                   "--rules", "all", "--stats", "--cache-dir",
                   os.path.join(tmp, "cache")] + files, cwd=LINUX61)
        return json.loads(res.stdout), res.stderr


class MachineDirsTest(unittest.TestCase):
    """The include directories an architecture's Makefile adds for the
    machine a file's options build, read as make reads them."""

    def test_a_hostile_makefile_runs_nothing_and_stays_inside(self):
        with TempDir() as tmp:
            tree = os.path.join(tmp, "tree")
            for d in ("board-a", "board-b", "b-only", "probe"):
                os.makedirs(os.path.join(tree, "arch", "foo", d,
                                         "include"))
            os.makedirs(os.path.join(tmp, "outside"))
            write(os.path.join(tmp, "outside", "Makefile"),
                  "KBUILD_CFLAGS += -I$(srctree)/arch/foo/board-b/include\n")
            write(os.path.join(tree, "arch", "foo", "Platform"),
                  "KBUILD_CFLAGS += $(x7) $(x7) $(x7)\n")
            write(os.path.join(tree, "arch", "foo", "Makefile"),
                  HOSTILE_ARCH_MAKEFILE)
            start = time.time()
            dirs = machdirs.include_dirs(tree, "foo",
                                         {"CONFIG_BOARD_A": "y"})
            self.assertLess(time.time() - start, 5)
            self.assertFalse(os.path.exists(os.path.join(tree, "PWNED")))
            # the exploding variable spends the budget: nothing is said
            # rather than something cut short
            self.assertEqual(dirs, [])
            write(os.path.join(tree, "arch", "foo", "Platform"), "\n")
            self.assertEqual(
                machdirs.include_dirs(tree, "foo", {"CONFIG_BOARD_A": "y"}),
                [os.path.join(tree, "arch", "foo", "board-a", "include")])
            self.assertEqual(
                machdirs.include_dirs(tree, "foo", {"CONFIG_BOARD_B": "y"}),
                [os.path.join(tree, "arch", "foo", d) for d in
                 ("board-b/include", "b-only")])

    def test_a_directory_of_arch_sees_the_arch_makefiles_variables(self):
        """arm's lib/ Makefile gives xor-neon.o $(CC_FLAGS_FPU), which
        arch/arm/Makefile defines (6.12): its -mfpu=neon reaches the
        object's flags as the macros it makes the compiler define."""
        from frontend.tree import modules
        with TempDir() as tmp:
            tree = os.path.join(tmp, "tree")
            write(os.path.join(tree, "arch", "foo", "Makefile"),
                  "CC_FLAGS_FPU := -ffreestanding\n"
                  "CC_FLAGS_FPU += -isystem $(shell $(CC) -print-file-name"
                  "=include)\nCC_FLAGS_FPU += -mfpu=neon\n")
            lib = os.path.join(tree, "arch", "foo", "lib")
            write(os.path.join(lib, "Makefile"),
                  "CFLAGS_x.o += $(CC_FLAGS_FPU)\nobj-m += x.o\n")
            info = modules.DirInfo(lib, None, tree)
            self.assertEqual(info.cflags["x.o"],
                             ["-D__ARM_NEON__=1", "-D__ARM_NEON=1"])
            other = os.path.join(tree, "drivers", "bar")
            write(os.path.join(other, "Makefile"),
                  "CFLAGS_y.o += $(CC_FLAGS_FPU)\nobj-m += y.o\n")
            self.assertEqual(modules.DirInfo(other, None, tree).cflags,
                             {"y.o": []})

    @unittest.skipUnless(os.path.isdir(LINUX61), "no 6.1 tree")
    def test_linux_61_boards(self):
        kc = Kconfig(tree=LINUX61, kdir=None)

        def dirs(arch, options):
            base = ownheaders.OwnHeaders.config(kc, arch)
            on = machdirs.configuration(kc, base, options)
            return [os.path.relpath(d, LINUX61)
                    for d in machdirs.include_dirs(LINUX61, arch, on)]
        self.assertEqual(dirs("arm", [("CONFIG_ARCH_SA1100", "y")]),
                         ["arch/arm/mach-sa1100/include"])
        self.assertEqual(dirs("arm", []), [])
        # the base configuration's board, unless the file picks another
        # member of its choice
        self.assertEqual(dirs("mips", []),
                         ["arch/mips/include/asm/mach-malta",
                          "arch/mips/include/asm/mach-generic"])
        self.assertEqual(dirs("mips", [("CONFIG_CAVIUM_OCTEON_SOC", "y")]),
                         ["arch/mips/include/asm/mach-cavium-octeon",
                          "arch/mips/include/asm/mach-generic"])
        # a string option as auto.conf has it: xtensa's variant
        self.assertEqual(dirs("xtensa", []),
                         ["arch/xtensa/variants/fsf/include",
                          "arch/xtensa/platforms/iss/include"])

    @unittest.skipUnless(os.path.isdir(LINUX61), "no 6.1 tree")
    def test_board_and_neon_files_of_61_parse(self):
        """Files that parse only with their board's headers (sa1100's
        <mach/hardware.h>, octeon's <irq.h>), with what -mfpu=neon makes
        the compiler predefine (arm's xor-neon.c), or with the compiler's
        <arm_neon.h> (the shipped stand-in)."""
        out, err = scan_61(["arch/arm/mach-sa1100/ssp.c",
                            "arch/mips/cavium-octeon/oct_ilm.c",
                            "arch/arm/lib/xor-neon.c",
                            "arch/arm64/lib/xor-neon.c"])
        self.assertEqual(out["errors"], [], err)
        self.assertEqual(out["skipped"], [])
        self.assertIn("4 checked", err)

    def test_files_sparse_has_no_target_or_errs_on_parse(self):
        """ia64's err_inject.c (sparse has no IA-64 target: parsed with
        the tree's ia64 headers as another LP64 little-endian machine),
        kvm's emulate.c (function pointer arithmetic, which gcc takes),
        apm_32.c (APM needs X86_32: parsed as i386) and openprom.c (its
        Kconfig file is sparc's alone: parsed as sparc)."""
        out, err = scan_61(["arch/ia64/kernel/err_inject.c",
                            "arch/x86/kvm/emulate.c",
                            "arch/x86/kernel/apm_32.c",
                            "drivers/sbus/char/openprom.c"])
        self.assertEqual(out["errors"], [], err)
        self.assertIn("0 not parsed", err)

    def test_parisc_drivers_parse_as_parisc(self):
        """Drivers for PA-RISC's GSC bus: GSC is defined in
        drivers/parisc/Kconfig, which only parisc's Kconfig sources, so
        they are tried as parisc (sparse has no PA-RISC target either:
        sparc32's layout without its macros), where <asm/io.h> declares
        gsc_writel() and the parisc_device_id is complete."""
        out, err = scan_61(["drivers/tty/serial/mux.c",
                            "drivers/input/serio/gscps2.c"])
        self.assertEqual(out["errors"], [], err)
        self.assertIn("2 checked", err)
        self.assertIn("0 not parsed", err)

WIDGET_H = """\
#ifndef _LINUX_WIDGET_H
#define _LINUX_WIDGET_H
struct module;
struct widget_ops {
	struct module *owner;
	int (*poke)(int);
};
int widget_register(struct widget_ops *ops);
void widget_unregister(struct widget_ops *ops);
#endif
"""

# the core: pins a widget's module while user space uses it
WIDGET_CORE_C = """\
#include <linux/module.h>
#include <linux/widget.h>

static struct widget_ops *cur;

int widget_use(int v)
{
	int ret;

	if (!cur || !try_module_get(cur->owner))
		return -ENODEV;
	ret = cur->poke(v);
	module_put(cur->owner);
	return ret;
}
EXPORT_SYMBOL(widget_use);

int widget_register(struct widget_ops *ops)
{
	cur = ops;
	return 0;
}
EXPORT_SYMBOL(widget_register);

void widget_unregister(struct widget_ops *ops)
{
	cur = NULL;
}
EXPORT_SYMBOL(widget_unregister);
"""

WDRV_C = """\
#include <linux/module.h>
#include <linux/widget.h>

static int wdrv_poke(int v)
{
	return v;
}

static struct widget_ops wdrv_ops = {
	.poke = wdrv_poke,
};

static int __init wdrv_init(void)
{
	return widget_register(&wdrv_ops);
}

static void __exit wdrv_exit(void)
{
	widget_unregister(&wdrv_ops);
}

module_init(wdrv_init);
module_exit(wdrv_exit);
MODULE_LICENSE("GPL");
"""


def replace(path, text):
    """Writes path anew (it may be a hard link into the real tree)."""
    os.unlink(path)
    write(path, text)


@needs_fetched(LINUX61, "linux-source")
class TreeKnowledgeTest(unittest.TestCase):
    """A tree of another release is scanned with the knowledge of its
    own code: a core that pins a type nobody listed makes its tables'
    owners matter."""

    def test_knowledge_derived_from_the_tree_once(self):
        # hard links: on the tree's file system
        tmp = tempfile.mkdtemp(dir=os.path.join(ROOT, "build"))
        self.addCleanup(shutil.rmtree, tmp)
        top = layout_61(tmp, ("x86",))
        with open(os.path.join(top, "Makefile")) as f:
            text = f.read()
        replace(os.path.join(top, "Makefile"),
                text.replace("PATCHLEVEL = 1\n", "PATCHLEVEL = 98\n"))
        with open(os.path.join(top, "drivers", "Kconfig")) as f:
            text = f.read()
        replace(os.path.join(top, "drivers", "Kconfig"),
                text + 'source "drivers/widget/Kconfig"\n')
        write(os.path.join(top, "include", "linux", "widget.h"),
              WIDGET_H)
        d = os.path.join(top, "drivers", "widget")
        write(os.path.join(d, "Kconfig"),
              "config WDRV\n\ttristate \"a widget\"\n")
        write(os.path.join(d, "Makefile"), "obj-y += widget-core.o\n"
              "obj-$(CONFIG_WDRV) += wdrv.o\n")
        write(os.path.join(d, "widget-core.c"), WIDGET_CORE_C)
        write(os.path.join(d, "wdrv.c"), WDRV_C)
        headers = os.path.join(tmp, "headers")
        os.makedirs(headers)
        env = dict(os.environ, MODLIFE_HEADERS_DIR=headers)
        env.pop("KDIR", None)
        env.pop("MODLIFE_KB", None)
        cmd = [MODLIFE, "scan", "--stats", "--no-cocci", "--cache-dir",
               os.path.join(tmp, "cache"), "drivers/widget"]
        res = run(cmd, cwd=top, env=env)
        self.assertIn("deriving the knowledge of Linux 6.98.", res.stderr)
        # a partial tree: said
        self.assertRegex(res.stderr, r"the tree has \d+ of the \d+ files "
                         "the shipped knowledge comes from")
        self.assertIn("knowledge: derived from the tree (Linux 6.98.",
                      res.stderr)
        got = [ln for ln in res.stdout.splitlines() if ": warning:" in ln]
        self.assertEqual(len(got), 1, res.stdout + res.stderr)
        self.assertTrue(got[0].startswith(
            "drivers/widget/wdrv.c:9:26: warning: 'wdrv_ops' "
            "(struct widget_ops) is exposed without .owner"), got)
        self.assertIn("widget_use() in drivers/widget/widget-core.c",
                      got[0])
        # kept: the next scan derives nothing
        again = run(cmd, cwd=top, env=env)
        self.assertNotIn("deriving", again.stderr)
        self.assertEqual(again.stdout, res.stdout)
        # the shipped knowledge does not know the type
        env["MODLIFE_KB"] = os.path.join(ROOT, "kb", "owner-reads.tsv")
        shipped = run(cmd, cwd=top, env=env)
        self.assertIn("knowledge: MODLIFE_KB", shipped.stderr)
        self.assertNotIn(": warning:", shipped.stdout)
        # the driver being worked on changes: the knowledge stays
        del env["MODLIFE_KB"]
        with open(os.path.join(d, "wdrv.c"), "a") as f:
            f.write("/* edited */\n")
        edited = run(cmd, cwd=top, env=env)
        self.assertNotIn("deriving", edited.stderr)
        self.assertEqual(edited.stdout, res.stdout)
        # the core it was derived from changes: derived again, and the
        # tree's derivations beyond the two most recently used others go
        # unless used within a day; another tree's, an untagged one and
        # the one just used stay
        kdir = os.path.join(tmp, "cache", "knowledge")
        tag = hashlib.sha256(os.path.realpath(top).encode()).hexdigest()[:12]
        mine = [n for n in os.listdir(kdir) if n.endswith(".tsv")]
        self.assertEqual(len(mine), 1)
        self.assertTrue(mine[0].startswith(tag + "-"), mine)
        day = 24 * 3600
        planted = {"untagged": ("0" * 32, 9), "other": (
            "b" * 12 + "-" + "1" * 32, 9)}
        for k, age in (("2", 2), ("3", 3), ("5", 0.5), ("6", 0.6),
                       ("7", 0.7)):
            planted["t" + k] = (tag + "-" + k * 32, age)
        for name, (stem, age) in planted.items():
            for ext in (".tsv", ".json"):
                write(os.path.join(kdir, stem + ext), "x\n")
                t = time.time() - age * day
                os.utime(os.path.join(kdir, stem + ext), (t, t))
        with open(os.path.join(d, "widget-core.c"), "a") as f:
            f.write("/* edited */\n")
        core = run(cmd, cwd=top, env=env)
        left = sorted(os.listdir(kdir))
        # t5 and t6 are the two most recently used, t7 was used within a
        # day: t2 and t3 go
        for name, gone in (("untagged", False), ("other", False),
                           ("t5", False), ("t6", False), ("t7", False),
                           ("t2", True), ("t3", True)):
            self.assertEqual(planted[name][0] + ".tsv" not in left, gone,
                             (name, left))
        self.assertIn(mine[0], left)
        self.assertIn("deriving the knowledge of Linux 6.98.192 from the "
                      "tree (drivers/widget/widget-core.c changed",
                      core.stderr)
        self.assertEqual(core.stdout, res.stdout)


# EXPORT_SYMBOL_GPL(fn) as linux/export.h of Linux 6.5 and later expands
# it: the export itself is assembly, which the parse drops
EXPORT_65 = """\
#define __EXPORT_SYMBOL_REF(sym) .quad sym
#define EXPORT_65(sym) \\
	extern typeof(sym) sym; \\
	static void * __used __section(".discard.addressable") \\
	__UNIQUE_ID(__PASTE(__addressable_, sym)) = (void *)(uintptr_t)&sym; \\
	asm(".section .export_symbol; __export_symbol_" #sym ": .previous")
#define EXPORT_NONE(sym) extern typeof(sym) sym
"""


class ExportFormTest(unittest.TestCase):
    """A library's registrations made for its users are not its own
    findings (module-release): that needs its exports seen, in the
    form of the tree's version."""

    def scan_library(self, export):
        with TempDir() as tmp:
            d = copy_module("trap-release-library", tmp)
            src = os.path.join(d, "gizbus.c")
            with open(src) as f:
                text = f.read()
            text = text.replace("EXPORT_SYMBOL_GPL(", export)
            if export != "EXPORT_SYMBOL_GPL(":
                text = text.replace("#include <linux/module.h>\n",
                                    "#include <linux/module.h>\n" +
                                    EXPORT_65, 1)
            write(src, text)
            rc, out, err = scan([d])
            self.assertIsNotNone(out, err)
            self.assertEqual(out["errors"], [])
            return [(f["line"], f["rule"]) for f in out["findings"]]

    def test_exports_of_6_5_and_later(self):
        self.assertEqual(self.scan_library("EXPORT_65("), [])
        self.assertEqual(self.scan_library("EXPORT_SYMBOL_GPL("), [])
        # not exported at all: the release is the module's own (line 36
        # of the corpus file, below the macros)
        self.assertEqual(self.scan_library("EXPORT_NONE("),
                         [(36 + EXPORT_65.count("\n"), "module-release")])


if __name__ == "__main__":
    unittest.main()
