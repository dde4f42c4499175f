# SPDX-License-Identifier: GPL-2.0-only
"""What `modlife prove` runs on: the emulator, a static busybox, the
distribution kernel whose release matches KDIR, and the holding module.

The kernel image and busybox come from Debian's packages, downloaded and
unpacked into the cache (no root needed, nothing of the host changes, and
the image package's initramfs hooks never run); an installed
/boot/vmlinuz-RELEASE with its /lib/modules/RELEASE is used as it is. Only
the emulator is installed, when we are root."""
import glob
import os
import re
import shutil
import subprocess
import tempfile

from .. import paths


class ProveError(Exception):
    """Something prove needs is missing: one line says what."""


def cache_root(cache_dir=None):
    if cache_dir:
        return os.path.join(cache_dir, "prove")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "modlife", "prove")


def kernel_release(kdir):
    """UTS_RELEASE, what modules built against KDIR carry as vermagic
    (Debian's include/config/kernel.release holds the upstream version)."""
    path = os.path.join(kdir, "include", "generated", "utsrelease.h")
    try:
        with open(path) as f:
            m = re.search(r'UTS_RELEASE\s+"([^"]+)"', f.read())
    except OSError:
        m = None
    if not m:
        raise ProveError("%s has no UTS_RELEASE: not a configured kernel "
                         "tree" % path)
    return m.group(1)


def run(args, cwd=None, timeout=900):
    return subprocess.run(args, cwd=cwd, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=timeout)


def _unpack_package(pkg, dest, what):
    """apt-get download PKG; dpkg-deb -x into dest (atomically)."""
    if not shutil.which("apt-get") or not shutil.which("dpkg-deb"):
        raise ProveError("%s missing and no apt-get/dpkg-deb to fetch "
                         "Debian's %s" % (what, pkg))
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    work = tempfile.mkdtemp(prefix=".unpack-", dir=os.path.dirname(dest))
    try:
        res = run(["apt-get", "download", "--", pkg], cwd=work)
        debs = glob.glob(os.path.join(work, "*.deb"))
        if res.returncode or not debs:
            raise ProveError("cannot download Debian's %s (%s): %s" % (
                pkg, what, (res.stderr.strip().splitlines() or ["?"])[-1]))
        root = os.path.join(work, "root")
        res = run(["dpkg-deb", "-x", debs[0], root])
        if res.returncode:
            raise ProveError("cannot unpack %s: %s" % (
                debs[0], res.stderr.strip()))
        try:
            os.rename(root, dest)
        except OSError:
            if not os.path.isdir(dest):
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)


class Kernel:
    def __init__(self, vmlinuz, moddir, release):
        self.vmlinuz, self.moddir, self.release = vmlinuz, moddir, release


def kernel(kdir, vmlinuz=None, cache_dir=None):
    release = kernel_release(kdir)
    if vmlinuz:
        if not os.path.isfile(vmlinuz):
            raise ProveError("no kernel image %s" % vmlinuz)
        moddir = os.path.join(os.path.dirname(os.path.dirname(
            os.path.abspath(vmlinuz))), "lib", "modules", release)
        if not os.path.isdir(moddir):
            moddir = "/lib/modules/" + release
        return Kernel(vmlinuz, moddir, release)
    boot = "/boot/vmlinuz-" + release
    if os.path.isfile(boot) and os.access(boot, os.R_OK) and \
            os.path.isdir("/lib/modules/%s/kernel" % release):
        return Kernel(boot, "/lib/modules/" + release, release)
    dest = os.path.join(cache_root(cache_dir), "image-" + release)
    if not os.path.isdir(dest):
        _unpack_package("linux-image-" + release, dest,
                        "the kernel image of release " + release)
    return Kernel(os.path.join(dest, "boot", "vmlinuz-" + release),
                  os.path.join(dest, "lib", "modules", release), release)


def busybox(cache_dir=None):
    dest = os.path.join(cache_root(cache_dir), "busybox-static")
    binary = os.path.join(dest, "bin", "busybox")
    if not os.path.isfile(binary):
        _unpack_package("busybox-static", dest, "a static busybox")
    return binary


def qemu():
    found = shutil.which("qemu-system-x86_64")
    if found:
        return found
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise ProveError("qemu-system-x86_64 missing: install Debian's "
                         "qemu-system-x86 (as root: apt-get install "
                         "qemu-system-x86)")
    # another prove (a parallel test run) may be installing it: wait for
    # dpkg's lock rather than fail on it
    res = run(["apt-get", "install", "-y", "-qq", "--no-install-recommends",
               "-o", "DPkg::Lock::Timeout=1500", "qemu-system-x86"],
              timeout=1800)
    found = shutil.which("qemu-system-x86_64")
    if res.returncode or not found:
        raise ProveError("cannot install qemu-system-x86: %s" % (
            (res.stderr.strip().splitlines() or ["?"])[-1]))
    return found


def kvm_works():
    """/dev/kvm alone is not enough: the CPU must offer vmx or svm."""
    try:
        fd = os.open("/dev/kvm", os.O_RDWR)
        os.close(fd)
        with open("/proc/cpuinfo") as f:
            flags = f.read()
    except OSError:
        return False
    return " vmx" in flags or " svm" in flags


def harness(kdir, cache_dir=None):
    """modlife_hold.ko built against KDIR, once per source and release."""
    import hashlib
    src = os.path.join(paths.ROOT, "harness")
    h = hashlib.sha256(kernel_release(kdir).encode())
    for name in sorted(os.listdir(src)):
        with open(os.path.join(src, name), "rb") as f:
            h.update(name.encode() + b"\0" + f.read())
    dest = os.path.join(cache_root(cache_dir), "harness-" + h.hexdigest()[:16])
    ko = os.path.join(dest, "modlife_hold.ko")
    if os.path.isfile(ko):
        return ko
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    work = tempfile.mkdtemp(prefix=".harness-", dir=os.path.dirname(dest))
    try:
        for name in os.listdir(src):
            shutil.copy(os.path.join(src, name), work)
        res = run(["make", "-C", kdir, "M=" + work, "modules"])
        if res.returncode:
            raise ProveError("cannot build the holding module against %s: %s"
                             % (kdir, (res.stderr.strip().splitlines()
                                       or ["?"])[-1]))
        os.makedirs(dest, exist_ok=True)
        shutil.copy(os.path.join(work, "modlife_hold.ko"), ko + ".tmp")
        os.rename(ko + ".tmp", ko)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return ko
