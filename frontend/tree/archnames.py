# SPDX-License-Identifier: GPL-2.0-only
"""The 32-bit kernels of 64-bit architectures, by kbuild's ARCH names.

kbuild builds arch/x86 as ARCH=i386 and arch/sparc as a 32-bit sparc
when 64BIT is off; a file whose options need that (apm_32.c under
X86_32, sun4m's led.c under SPARC32) is parsed as that ARCH: the
directory's headers and Kconfig, 64BIT off, sparse's 32-bit target
(treeflags.MACHINE). Which files need it is read from the tree's
Kconfig (modules.py); this table only names the variants."""

# the directory under arch/ -> the ARCH of its 32-bit kernel
WORD32 = {"x86": "i386", "sparc": "sparc32"}
_SRC = {v: k for k, v in WORD32.items()}
# the option whose being off makes a kernel 32-bit
WORD_SIZE_OPTION = "CONFIG_64BIT"


def srcarch(arch):
    """The directory under arch/ of an ARCH name (x86 for i386)."""
    return _SRC.get(arch, arch)


def is_word32(arch):
    """arch names a 32-bit kernel of a 64-bit architecture."""
    return arch in _SRC
