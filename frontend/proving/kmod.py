# SPDX-License-Identifier: GPL-2.0-only
"""What a kernel module file says about itself (.modinfo), and the modules
it needs from a kernel image's module tree: neither modinfo nor depmod is
needed, and the image's tree has no modules.dep before depmod ran."""
import fnmatch
import os
import struct

from ..tree import fswalk


class ModuleError(Exception):
    pass


def _modinfo_bytes(f):
    """Only the ELF headers and .modinfo are read: an alias lookup over a
    whole image's modules stays quick."""
    head = f.read(64)
    if len(head) < 64 or head[:4] != b"\x7fELF" or head[4:6] != b"\x02\x01":
        raise ModuleError("not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", head, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", head, 0x3a)
    if shentsize < 64 or shnum > 65535 or shstrndx >= shnum:
        raise ModuleError("bad section table")
    f.seek(shoff)
    table = f.read(shentsize * shnum)
    if len(table) < shentsize * shnum:
        raise ModuleError("truncated section table")
    heads = [struct.unpack_from("<IIQQQQ", table, i * shentsize)
             for i in range(shnum)]
    _n, _t, _f, _a, str_off, str_size = heads[shstrndx]
    f.seek(str_off)
    names = f.read(min(str_size, 1 << 20))
    for name, _typ, _flags, _addr, offset, size in heads:
        end = names.find(b"\0", name)
        if names[name:end] == b".modinfo":
            f.seek(offset)
            return f.read(min(size, 1 << 20))
    raise ModuleError("no .modinfo section (not a kernel module)")


def modinfo(path):
    """The .modinfo strings of a .ko as a dict of lists."""
    try:
        with open(path, "rb") as f:
            body = _modinfo_bytes(f)
    except OSError as e:
        raise ModuleError(e.strerror) from None
    info = {}
    for item in body.split(b"\0"):
        key, sep, value = item.decode("utf-8", "replace").partition("=")
        if sep:
            info.setdefault(key, []).append(value)
    return info


def _norm(name):
    return name.replace("-", "_")


def name_of(path):
    info = modinfo(path)
    if "name" in info:
        return info["name"][0]
    return _norm(os.path.basename(path).split(".")[0])


def depends(path):
    info = modinfo(path)
    return [_norm(d) for d in ",".join(info.get("depends", [])).split(",")
            if d]


def softdeps_pre(path):
    """'softdep=pre: a b post: c' -> [a, b]: what modprobe loads first
    (libcrc32c's crc32c); names or aliases."""
    out = []
    for sd in modinfo(path).get("softdep", []):
        words, pre = sd.split(), False
        for w in words:
            if w.endswith(":"):
                pre = w == "pre:"
            elif pre:
                out.append(w)
    return out


def index(moddir):
    """Module name -> file, over a /lib/modules/RELEASE tree."""
    found = {}
    for root, _dirs, files in fswalk.walk(moddir):
        for f in files:
            if f.endswith(".ko"):
                found.setdefault(_norm(f[:-3]), os.path.join(root, f))
    return found


class Image:
    """A kernel image's modules: by name, and by alias when needed."""

    def __init__(self, moddir):
        self.moddir = moddir
        self._idx = None
        self._aliases = None

    def by_name(self, name):
        if self._idx is None:
            self._idx = index(self.moddir)
        return self._idx.get(_norm(name))

    def resolve(self, name):
        """A module name or an alias (crc32c); the first match in name
        order, as modprobe would pick one provider."""
        hit = self.by_name(name)
        if hit:
            return hit
        if self._aliases is None:
            self._aliases = []
            for mod in sorted(self._idx):
                try:
                    for al in modinfo(self._idx[mod]).get("alias", []):
                        self._aliases.append((al, self._idx[mod]))
                except ModuleError:
                    continue
        for al, path in self._aliases:
            if fnmatch.fnmatchcase(name, al):
                return path
        return None


def closure(paths, moddir):
    """The image modules that the given .ko files need, dependencies and
    pre soft dependencies first (insmod order)."""
    image = Image(moddir)
    order, seen = [], set()

    def need(path, name, hard):
        got = image.resolve(name) if not hard else image.by_name(name)
        if got is None:
            if not hard:
                return          # modprobe goes on without a softdep too
            raise ModuleError("%s needs module %s, which %s lacks" %
                              (os.path.basename(path), name, moddir))
        if got in seen:
            return
        seen.add(got)
        visit(got)
        order.append(got)

    def visit(path):
        for dep in softdeps_pre(path):
            need(path, dep, False)
        for dep in depends(path):
            need(path, dep, True)

    for p in paths:
        visit(p)
    return order
