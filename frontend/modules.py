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
import shlex

ASSIGN = re.compile(r"^\s*([A-Za-z0-9_.\-/]+|[A-Za-z0-9_\-]*-?\$\([A-Z0-9_]+\))"
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


VAR_REF = re.compile(r"\$\(([A-Za-z0-9_]+)\)")
COND = re.compile(r"^\s*(ifdef|ifndef|ifeq|ifneq)\s+(.*)$")


def _cond_value(config, text):
    """The value of a $(CONFIG_X) reference: 'y', 'm', '' or None
    (unknown)."""
    m = re.fullmatch(r"\s*\$\((CONFIG_[A-Za-z0-9_]+)\)\s*", text)
    if not m:
        return None
    v = config(m.group(1))
    return None if v is None else ("" if v == "n" else v)


def _condition(config, kw, arg):
    """True, False or None (cannot tell) for one make conditional."""
    if kw in ("ifdef", "ifndef"):
        sym = arg.strip()
        if not sym.startswith("CONFIG_"):
            return None
        v = config(sym)
        if v is None:
            return None
        return (v not in ("n", "")) == (kw == "ifdef")
    m = re.fullmatch(r"\((.*),(.*)\)\s*", arg.strip())
    if not m:
        return None
    a, b = m.group(1), m.group(2)
    va = _cond_value(config, a)
    if va is None or "$" in b:
        return None
    return (va == b.strip()) == (kw == "ifeq")


def _flag_words(text, root):
    """The -I/-D/-U/-include flags of an expanded ccflags value; words
    still holding an unknown make variable are dropped."""
    try:
        words = shlex.split(text)   # make hands the flags to a shell
    except ValueError:
        words = text.split()
    out, i = [], 0
    while i < len(words):
        w = words[i]
        i += 1
        if w in ("-I", "-include") and i < len(words):
            w, arg = w, words[i]
            i += 1
        elif w.startswith("-I"):
            w, arg = "-I", w[2:]
        elif w.startswith(("-D", "-U")):
            if "$(" not in w:
                out.append(w)
            continue
        else:
            continue
        if "$(" in arg:
            continue
        # kbuild runs from the top of the tree
        arg = os.path.normpath(os.path.join(root, arg))
        out += ["-I" + arg] if w == "-I" else [w, arg]
    return out


class DirInfo:
    """What one directory's Kbuild/Makefile says about its objects."""

    def __init__(self, directory, config=None, root=None):
        self.dir = directory
        self.root = root or directory
        outer = config or (lambda sym: None)
        # a Makefile may set options itself ("CONFIG_FOO := m")
        self.config = lambda sym: (self.vars[sym].strip() or "n"
                                   if sym in self.vars else outer(sym))
        self.obj = {}        # "foo.o" -> "m" | "y" | "CONFIG_X"
        self.parts = {}      # "foo" -> ["a.o", "b.o"]
        self.off = set()     # parts whose condition is off: not built
        self.vars = {}
        self.ccflags, self.subdir_ccflags = [], []
        self.cflags = {}     # "a.o" -> flags of CFLAGS_a.o
        self.found = False
        for name in ("Kbuild", "Makefile"):
            path = os.path.join(directory, name)
            if os.path.isfile(path):
                self.found = True
                self._parse(path, 0)
                break

    def expand(self, text, depth=0, seen=()):
        """Expands $(src), $(obj) (the directory relative to the top, as
        kbuild has them), $(srctree), $(objtree) and the file's own
        simple variables; other references are left for the caller to
        drop."""
        rel = os.path.relpath(self.dir, self.root)

        def sub(m):
            name = m.group(1)
            if name in ("src", "obj"):
                return rel
            if name in ("srctree", "objtree"):
                return self.root
            if name in self.vars and name not in seen and depth < 8:
                return self.expand(self.vars[name], depth + 1,
                                   seen + (name,))
            return m.group(0)
        return VAR_REF.sub(sub, text)[:65536]

    def _parse(self, path, depth):
        # per open conditional: [this branch live, an earlier branch was]
        # with None where the configuration cannot tell
        stack = []
        in_define = False
        for line in _logical_lines(path):
            s = line.strip()
            word = s.split(None, 1)[0] if s else ""
            if in_define:
                in_define = word != "endef"
                continue
            if word == "define" or s.startswith("define\t"):
                in_define = True
                continue
            c = COND.match(s)
            if c:
                v = _condition(self.config, c.group(1), c.group(2))
                stack.append([v, v])
                continue
            if word == "else" and stack:
                top = stack[-1]
                rest = COND.match(s[4:].strip())
                v = (_condition(self.config, rest.group(1), rest.group(2))
                     if rest else True)
                if top[1] is True:
                    v = False
                elif top[1] is None and v is not False:
                    v = None
                top[0] = v
                top[1] = True if (top[1] is True or v is True) else (
                    None if None in (top[1], v) else False)
                continue
            if word == "endif":
                if stack:
                    stack.pop()
                continue
            live = False not in [t[0] for t in stack]
            if not live:
                continue
            if word in ("include", "-include", "sinclude") and depth < 4:
                inc = self.expand(s.split(None, 1)[1].strip())
                inc = os.path.join(self.root, inc)
                if "$(" not in inc and os.path.isfile(inc):
                    self._parse(inc, depth + 1)
                continue
            m = ASSIGN.match(line)
            if m:
                self._assign(*m.groups())

    def _on(self, how, modular=True):
        """False when a '-$(CONFIG_X)' suffix is off in the config (or,
        unless modular, is m)."""
        c = CONFIG_REF.fullmatch(how)
        if not c:
            return how in (("y", "m", "objs") if modular else ("y",))
        v = self.config(c.group(1))
        return v is None or v in (("y", "m") if modular else ("y",))

    def _assign(self, lhs, op, rhs):
        if op == "?=" and lhs in self.vars:
            return
        if op == ":=":
            rhs = self.expand(rhs)      # simply expanded, once
        if op == "+=":
            self.vars[lhs] = self.vars.get(lhs, "") + " " + rhs
        else:
            self.vars[lhs] = rhs
        if lhs.startswith("CFLAGS_"):
            self.cflags.setdefault(lhs[len("CFLAGS_"):], []).extend(
                _flag_words(self.expand(rhs), self.root))
            return
        for prefix, dest in (("subdir-ccflags-", self.subdir_ccflags),
                             ("ccflags-", self.ccflags)):
            if lhs.startswith(prefix):
                # kbuild reads ccflags-y only: ccflags-$(CONFIG_X) counts
                # when X=y (or when the configuration cannot tell)
                if self._on(lhs[len(prefix):], modular=False):
                    if op == ":=" and lhs.endswith("-y"):
                        del dest[:]     # "ccflags-y := ..." starts over
                    dest.extend(_flag_words(self.expand(rhs), self.root))
                return
        words = [w for w in self.expand(rhs).split() if w.endswith(".o")]
        if lhs.startswith("obj-"):
            how = lhs[4:]
            c = CONFIG_REF.fullmatch(how)
            kind = c.group(1) if c else how
            for w in words:
                self.obj.setdefault(w, kind)
            return
        # composite: foo-y, foo-objs, foo-$(CONFIG_X), foo-m
        for suffix in ("-objs", "-y", "-m"):
            if lhs.endswith(suffix):
                base, how = lhs[:-len(suffix)], suffix[1:]
                break
        else:
            c = re.match(r"^(.*)-(\$\(CONFIG_[A-Za-z0-9_]+\))$", lhs)
            if not c:
                return
            base, how = c.group(1), c.group(2)
        if op in (":=", "="):
            self.parts.setdefault(base, [])
        if not self._on(how):
            self.off.update(words)
            return
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

    def value(self, sym):
        """'y', 'm' or 'n' under KDIR's configuration; None when it
        cannot tell."""
        v = self.config.get(sym)
        if v is None and self.same_kernel:
            return "n"
        return v

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

    def __init__(self, kconfig, assume_module=False, root=None):
        self.kconfig = kconfig
        self.root = root
        self.dirs = {}
        self.assume_module = assume_module

    def _dir(self, d):
        if d not in self.dirs:
            self.dirs[d] = DirInfo(d, self.kconfig.value,
                                   self.root or tree_root(
                                       os.path.join(d, "x")) or d)
        return self.dirs[d]

    def flags(self, path, moddir=None):
        """The per-directory and per-object flags kbuild adds for a file
        of the module whose Makefile is in moddir (default: the file's
        directory): subdir-ccflags of the directories above, the
        directory's ccflags, and CFLAGS_<obj>."""
        path = os.path.abspath(path)
        d = moddir or os.path.dirname(path)
        root = self.root or tree_root(path)
        ups, a = [], d
        while root and a != root and a.startswith(root + os.sep):
            a = os.path.dirname(a)
            ups.append(a)
        out = []
        for a in reversed(ups):
            out += self._dir(a).subdir_ccflags
        info = self._dir(d)
        obj = os.path.splitext(os.path.relpath(path, d))[0] + ".o"
        out += info.subdir_ccflags + info.ccflags + info.cflags.get(obj, [])
        if root:
            # headers from KDIR stand in for the tree's include/; paths
            # meant relative to it ("../drivers/ata/ahci.h" from -Iinclude,
            # "../../drivers/foo/foo_trace.h" from include/trace/
            # define_trace.h, "../../../sound/..." from include/trace/
            # events/) are looked up in the tree, after KDIR
            for sub in ((), ("trace",), ("trace", "events")):
                out += ["-idirafter", os.path.join(root, "include", *sub)]
        return out

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
                    members = [os.path.normpath(os.path.join(d, p[:-2] +
                                                             ".c"))
                               for p in parts]
                    members = [m for m in members if os.path.isfile(m)]
                    break
        if kind is None and obj in info.off:
            kind = "off"    # a part whose option is off: not built
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
