# SPDX-License-Identifier: GPL-2.0-only
"""What a kernel module file says about itself (.modinfo), and the modules
it needs from a kernel image's module tree: neither modinfo nor depmod is
needed, and the image's tree has no modules.dep before depmod ran."""
import os
import struct


class ModuleError(Exception):
    pass


def _sections(data):
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ModuleError("not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    heads = []
    for i in range(shnum):
        off = shoff + i * shentsize
        if off + 64 > len(data):
            raise ModuleError("truncated section table")
        name, _typ, _flags, _addr, offset, size = struct.unpack_from(
            "<IIQQQQ", data, off)
        heads.append((name, offset, size))
    if shstrndx >= len(heads):
        raise ModuleError("no section names")
    names = heads[shstrndx]
    for name, offset, size in heads:
        start = names[1] + name
        end = data.find(b"\0", start)
        yield data[start:end].decode("latin-1"), data[offset:offset + size]


def modinfo(path):
    """The .modinfo strings of a .ko as a dict of lists."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ModuleError(e.strerror) from None
    for name, body in _sections(data):
        if name == ".modinfo":
            info = {}
            for item in body.split(b"\0"):
                key, sep, value = item.decode("utf-8", "replace").partition("=")
                if sep:
                    info.setdefault(key, []).append(value)
            return info
    raise ModuleError("no .modinfo section (not a kernel module)")


def name_of(path):
    info = modinfo(path)
    if "name" in info:
        return info["name"][0]
    return os.path.basename(path).split(".")[0].replace("-", "_")


def depends(path):
    info = modinfo(path)
    return [d for d in ",".join(info.get("depends", [])).split(",") if d]


def index(moddir):
    """Module name -> file, over a /lib/modules/RELEASE tree."""
    found = {}
    for root, _dirs, files in os.walk(moddir):
        for f in files:
            if f.endswith(".ko"):
                found.setdefault(f[:-3].replace("-", "_"),
                                 os.path.join(root, f))
    return found


def closure(paths, moddir):
    """The image modules that the given .ko files need, dependencies
    first (insmod order)."""
    idx = None
    order, seen = [], set()

    def visit(path, chain):
        nonlocal idx
        for dep in depends(path):
            if dep in seen:
                continue
            if idx is None:
                idx = index(moddir)
            if dep not in idx:
                raise ModuleError("%s needs module %s, which %s lacks" %
                                  (os.path.basename(path), dep, moddir))
            seen.add(dep)
            visit(idx[dep], chain + [dep])
            order.append(idx[dep])

    for p in paths:
        visit(p, [])
    return order
