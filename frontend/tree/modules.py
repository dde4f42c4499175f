# SPDX-License-Identifier: GPL-2.0-only
"""Which files are module code, and which files make up one module.

With kbuild, -DMODULE says it. Scanning a tree without building it, the
Kbuild or Makefile of the file's directory (or of a directory above that
names it by a relative path) is read. By default ("any" configuration) an
object in obj-m, or in obj-$(CONFIG_X) where X is tristate in any Kconfig
file of the tree (any architecture), is a module: the question is whether
kbuild can build it as one, not whether one .config does. Under "kdir"
only what KDIR's .config builds as =m is. Composite objects (<mod>-y,
<mod>-objs, <mod>-$(CONFIG_Y)) group their parts into one module.
"""
import collections
import hashlib
import os
import re
import shlex

from .kconfeval import needs_built_in, valued_defaults
from . import archnames, fswalk, kconfeval, machdirs
from .kconfig import arch_of, logical_lines, positive_symbols

ASSIGN = re.compile(r"^\s*([A-Za-z0-9_.\-/]+|"
                    r"[A-Za-z0-9_\-]*-?\$\([A-Za-z0-9_]+(?::m=y)?\))"
                    r"\s*(\+=|:=|=|\?=)\s*(.*)$")
CONFIG_REF = re.compile(r"\$\((CONFIG_[A-Za-z0-9_]+)\)")
# kbuild's "$(CONFIG_X:m=y)": y whenever X is on, never m
M_TO_Y = re.compile(r"(.*-)\$\((CONFIG_[A-Za-z0-9_]+):m=y\)")


VAR_REF = re.compile(r"\$\(([A-Za-z0-9_-]+)\)")
ADD_FIX = re.compile(r"\$\((addprefix|addsuffix)\s+([^,()$]*),([^()$]*)\)")


def _add_fix(m):
    fix, words = m.group(2).strip(), m.group(3).split()
    if m.group(1) == "addprefix":
        return " ".join(fix + w for w in words)
    return " ".join(w + fix for w in words)
# characters the expansions of one Makefile (and the files it includes)
# may produce, all lines and levels together: a budget per expansion let
# each of many lines spend it all again
EXPAND_BUDGET = 1 << 20
COND = re.compile(r"^\s*(ifdef|ifndef|ifeq|ifneq)\s+(.*)$")


def _cond_value(config, text):
    """The value of a $(CONFIG_X) reference: 'y', 'm', '' or None
    (unknown)."""
    m = re.fullmatch(r"\s*\$\((CONFIG_[A-Za-z0-9_]+)\)\s*", text)
    if not m:
        return None
    v = config(m.group(1))
    return None if v is None else ("" if v == "n" else v)


