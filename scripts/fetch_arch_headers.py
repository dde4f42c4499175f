#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fetches Debian's configured kernel headers of other architectures
(linux-headers-6.1.0-N-<flavour>) into build/arch-kdir/<arch>, so that a
driver for arm, arm64, powerpc, s390 or mips hardware is parsed with its
architecture's headers and autoconf.h.

Nothing is installed: the index is the archive's signed InRelease
(checked with gpgv against Debian's keyring), the package list and the
package are checked against the sha256 sums it signs, and the package is
unpacked with dpkg-deb -x. An architecture that cannot be had is named
and left out; the scan then falls back to KDIR's headers.
"""
import hashlib
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request

MIRROR = os.environ.get("DEBIAN_MIRROR", "http://deb.debian.org")
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
SUITES = (("debian-security", "bookworm-security"),
          ("debian", "bookworm-updates"), ("debian", "bookworm"))
# kernel arch, Debian arch, flavour, and the flags the architecture's
# Makefile adds that sparse needs (@COMMON@: the common headers)
ARCHES = (("arm", "armhf", "armmp",
           "--arch=arm -mlittle-endian -D__LINUX_ARM_ARCH__=7"),
          ("arm64", "arm64", "arm64", "--arch=arm64 -mlittle-endian"),
          ("powerpc", "ppc64el", "powerpc64le",
           "--arch=ppc64le -mlittle-endian"),
          ("s390", "s390x", "s390x", "--arch=s390x -mbig-endian"),
          ("mips", "mipsel", "4kc-malta",
           "--arch=mips -mlittle-endian "
           "-I@COMMON@/arch/mips/include/asm/mach-malta "
           "-I@COMMON@/arch/mips/include/asm/mach-generic"))


def get(url):
    with urllib.request.urlopen(url, timeout=120) as r:
        return r.read()


def signed_sums(archive, suite):
    """{path: sha256} of a suite's InRelease, once gpgv accepts it."""
    data = get("%s/%s/dists/%s/InRelease" % (MIRROR, archive, suite))
    with tempfile.NamedTemporaryFile() as f:
        f.write(data)
        f.flush()
        res = subprocess.run(["gpgv", "--keyring", KEYRING, f.name],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if res.returncode != 0:
        raise ValueError("%s %s: InRelease not signed by Debian's keyring"
                         % (archive, suite))
    sums, in_sha = {}, False
    for ln in data.decode("utf-8", "replace").splitlines():
        if ln.startswith("SHA256:"):
            in_sha = True
        elif in_sha and ln.startswith(" "):
            w = ln.split()
            if len(w) == 3:
                sums[w[2]] = w[0]
        else:
            in_sha = False
    return sums


def packages(archive, suite, debarch):
    sums = signed_sums(archive, suite)
    path = "main/binary-%s/Packages.xz" % debarch
    if path not in sums:
        return ""
    data = get("%s/%s/dists/%s/%s" % (MIRROR, archive, suite, path))
    if hashlib.sha256(data).hexdigest() != sums[path]:
        raise ValueError("%s: sha256 mismatch" % path)
    return lzma.decompress(data).decode("utf-8", "replace")


def newest(text, flavour):
    """(abi, filename, sha256) of the newest linux-headers-6.1.0-N-
    <flavour> in a package list, or None."""
    best = None
    for stanza in text.split("\n\n"):
        m = re.search(r"^Package: linux-headers-6\.1\.0-(\d+)-%s$"
                      % re.escape(flavour), stanza, re.M)
        if not m:
            continue
        fn = re.search(r"^Filename: (\S+)$", stanza, re.M)
        sha = re.search(r"^SHA256: (\S+)$", stanza, re.M)
        if fn and sha and (best is None or int(m.group(1)) > best[0]):
            best = (int(m.group(1)), fn.group(1), sha.group(1))
    return best


def fetch(dest, arch, debarch, flavour, machine):
    target = os.path.join(dest, arch)
    if os.path.isfile(os.path.join(target, ".config")):
        with open(os.path.join(target, "modlife-arch"), "w") as f:
            f.write(machine + "\n")
        return "present"
    found = None
    for archive, suite in SUITES:
        hit = newest(packages(archive, suite, debarch), flavour)
        if hit and (found is None or hit[0] > found[0][0]):
            found = (hit, archive)
    if not found:
        raise ValueError("no linux-headers-6.1.0-*-%s for %s"
                         % (flavour, debarch))
    (abi, filename, sha), archive = found
    deb = get("%s/%s/%s" % (MIRROR, archive, filename))
    if hashlib.sha256(deb).hexdigest() != sha:
        raise ValueError("%s: sha256 mismatch" % filename)
    tmp = tempfile.mkdtemp(dir=dest)
    try:
        with open(os.path.join(tmp, "p.deb"), "wb") as f:
            f.write(deb)
        subprocess.run(["dpkg-deb", "-x", os.path.join(tmp, "p.deb"),
                        os.path.join(tmp, "x")], check=True)
        src = os.path.join(tmp, "x", "usr", "src",
                           "linux-headers-6.1.0-%d-%s" % (abi, flavour))
        with open(os.path.join(src, "modlife-arch"), "w") as f:
            f.write(machine + "\n")
        os.replace(src, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return "6.1.0-%d-%s" % (abi, flavour)


def main():
    dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        "build", "arch-kdir")
    os.makedirs(dest, exist_ok=True)
    bad = 0
    for row in ARCHES:
        try:
            print("arch-headers: %s: %s" % (row[0], fetch(dest, *row)))
        except (OSError, ValueError, subprocess.CalledProcessError) as e:
            bad += 1
            print("arch-headers: %s: not fetched: %s" % (row[0], e))
    return 1 if bad == len(ARCHES) else 0


if __name__ == "__main__":
    sys.exit(main())
