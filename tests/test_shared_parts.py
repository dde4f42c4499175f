# SPDX-License-Identifier: GPL-2.0-only
"""A source several architectures' modules share (virt/kvm/ in each
one's kvm module) is parsed as a part of the native architecture's
module, with its Makefile's flags."""
import os
import shutil
import unittest

from util import CORPUS, TempDir, scan, write

KVM_MAKEFILE = """\
ccflags-y += -I $(srctree)/arch/%s/kvm
KVM := ../../../virt/kvm
obj-$(CONFIG_KVM) += kvm.o
kvm-y := %s.o $(KVM)/shared.o
"""


class SharedPartTest(unittest.TestCase):
    def test_the_native_module_claims_a_shared_part(self):
        with TempDir() as tmp:
            root = os.path.join(tmp, "linux")
            for sub in (("include", "linux"), ("scripts",)):
                os.makedirs(os.path.join(root, *sub))
            write(os.path.join(root, "Makefile"),
                  "VERSION = 99\nPATCHLEVEL = 1\n")
            write(os.path.join(root, "Kconfig"), "")
            mchar = os.path.join(CORPUS, "misc-char-bug", "mchar.c")
            # mips sorts first: its module would claim the part
            for arch in ("mips", "x86"):
                d = os.path.join(root, "arch", arch, "kvm")
                write(os.path.join(root, "arch", arch, "Kconfig"),
                      'config KVM\n\ttristate "KVM"\n')
                write(os.path.join(d, "Makefile"), KVM_MAKEFILE % (
                    arch, "main"))
                shutil.copy(mchar, os.path.join(d, "main.c"))
            # only x86's "irq.h" has what the shared part uses
            write(os.path.join(root, "arch", "x86", "kvm", "irq.h"),
                  "#define KVM_IRQS 16\n")
            write(os.path.join(root, "arch", "mips", "kvm", "irq.h"), "\n")
            shared = os.path.join(root, "virt", "kvm", "shared.c")
            write(shared, '#include "irq.h"\nint kvm_irqs = KVM_IRQS;\n')
            rc, result, err = scan([root])
            self.assertEqual([e["message"] for e in result["errors"]
                              if e["file"].endswith("virt/kvm/shared.c")],
                             [], err)
            # checked, not skipped
            self.assertEqual([s for s in result["skipped"]
                              if s["file"].endswith("shared.c")], [])
            self.assertTrue(any(f["file"].endswith("x86/kvm/main.c")
                                for f in result["findings"]), err)

if __name__ == "__main__":
    unittest.main()