def _needs_on(kw, arg):
    """The option a make conditional's first branch needs on ("ifdef
    CONFIG_X", "ifneq ($(CONFIG_X),)", "ifeq ($(CONFIG_X),y)"), or None."""
    if kw == "ifdef" and arg.strip().startswith("CONFIG_"):
        return arg.strip()
    m = re.fullmatch(r"\(\s*\$\((CONFIG_\w+)\)\s*,\s*(\w*)\s*\)\s*",
                     arg.strip())
    if m and ((kw == "ifneq" and m.group(2) in ("", "n")) or
              (kw == "ifeq" and m.group(2) in ("y", "m"))):
        return m.group(1)
    return None


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
    """The -I/-D/-U/-include/-O flags of an expanded ccflags value; words
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
        elif re.fullmatch(r"-O[0-3sgz]?", w):
            # the level decides __OPTIMIZE__ (jitterentropy.c wants -O0)
            out.append(w)
            continue
        elif w.startswith("-mfpu=neon"):
            # what the compiler then predefines (arm's xor-neon.c tests
            # it); sparse has no such option
            out += ["-D__ARM_NEON__=1", "-D__ARM_NEON=1"]
            continue
        else:
            continue
        if "$(" in arg:
            continue
        # kbuild runs from the top of the tree
        arg = os.path.normpath(os.path.join(root, arg))
        out += ["-I" + arg] if w == "-I" else [w, arg]
    return out


def _objects(text):
    """The objects (words ending in .o) of an expanded value."""
    return [w for w in text.split() if w.endswith(".o")]


def comp_rank(info, comp):
    return (comp + ".o" not in info.obj, comp)


class DirInfo:
    """What one directory's Kbuild/Makefile says about its objects."""

    def __init__(self, directory, config=None, root=None):
        self.dir = directory
        self.root = root or directory
        outer = config or (lambda sym: None)
        # a Makefile may set options itself ("CONFIG_FOO := m")
        self.config = lambda sym: (self.vars[sym].strip() or "n"
                                   if sym in self.vars else outer(sym))
        self.obj = {}        # "foo.o" -> {"m", "y", "CONFIG_X", ...}
        self.parts = {}      # "foo" -> ["a.o", "b.o"]
        self.part_opts = {}  # ("foo", "a.o") -> {"CONFIG_Y"} (conditional)
        self.off = set()     # parts whose condition is off: not built
        self.vars = {}
        self.ccflags, self.subdir_ccflags = [], []
        self.cflags = {}     # "a.o" -> flags of CFLAGS_a.o
        self._index = None
        self._needs = set()  # options the open conditionals need on
        self._budget = [EXPAND_BUDGET]
        # a directory of arch/ARCH/ sees what ARCH's Makefile exports
        arch = arch_of(self.root, directory) if root else None
        self.arch_vars = machdirs.variables(self.root, arch) \
            if arch and os.path.isdir(os.path.join(self.root, "arch",
                                                   arch)) else {}
        self.found = False
        for name in ("Kbuild", "Makefile"):
            path = os.path.join(directory, name)
            if os.path.isfile(path):
                self.found = True
                self._included = {os.path.realpath(path)}
                self._parse(path, 0)
                break

    def expand(self, text, depth=0, seen=(), budget=None):
        """Expands $(src), $(obj) (the directory relative to the top, as
        kbuild has them), $(srctree), $(objtree) and the file's own
        simple variables; other references are left for the caller to
        drop. The work is bounded: variables that refer to others several
        times grow exponentially with depth, so all the expansions of the
        Makefile share one budget."""
        rel = os.path.relpath(self.dir, self.root)
        if budget is None:
            budget = self._budget

        def sub(m):
            name = m.group(1)
            if name in ("src", "obj"):
                return rel
            if name in ("srctree", "objtree"):
                return self.root
            if budget[0] <= 0:
                return ""
            if name in self.vars and name not in seen and depth < 8:
                out = self.expand(self.vars[name], depth + 1,
                                  seen + (name,), budget)
                budget[0] -= len(out) + 1
                return out
            if name in self.arch_vars:
                budget[0] -= len(self.arch_vars[name]) + 1
                return self.arch_vars[name]
            return m.group(0)
        text = VAR_REF.sub(sub, text)[:65536]
        # $(addprefix libxfs/,xfs_ag.o ...), as fs/xfs names its parts
        for _ in range(4):      # nested: $(addsuffix /Makefile, $(addprefix ..))
            text, n = ADD_FIX.subn(_add_fix, text)
            if not n:
                break
        return text

    def _parse(self, path, depth):
        # per open conditional: [this branch live, an earlier branch was]
        # with None where the configuration cannot tell
        stack = []
        in_define = False
        for line in logical_lines(path):
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
                stack.append([v, v, _needs_on(c.group(1), c.group(2))])
                continue
            if word == "else" and stack:
                top = stack[-1]
                top[2] = None       # an else branch needs nothing known
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
                for inc in self.expand(s.split(None, 1)[1]).split()[:64]:
                    inc = os.path.join(self.root, inc)
                    # each file once: a Makefile including itself (or
                    # two each other) would take exponential time
                    if "$(" not in inc and os.path.isfile(inc) and \
                            os.path.realpath(inc) not in self._included:
                        self._included.add(os.path.realpath(inc))
                        self._parse(inc, depth + 1)
                continue
            m = ASSIGN.match(line)
            if m:
                self._needs = {t[2] for t in stack if t[2]}
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
        m2y = M_TO_Y.fullmatch(lhs)
        if m2y:
            lhs = m2y.group(1) + "$(%s)" % m2y.group(2)
            if lhs.startswith("obj-"):
                # built in wherever X is on (powermac's nvram.o)
                if not self._on(lhs[4:]):
                    return
                lhs = "obj-y"
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
                if self._on(lhs[len(prefix):], modular=bool(m2y)):
                    if op == ":=" and lhs.endswith("-y"):
                        del dest[:]     # "ccflags-y := ..." starts over
                    dest.extend(_flag_words(self.expand(rhs), self.root))
                return
        if lhs.startswith("obj-"):
            how = lhs[4:]
            c = CONFIG_REF.fullmatch(how)
            kind = c.group(1) if c else how
            for w in _objects(self.expand(rhs)):
                self.obj.setdefault(w, set()).add(kind)
            return
        # composite: foo-y, foo-objs, foo-$(CONFIG_X), foo-m
        for suffix in ("-objs", "-y", "-m"):
            if lhs.endswith(suffix):
                base, how = lhs[:-len(suffix)], suffix[1:]
                break
        else:
            c = re.match(r"^(.*)-(\$\(CONFIG_[A-Za-z0-9_]+\))$", lhs)
            if not c:
                # another variable: expanded where it is used, not here
                # (its expansion would spend the Makefile's budget)
                return
            base, how = c.group(1), c.group(2)
        words = _objects(self.expand(rhs))
        if op in (":=", "="):
            self.parts.setdefault(base, [])
        if not self._on(how):
            self.off.update(words)
            return
        self.parts.setdefault(base, []).extend(words)
        needs = set(self._needs)
        if how.startswith("$(CONFIG_"):
            needs.add(how[2:-1])
        for w in words:
            if needs:
                self.part_opts.setdefault((base, w), set()).update(needs)

    def named(self, path):
        """(kinds, composite or None, the part's own options) of an object
        (its absolute path, .o), or None when no line names it."""
        if self._index is None:
            self._index = {}
            for o in self.obj:
                self._index.setdefault(self._abs(o), (None, o))
            # a list variable (i915's "gt-y", spliced into "i915-y") holds
            # the part too: the composite that is itself an object wins
            for comp in sorted(self.parts, key=lambda c: comp_rank(self, c)):
                for part in self.parts[comp]:
                    self._index.setdefault(self._abs(part), (comp, part))
        hit = self._index.get(path)
        if hit is None:
            return None
        comp, o = hit
        if comp is None:
            return self.obj[o], None, set()
        return (self.obj.get(comp + ".o", set()), comp,
                self.part_opts.get((comp, o), set()))

    def _abs(self, obj):
        return os.path.normpath(os.path.join(self.dir, obj))


