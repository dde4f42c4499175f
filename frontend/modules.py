# SPDX-License-Identifier: GPL-2.0-only
"""Which files are module code, and which files make up one module.

With kbuild, -DMODULE says it. Scanning a tree without building it, the
directory's Kbuild or Makefile is read: an object in obj-m, or in
obj-$(CONFIG_X) where X is tristate in Kconfig (or =m in KDIR's .config),
is a module; composite objects (<mod>-y, <mod>-objs, <mod>-$(CONFIG_Y))
group their parts into one module.
"""
import os
import re

ASSIGN = re.compile(r"^\s*([A-Za-z0-9_.\-]+|[A-Za-z0-9_\-]*-?\$\([A-Z0-9_]+\))"
                    r"\s*(\+=|:=|=|\?=)\s*(.*)$")
CONFIG_REF = re.compile(r"\$\((CONFIG_[A-Za-z0-9_]+)\)")


def _logical_lines(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return []
    text = text.replace("\\\n", " ")
    return [ln.split("#", 1)[0] for ln in text.split("\n")]


class DirInfo:
    """What one directory's Kbuild/Makefile says about its objects."""

    def __init__(self, directory):
        self.obj = {}        # "foo.o" -> "m" | "y" | "CONFIG_X"
        self.parts = {}      # "foo" -> ["a.o", "b.o"]
        self.found = False
        for name in ("Kbuild", "Makefile"):
            path = os.path.join(directory, name)
            if os.path.isfile(path):
                self.found = True
                self._parse(path)
                break

    def _parse(self, path):
        for line in _logical_lines(path):
            m = ASSIGN.match(line)
            if not m:
                continue
            lhs, op, rhs = m.groups()
            words = [w for w in rhs.split() if w.endswith(".o")]
            if lhs.startswith("obj-"):
                how = lhs[4:]
                c = CONFIG_REF.fullmatch(how)
                kind = c.group(1) if c else how
                for w in words:
                    self.obj.setdefault(w, kind)
                continue
            # composite: foo-y, foo-objs, foo-$(CONFIG_X), foo-m
            for suffix in ("-objs", "-y", "-m"):
                if lhs.endswith(suffix):
                    base = lhs[:-len(suffix)]
                    break
            else:
                c = re.match(r"^(.*)-\$\(CONFIG_[A-Za-z0-9_]+\)$", lhs)
                if not c:
                    continue
                base = c.group(1)
            if op == ":=" or op == "=":
                self.parts.setdefault(base, [])
            self.parts.setdefault(base, []).extend(words)


class Kconfig:
    """Tristate symbols of a kernel tree, and KDIR's .config."""

    def __init__(self, tree=None, kdir=None):
        self.tristate = set()
        self.bool = set()
        self.config = {}
        self.same_kernel = False
        if tree:
            self._scan(tree)
        if kdir:
            self._read_config(os.path.join(kdir, ".config"))
            # a symbol KDIR's .config does not know cannot be chosen there
            # (another architecture, unmet dependencies) - when KDIR
            # configures this very kernel version
            self.same_kernel = bool(tree) and _version(tree) == _version(
                kdir)

    def _scan(self, tree):
        sym = None
        for dirpath, dirnames, filenames in os.walk(tree):
            dirnames[:] = [d for d in dirnames
                           if not d.startswith(".") and d != "Documentation"]
            for fn in filenames:
                if not fn.startswith("Kconfig"):
                    continue
                for line in _logical_lines(os.path.join(dirpath, fn)):
                    w = line.split()
                    if not w:
                        continue
                    if w[0] in ("config", "menuconfig") and len(w) > 1:
                        sym = "CONFIG_" + w[1]
                    elif sym and w[0] in ("tristate", "def_tristate"):
                        self.tristate.add(sym)
                    elif sym and w[0] in ("bool", "def_bool"):
                        self.bool.add(sym)

    def _read_config(self, path):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.read().split("\n")
        except OSError:
            return
        for line in lines:
            line = line.strip()
            if line.startswith("CONFIG_") and "=" in line:
                k, v = line.split("=", 1)
                self.config[k] = v
            elif line.startswith("# CONFIG_") and line.endswith(" is not set"):
                self.config[line[2:-11]] = "n"

    def modular(self, sym):
        """True: can be a module under KDIR's configuration (=m), or,
        for a symbol that configuration does not decide, is tristate."""
        v = self.config.get(sym)
        if v is not None:
            return v == "m"
        if self.same_kernel:
            return False
        return sym in self.tristate


def _version(tree):
    """(VERSION, PATCHLEVEL) of a kernel tree's Makefile, or None."""
    v = {}
    try:
        with open(os.path.join(tree, "Makefile"), errors="replace") as f:
            for line in f:
                m = re.match(r"^(VERSION|PATCHLEVEL) = (\d+)", line)
                if m:
                    v[m.group(1)] = m.group(2)
                if len(v) == 2:
                    break
    except OSError:
        pass
    if not v:
        try:    # a configured headers tree says it here
            with open(os.path.join(tree, "include", "config",
                                   "kernel.release")) as f:
                m = re.match(r"^(\d+)\.(\d+)", f.read())
            if m:
                v = {"VERSION": m.group(1), "PATCHLEVEL": m.group(2)}
        except OSError:
            return None
    return (v.get("VERSION"), v.get("PATCHLEVEL")) if v else None


def tree_root(path):
    """The kernel source tree a path lies in, or None (out of tree)."""
    d = os.path.dirname(os.path.abspath(path))
    while d != os.path.dirname(d):
        if (os.path.isfile(os.path.join(d, "Kconfig")) and
                os.path.isdir(os.path.join(d, "include", "linux")) and
                os.path.isfile(os.path.join(d, "Makefile"))):
            return d
        d = os.path.dirname(d)
    return None


class ModuleMap:
    """Resolves a source file to (is_module, module name, module key)."""

    def __init__(self, kconfig, assume_module=False):
        self.kconfig = kconfig
        self.dirs = {}
        self.assume_module = assume_module

    def _dir(self, d):
        if d not in self.dirs:
            self.dirs[d] = DirInfo(d)
        return self.dirs[d]

    def resolve(self, path):
        """(is_module, modname, key, members): members are the sources of
        the module that exist beside the file."""
        path = os.path.abspath(path)
        d = os.path.dirname(path)
        base = os.path.splitext(os.path.basename(path))[0]
        info = self._dir(d)
        obj = base + ".o"
        modname, members = base, [path]
        kind = info.obj.get(obj)
        if kind is None:
            for comp, parts in info.parts.items():
                if obj in parts:
                    modname = comp
                    kind = info.obj.get(comp + ".o")
                    members = [os.path.join(d, p[:-2] + ".c") for p in parts]
                    members = [m for m in members if os.path.isfile(m)]
                    break
        if kind is None:
            module = self.assume_module
            if not info.found:
                # no Makefile at all: one module per directory
                members = []
                modname = re.sub(r"[^A-Za-z0-9_]", "_", os.path.basename(d))
        elif kind == "m":
            module = True
        elif kind.startswith("CONFIG_"):
            module = self.kconfig.modular(kind)
        else:
            module = False
        key = os.path.join(d, modname)
        return module, modname.replace("-", "_"), key, members
