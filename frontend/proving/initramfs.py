# SPDX-License-Identifier: GPL-2.0-only
"""Write a gzip'ed newc cpio archive, the format the kernel unpacks as
its initramfs, without the cpio program (Debian's minimal systems lack
it)."""
import gzip
import stat

_TRAILER = "TRAILER!!!"


def _pad(n):
    return b"\0" * (-n % 4)


class Archive:
    """Entries are added in order; parents before children."""

    def __init__(self):
        self._parts = []
        self._ino = 1

    def _entry(self, name, mode, data=b""):
        name_b = name.encode() + b"\0"
        fields = (self._ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0,
                  len(name_b), 0)
        self._ino += 1
        head = b"070701" + b"".join(b"%08X" % f for f in fields)
        self._parts += [head, name_b, _pad(len(head) + len(name_b)),
                        data, _pad(len(data))]

    def directory(self, name):
        self._entry(name, stat.S_IFDIR | 0o755)

    def file(self, name, data, mode=0o644):
        self._entry(name, stat.S_IFREG | mode, data)

    def symlink(self, name, target):
        self._entry(name, stat.S_IFLNK | 0o777, target.encode())

    def write(self, path):
        self._entry(_TRAILER, 0)
        with gzip.open(path, "wb", compresslevel=1) as out:
            for part in self._parts:
                out.write(part)