def tree_root(path):
    """The kernel source tree a path lies in, or None (out of tree)."""
    d = os.path.dirname(os.path.abspath(path))
    while d != os.path.dirname(d):
        # a driver may have Kconfig, Makefile and include/linux of its
        # own (staging's atomisp): a tree has arch/ and scripts/ too
        if (os.path.isfile(os.path.join(d, "Kconfig")) and
                os.path.isdir(os.path.join(d, "include", "linux")) and
                os.path.isfile(os.path.join(d, "Makefile")) and
                os.path.isdir(os.path.join(d, "arch")) and
                os.path.isdir(os.path.join(d, "scripts"))):
            return d
        d = os.path.dirname(d)
    return None


Placement = collections.namedtuple(
    "Placement", "module modname key members reason options part_options")
Placement.__doc__ = """Where a file belongs: is it module code, the
module's name and key (its Makefile's directory joined with the name), the
sources of the module beside it, why it is not checked (None when it is),
the options that select it, and those of them that only its part's
line names."""

# why a file is not checked
REASONS = {
    "bool-only": "only obj-y, or an option that is bool everywhere: "
                 "never a module",
    "not-built": "no Makefile names it, or its option is defined in no "
                 "Kconfig file, or nothing can turn it on (no prompt, "
                 "default, select or imply)",
    "no-makefile": "no Makefile names it (--config kdir; --assume-module "
                   "checks it)",
    "config": "KDIR's .config does not build it as a module "
              "(--config kdir)",
    "link-outside": "a link out of the scanned directory: not followed",
}
MODES = ("any", "kdir")
CONFIG_WORD = re.compile(rb"\bCONFIG_([A-Za-z0-9_]+)")


def config_words(path):
    """The CONFIG_ words of a source (its first 4 MiB), sorted, without
    the prefix; all a module's options take from its text (noted)."""
    try:
        with fswalk.open_regular(path, noted=False) as f:
            text = f.read(1 << 22)
    except OSError:
        text = b""
    words = sorted(set(CONFIG_WORD.findall(text)))
    fswalk.note("words", path, hashlib.sha256(b" ".join(words)).hexdigest())
    return words


class ModuleMap:
    """Resolves a source file to its Placement.

    mode "any": module code is what kbuild can build as a module in some
    configuration; "kdir": what KDIR's .config builds as =m. Files the
    user names (explicit) and files of a directory no Makefile covers are
    module code unless a Makefile says otherwise."""

    def __init__(self, kconfig, assume_module=False, root=None, mode="any",
                 explicit=()):
        self.kconfig = kconfig
        self.root = root
        self.dirs = {}
        self.roots = {}
        self.subdirs = {}
        self.members = {}
        self.assume_module = assume_module
        self.mode = mode
        self.explicit = {os.path.abspath(p) for p in explicit}
        self._deps_memo = {}

    def has_makefile(self, d):
        return self._dir(d).found

    def tree_of(self, path):
        """The kernel tree a file lies in, or None (out of tree)."""
        return self._root(os.path.dirname(os.path.abspath(path)))

    def _root(self, d):
        if d not in self.roots:
            self.roots[d] = self.root or tree_root(os.path.join(d, "x"))
        return self.roots[d]

    def _dir(self, d, for_flags=False):
        """A directory's Makefile read under KDIR's values, or under "any"
        with every branch of a conditional taken: the objects it can build,
        and every include path a configuration may add."""
        config = None
        if self.mode == "kdir":
            config = self.kconfig.value
        key = (d, config is not None)
        if key not in self.dirs:
            self.dirs[key] = DirInfo(d, config, self._root(d) or d)
        return self.dirs[key]

    def flags(self, path, moddir=None):
        """The per-directory and per-object flags kbuild adds for a file
        of the module whose Makefile is in moddir (default: the file's
        directory): subdir-ccflags of the directories above, the
        directory's ccflags, and CFLAGS_<obj>."""
        path = os.path.abspath(path)
        d = moddir or os.path.dirname(path)
        root = self._root(os.path.dirname(path))
        ups, a = [], d
        while root and a != root and a.startswith(root + os.sep):
            a = os.path.dirname(a)
            ups.append(a)
        out = []
        for a in reversed(ups):
            out += self._dir(a, True).subdir_ccflags
        info = self._dir(d, True)
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

    def _lookup(self, path):
        """(directory, DirInfo, named()) of the nearest Makefile naming
        the file: its own directory's, one above (fs/xfs names
        libxfs/xfs_ag.o), or a neighbour's below those ("amdgpu-y +=
        ../amdkfd/kfd_module.o"); None if none does."""
        d = os.path.dirname(path)
        root = self._root(d)
        obj = os.path.splitext(path)[0] + ".o"
        ups, a = [], d
        for _ in range(6):
            ups.append(a)
            up = os.path.dirname(a)
            if up == a or (root and not up.startswith(root)) or \
                    (not root and not self._dir(up).found):
                break
            a = up
        near = []
        for a in ups[1:4]:
            near += [n for n in self._subdirs(a) if n not in ups]
        for a in ups + near:
            info = self._dir(a)
            hit = info.named(obj) if info.found else None
            if hit:
                return a, info, hit
        return None

    def _subdirs(self, d):
        if d not in self.subdirs:
            try:
                names = sorted(fswalk.listdir(d))
            except OSError:
                names = []
            self.subdirs[d] = [os.path.join(d, n) for n in names
                               if not n.startswith(".") and
                               os.path.isdir(os.path.join(d, n))]
        return self.subdirs[d]

    def _modular(self, sym, in_tree):
        """Under "any": True when the option can be m, False when it
        cannot (bool), None when no Kconfig file defines it or none
        can turn it on."""
        if sym in self.kconfig.tristate:
            # in a tree, an option no configuration can turn on builds
            # nothing (out of tree, make CONFIG_X=m may set it): one
            # without a prompt, or one that needs BROKEN or an option
            # no Kconfig file defines
            return True if not in_tree or kconfeval.can_be_on(
                self.kconfig, sym) else None
        if sym in self.kconfig.bool:
            return False
        # out of tree, kbuild builds nothing but modules
        return None if in_tree else True

    def resolve(self, path):
        path = os.path.abspath(path)
        d = os.path.dirname(path)
        base = os.path.splitext(os.path.basename(path))[0]
        in_tree = bool(self._root(d))
        own = self._dir(d)
        found = self._lookup(path)
        if found is None:
            if own.found:   # the directory's Makefile does not name it
                modname, members, reason = base, [path], "not-built"
            else:
                # no Makefile at all: one module per directory; in a
                # kernel tree, kbuild builds only what a Makefile names
                # (the rest is #included or not built)
                modname = re.sub(r"[^A-Za-z0-9_]", "_", os.path.basename(d))
                members = []
                reason = "no-makefile" if self.mode == "kdir" else (
                    "not-built" if in_tree else None)
            if self.assume_module or path in self.explicit:
                reason = None
            return Placement(reason is None, modname.replace("-", "_"),
                             os.path.join(d, modname), members, reason, [],
                             [])
        a, info, (kinds, comp, part_opts) = found
        if not in_tree:
            self.kconfig.add_local(a)
        modname, members = base, [path]
        if comp:
            modname = comp
            members = self._members(a, info, comp)
        options = sorted(k for k in kinds | part_opts
                         if k.startswith("CONFIG_"))
        reason = self._reason(kinds, part_opts, in_tree, arch_of(
            self.kconfig.tree, path))
        return Placement(reason is None, modname.replace("-", "_"),
                         os.path.join(a, modname), members, reason, options,
                         sorted(part_opts))

    def _members(self, a, info, comp):
        """The sources of a composite object's parts that exist, once per
        composite (amdgpu has a thousand)."""
        key = (a, comp)
        if key not in self.members:
            parts = [os.path.normpath(os.path.join(a, p[:-2] + ".c"))
                     for p in info.parts[comp]]
            self.members[key] = [m for m in dict.fromkeys(parts)
                                 if os.path.isfile(m)]
        return list(self.members[key])

    def _reason(self, kinds, part_opts, in_tree, arch=None):
        """None when the object is (part of) a module, else why not; a
        file under arch/ARCH/ is built for ARCH only, with its types."""
        if self.mode == "kdir":
            if "m" in kinds or any(k.startswith("CONFIG_") and
                                   self.kconfig.modular(k) for k in kinds):
                return None
            opts = [k for k in kinds if k.startswith("CONFIG_")]
            if not opts:
                return "bool-only" if kinds else "not-built"
            if all(o in self.kconfig.bool and o not in self.kconfig.tristate
                   for o in opts):
                return "bool-only"
            return "config"
        if not kinds:
            return "not-built"
        verdicts = [True if k == "m" else
                    False if arch and self.kconfig.bool_for(k, arch) else
                    self._modular(k, in_tree) if k.startswith("CONFIG_")
                    else False for k in kinds]
        if True not in verdicts:
            return "bool-only" if False in verdicts else "not-built"
        # a conditional part is linked in when its own option is on; an
        # option no Kconfig file defines never is
        if part_opts and all(self._modular(o, in_tree) is None
                             for o in part_opts):
            return "not-built"
        return None

    def module_options(self, path, placement):
        """What to define for parsing the file as its module build would
        see it, as (symbol, "m" | "y" | value): the tristate options
        selecting its object, and those the file tests that are defined
        in the same Kconfig files, as =m; a bool option its part is built
        under ("bridge-$(CONFIG_BRIDGE_CFM) += br_cfm.o") as =y; int, hex
        and string options the file uses that KDIR's .config lacks, at
        their Kconfig default; a bool the file tests that only a
        built-in build of its own options can have ("depends on FOO=y")
        as "n". What KDIR already says is left alone otherwise."""
        if self.mode != "any" or not placement.module:
            return []
        kc = self.kconfig
        out = {o: "m" for o in placement.options if o in kc.tristate}
        for o in placement.part_options:
            if o in kc.bool and o not in kc.tristate:
                out[o] = "y"
        menus = set()
        for o in placement.options:
            menus |= kc.defined_in.get(o, set())
        tested = set()
        for m in config_words(path):
            sym = "CONFIG_" + m.decode()
            if sym.endswith("_MODULE") and sym[:-7] in kc.tristate:
                sym = sym[:-7]
            tested.add(sym)
            if sym in kc.tristate and kc.defined_in.get(sym, set()) & menus:
                out.setdefault(sym, "m")
            elif sym in kc.defaults and sym not in kc.config:
                out.setdefault(sym, kc.defaults[sym])
        # a bool the file tests that only a built-in build of its own
        # options can have is off in the module build
        own = [o for o in placement.options if out.get(o) == "m"]
        for sym in sorted(tested - set(placement.options)):
            if sym in kc.bool and sym not in kc.tristate and \
                    needs_built_in(kc, kc.config, sym, own):
                out[sym] = "n"
        # one member of each choice is on in any configuration
        for sym, v in kc.choice_defaults(placement.options, tested):
            if not any(kc.choice_of.get(o) == kc.choice_of[sym]
                       for o in out):
                out[sym] = v
        return sorted((o, v) for o, v in out.items()
                      if kc.config.get(o) != v)

    def architectures(self, placement, native=(), path=None):
        """The architectures (arch/ subdirectories) whose own symbols the
        options selecting the object depend on ("depends on PPC_PASEMI",
        "if M68K"), other than the native ones, the likeliest first: a
        symbol of one architecture counts more than one many define
        (CPU_BIG_ENDIAN), and the options' own dependencies more than
        those of their dependencies (three steps). A symbol only
        architectures select (HAVE_ARM_SMCCC) counts for them."""
        kc = self.kconfig
        if not kc.tree:
            return []
        near = set(placement.options)   # s390's QDIO is in arch/s390
        for o in placement.options:
            near |= kc.depends.get(o, set())
            if o not in kc.prompted:
                # no user sets it: it is on where its defaults'
                # conditions hold, and what it selects must exist there
                # (imx-pcm-fiq: "default y if ... MXC_AVIC", "select FIQ")
                for value, cond, *_ in kc.default_exprs.get(o, ()):
                    near |= positive_symbols(value + " " + cond)
                near |= kc.selects.get(o, set())
        far = set()
        for d in near:
            far |= kc.depends.get(d, set())
        # a third step: vchiq needs RASPBERRYPI_FIRMWARE, which needs
        # ARCH_BCM2835
        farther = set()
        for d in far - near:
            farther |= kc.depends.get(d, set())
        score = {}
        for syms, weight in ((near, 2.0), (far - near, 1.0),
                             (farther - far - near, 0.5)):
            for sym in syms:
                # where some configuration turns it on (x86's SBUS is
                # a bare bool)
                where = kc.arches_on(sym)
                # MMU, ISA: the native architecture has them too
                if not where or where & set(native):
                    continue
                for a in where:
                    score[a] = score.get(a, 0) + weight / len(where)
        # a Kconfig file only some architectures' Kconfig files source
        # is theirs (arch/sparc/Kconfig brings in drivers/sbus/char/),
        # and so is what the options need from one (parisc's GSC, in
        # drivers/parisc/Kconfig); one under arch/ counted above
        # (each of its definitions: s390's Kconfig files define some
        # generic symbols again)
        for o in near:
            defs = () if kc.arch_only(o) else kc.defined_in.get(o, ())
            where = [kc.source_arches(f) for f in defs]
            where = frozenset().union(*where) if where and all(where) \
                else None
            if where and not where & set(native):
                for a in where:
                    score[a] = score.get(a, 0) + 2.0 / len(where)
        # rounded: a sum's last bits depend on the order of a set
        out = sorted(score, key=lambda a: (-round(score[a], 9), a))
        # an option only a 32-bit kernel of a 64-bit architecture has
        # (APM under X86_32, sun4m's LED under SPARC32): that kernel
        # first, in place of the 64-bit one
        word32 = sorted({archnames.WORD32[a] for d in near | far
                         for a in kc.arches(d) if a in archnames.WORD32
                         and kconfeval.needs_off(
                             kc, d, archnames.WORD_SIZE_OPTION, a)})
        # a file under arch/A/ is A's alone, whatever its options say
        # (arm64's crypto drivers depend on KERNEL_MODE_NEON, which arm
        # has too): its error is A's, not that of a last try as mips
        own = arch_of(kc.tree, os.path.abspath(path)) if path else None
        if own and os.path.isdir(os.path.join(kc.tree, "arch", own)):
            if archnames.WORD32.get(own) in word32:
                return [archnames.WORD32[own]]
            return [] if own in native else [own]
        return word32 + [a for a in out
                         if archnames.WORD32.get(a) not in word32]

    def dependencies(self, placement, path=None, native=(), own_arch=True):
        """What the options selecting the object depend on (directly, and
        what those depend on) or select (and what that selects in turn,
        as kconfig forces it), and KDIR's .config leaves off, as
        ("CONFIG_OF", "y") or ("CONFIG_I2C", "m"): a parse under KDIR's
        autoconf.h would miss what they declare (struct members under
        CONFIG_OF, icc_sync_state() under CONFIG_INTERCONNECT). Symbols
        that only an architecture's Kconfig defines are left alone (KDIR's
        headers are one architecture's) except for a file under that
        architecture's own arch/ directory, which builds for it alone
        (riscv's crypto glue needs RISCV_ISA_V); such a file parses under
        its architecture's configuration, not KDIR's, so nothing is left
        out for being set in KDIR's. Without own_arch, that
        architecture's own symbols are left out too: a 32-bit platform's
        would clash with the architecture's 64-bit base configuration
        (powerpc's PPC_BOOK3S_32 beside PPC_BOOK3S_64), so the scan tries
        that parse when the first fails."""
        if self.mode != "any" or not placement.module:
            return []
        kc = self.kconfig
        arch = arch_of(kc.tree, path) if path else None
        # the files of a module share their options: decided once
        memo = (frozenset(placement.options), arch, tuple(native), own_arch)
        if memo not in self._deps_memo:
            self._deps_memo[memo] = self._dependencies(
                placement.options, arch, native, own_arch)
        return list(self._deps_memo[memo])

    def _dependencies(self, options, arch, native, own_arch):
        kc = self.kconfig
        want = set()
        for o in options:
            direct = kc.depends.get(o, set()) | kc.selects_for(o, arch) | \
                kc.selectors_need(o)
            want |= direct
            for d in direct:
                want |= kc.depends.get(d, set())
        # BROKEN is never on ("depends on !SPARC32 || BROKEN"); the
        # native architecture parses under KDIR's configuration or its
        # base one, which its own symbols would contradict (X86_32 on
        # x86_64); ARM64 in "depends on ARM64 || COMPILE_TEST" is not
        # turned on for a driver, nor what it selects

        def taken(dep):
            return dep in kc.defined_in and dep != "CONFIG_BROKEN" and \
                not (kc.arch_only(dep) and (not arch or not own_arch or
                                            arch in native or
                                            kc.arches(dep) != {arch}))
        # what is on brings what it selects unconditionally, as kconfig
        # forces it (KVM_BOOK3S_64, which KVM_BOOK3S_64_HV depends on,
        # selects KVM_BOOK3S_64_HANDLER)
        todo = list(options) + [d for d in want if taken(d)]
        while todo:
            for t in kc.selects_for(todo.pop(), arch, forced=True) - want:
                want.add(t)
                if taken(t):
                    todo.append(t)
        out = {}
        for dep in want - set(options):
            if not taken(dep):
                continue
            have = kc.config.get(dep) if not arch or arch in native \
                else None
            if dep in kc.tristate and not (arch and kc.bool_for(dep, arch)):
                if have not in ("y", "m"):
                    out[dep] = "m"
            elif have != "y":
                out[dep] = "y"
        # an int or string option what is on here makes visible, which
        # the base configuration cannot set (<asm/coldfire.h> needs
        # CLOCK_FREQ, under COLDFIRE; S3C_GPIO_SPACE is under
        # SAMSUNG_ATAGS)
        own = {o: "m" if o in kc.tristate else "y"
               for o in options}
        on = collections.ChainMap(out, own, kc.config if not arch or
                                  arch in native else {})
        out.update(valued_defaults(
            kc, on, set(out) | set(own), arch or "x86",
            arch if arch and own_arch and arch not in native else None))
        return sorted(out.items())
