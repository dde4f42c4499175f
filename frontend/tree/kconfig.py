# SPDX-License-Identifier: GPL-2.0-only
"""A kernel tree's Kconfig options, read without running kconfig: each
option's type, where it is defined, what it depends on (its own "depends
on" and the "if"/"menu"/"choice" blocks it is sourced under) and selects,
literal defaults of int/hex/string options; and KDIR's .config."""
import io
import os
import re

from . import fswalk

BRACE_REF = re.compile(r"\$\{([A-Za-z0-9_-]+)\}")


MAX_FILE = 4 << 20


def logical_lines(path):
    """A make or Kconfig file's lines, continuations joined, comments
    cut. Only a regular file is read: a FIFO named Kconfig in a scanned
    tree would block the scan, and only its first 4 MiB (the largest
    Kconfig file of a kernel tree is under 100 KiB)."""
    if not os.path.isfile(path):
        return []
    try:
        with _open_text(path) as f:
            text = f.read(MAX_FILE)
    except OSError:
        return []
    text = text.replace("\\\n", " ")
    text = BRACE_REF.sub(r"$(\1)", text)     # ${CONFIG_X} is $(CONFIG_X)
    return [ln.split("#", 1)[0] for ln in text.split("\n")]


def _open_text(path):
    """A text file object for path when it is a regular file (a FIFO
    swapped in after the isfile() check does not block the open).  Bytes
    that are not UTF-8 are kept as os.fsdecode() keeps them in file
    names, so 'obj-m := b\\xff.o' names the file b\\xff.c."""
    return io.TextIOWrapper(fswalk.open_regular(path), encoding="utf-8",
                            errors="surrogateescape")


class Kconfig:
    """The options of a kernel tree's Kconfig files (every architecture),
    and KDIR's .config."""

    def __init__(self, tree=None, kdir=None):
        self.tristate = set()
        self.prompted = set()   # a user can set them
        # ... or one whose prompt has no condition ("if COMPILE_TEST")
        self.free_prompt = set()
        self.prompted_in = {}   # "CONFIG_X" -> {Kconfig files prompting}
        self.implied = set()    # another option implies them
        self.bool = set()
        self.defined_in = {}    # "CONFIG_X" -> {Kconfig files defining X}
        self.depends = {}       # "CONFIG_X" -> {"CONFIG_OF", ...}
        self.selects = {}       # "CONFIG_X" -> {"CONFIG_REGMAP_I2C", ...}
        # "CONFIG_X" -> [(selected, conditional, Kconfig file)]
        self.select_lines = {}
        self.valued = set()     # int, hex and string options
        self._numeric = set()   # int and hex ones
        self.defaults = {}      # "CONFIG_X" -> "48000" (a literal default)
        self.choice_of = {}     # "CONFIG_X" -> its choice block's number
        self.choice_default = {}    # choice number -> its first default
        # the expressions, for evaluating defaults (kconfeval.py):
        # "CONFIG_X" -> [(expr, file)]; -> [(value expr, condition or
        # "", file, line)];
        # "CONFIG_T" -> [(selecting "CONFIG_X", condition or "")]
        self.dep_exprs = {}
        self.default_exprs = {}
        self.selected_if = {}
        self.types = {}         # "CONFIG_X" -> bool, tristate, int, ...
        self.typed_in = {}      # "CONFIG_X" -> {Kconfig file: its type}
        self.inherited = {}     # [(the enclosing blocks' symbols, file)]
        self.sources = {}       # Kconfig file -> [(kind, path, line)]
        self._members_by, self._members_for = {}, 0
        self._selected_by = None
        self._read = set()
        self._arches = {}
        self._sourced_by = None
        self.config = {}
        self.has_config = False
        self.same_kernel = False
        self._local = set()
        self.tree = os.path.abspath(tree) if tree else None
        if tree:
            self._scan(self.tree)
        if kdir:
            self._read_config(os.path.join(kdir, ".config"))
            # a symbol KDIR's .config does not know cannot be chosen there
            # (another architecture, unmet dependencies) - when KDIR
            # configures this very kernel version
            self.same_kernel = bool(tree) and _version(tree) == _version(
                kdir)

    def _scan(self, tree):
        # from the top, so that options inherit the "if"/"menu" blocks
        # they are sourced under; then every other Kconfig file (other
        # architectures', "source" paths with variables) on its own
        self._read_kconfig(os.path.join(tree, "Kconfig"), frozenset())
        for dirpath, dirnames, filenames in fswalk.walk(tree):
            dirnames[:] = sorted(d for d in dirnames
                                 if not d.startswith(".") and
                                 d != "Documentation")
            for fn in sorted(filenames):
                if fn.startswith("Kconfig"):
                    self._read_kconfig(os.path.join(dirpath, fn),
                                       frozenset())

    def _read_kconfig(self, path, outer, depth=0):
        """Reads one Kconfig file: each option's type, where it is
        defined, what it needs on ("depends on", the enclosing "if",
        "menu" and "choice" blocks, outer: the blocks the file is sourced
        under) and what it selects. Help texts are skipped. Each file is
        read once, whatever path names it: "a/../b/../a/Kconfig" or a
        link is the same file (its device and inode), else two files that each rsource both
        would be read 2^depth times."""
        try:
            st = os.stat(path)
            real = (st.st_dev, st.st_ino)
        except OSError:
            return
        if real in self._read or depth > 32:
            return
        self._read.add(real)
        sym = None
        blocks = []             # [kind, {symbols}] of open if/menu/choice
        help_indent = -1        # in a help text: its indentation (0: unknown)
        for n, line in enumerate(logical_lines(path)):
            if help_indent >= 0:
                if not line.strip():
                    continue
                indent = len(line.expandtabs(8)) - len(
                    line.expandtabs(8).lstrip())
                if help_indent == 0 and indent > 0:
                    help_indent = indent
                if help_indent and indent >= help_indent:
                    continue
                help_indent = -1
            w = line.split()
            if not w:
                continue
            head = w[0]
            inherited = set(outer).union(*(b[1] for b in blocks))
            if head in ("config", "menuconfig") and len(w) > 1:
                sym = "CONFIG_" + w[1]
                self.defined_in.setdefault(sym, set()).add(
                    os.path.normpath(path))
                self.depends.setdefault(sym, set()).update(inherited)
                self.inherited.setdefault(sym, []).append(
                    (frozenset(inherited), os.path.normpath(path)))
                if blocks and blocks[-1][0] == "choice":
                    self.choice_of[sym] = blocks[-1][2]
            elif head in ("help", "---help---"):
                help_indent = 0
            elif head in ("if", "menu", "choice"):
                deps = positive_symbols(" ".join(w[1:])) \
                    if head == "if" else set()
                blocks.append([head, deps, len(self.choice_default)])
                if head == "choice":
                    self.choice_default[blocks[-1][2]] = None
                sym = None
            elif head in ("endif", "endmenu", "endchoice"):
                kind = head[3:]
                while blocks:
                    if blocks.pop()[0] == kind:
                        break
                sym = None
            elif head in ("source", "rsource", "osource", "orsource"):
                sym = None
                if len(w) > 1:
                    self.sources.setdefault(os.path.normpath(path), []).append(
                        (head, w[1].strip('"'), n))
                if len(w) > 1 and "$" not in w[1]:
                    rel = w[1].strip('"')
                    base = os.path.dirname(path) if head.startswith(
                        ("rsource", "orsource")) else (self.tree or "")
                    self._read_kconfig(os.path.join(base, rel),
                                       frozenset(inherited), depth + 1)
            elif head == "comment" or head == "mainmenu":
                sym = None
            elif not sym and head == "default" and len(w) > 1 and \
                    blocks and blocks[-1][0] == "choice" and \
                    self.choice_default[blocks[-1][2]] is None:
                # the first default: what a fresh configuration picks
                # where the first one's condition holds
                self.choice_default[blocks[-1][2]] = "CONFIG_" + w[1]
            elif w[:2] == ["depends", "on"]:
                deps = positive_symbols(" ".join(w[2:]))
                if sym:
                    self.depends.setdefault(sym, set()).update(deps)
                    self.dep_exprs.setdefault(sym, []).append(
                        (" ".join(w[2:]), path))
                elif blocks and blocks[-1][0] in ("menu", "choice"):
                    blocks[-1][1].update(deps)
            elif sym and head == "select" and len(w) > 1:
                self.selects.setdefault(sym, set()).add("CONFIG_" + w[1])
                self.select_lines.setdefault(sym, []).append(
                    ("CONFIG_" + w[1], w[2:3] == ["if"],
                     os.path.normpath(path)))
                self.selected_if.setdefault("CONFIG_" + w[1], []).append(
                    (sym, " ".join(w[3:]) if w[2:3] == ["if"] else "", path))
            elif sym and head in ("int", "hex", "string"):
                self.valued.add(sym)
                if head != "string":
                    self._numeric.add(sym)
            elif sym and head == "default" and sym in self.valued and \
                    sym not in self.defaults and len(w) == 2 and \
                    re.fullmatch(r'-?\d+|0x[0-9a-fA-F]+|"[^"\\]*"', w[1]):
                # autoconf.h writes int and hex values bare, whatever the
                # quoting in Kconfig ('default "128"')
                v = w[1]
                if sym in self._numeric and re.fullmatch(
                        r'"(-?\d+|0x[0-9a-fA-F]+)"', v):
                    v = v[1:-1]
                if not (sym in self._numeric and v.startswith('"')):
                    self.defaults[sym] = v
            elif sym and head in ("tristate", "def_tristate"):
                self.tristate.add(sym)
            elif sym and head in ("bool", "def_bool"):
                self.bool.add(sym)
            elif sym and head == "imply" and len(w) > 1:
                self.implied.add("CONFIG_" + w[1])
            if sym and (head == "prompt" or head in (
                    "bool", "tristate", "int", "hex", "string") and
                        len(w) > 1 and w[1][:1] in ('"', "'")):
                self.prompted.add(sym)
                self.prompted_in.setdefault(sym, set()).add(
                    os.path.normpath(path))
                if not re.search(r"[\"']\s+if\s", line):
                    self.free_prompt.add(sym)
            if sym and head in ("default", "def_bool", "def_tristate") and \
                    len(w) > 1:
                rest = " ".join(w[1:])
                value, _, cond = rest.partition(" if ")
                self.default_exprs.setdefault(sym, []).append(
                    (value.strip(), cond.strip(), os.path.normpath(path), n,
                     frozenset(inherited)))
            if sym and head in ("bool", "tristate", "int", "hex", "string",
                                "def_bool", "def_tristate"):
                self.types.setdefault(sym, head.replace("def_", ""))
                self.typed_in.setdefault(sym, {}).setdefault(
                    os.path.normpath(path), head.replace("def_", ""))

    def add_local(self, directory):
        """Reads the Kconfig files of an out-of-tree directory, once."""
        if directory in self._local:
            return
        self._local.add(directory)
        try:
            names = sorted(fswalk.listdir(directory))
        except OSError:
            return
        for fn in names:
            path = os.path.join(directory, fn)
            if fn.startswith("Kconfig") and os.path.isfile(path):
                self._read_kconfig(path, frozenset())
                self._arches, self._selected_by = {}, None
                self._sourced_by = None

    def _members(self):
        # choice number -> members; add_local() may add choices
        if self._members_for != len(self.choice_of):
            self._members_by = {}
            for sym, cid in self.choice_of.items():
                self._members_by.setdefault(cid, []).append(sym)
            self._members_for = len(self.choice_of)
        return self._members_by

    def choice_defaults(self, options, tested=()):
        """("CONFIG_X", "y") for the default member of each choice that
        belongs to the options (its members depend on one of them) or
        that the tested symbols are members of, where KDIR's .config sets
        no member: a configuration always has one member of a visible
        choice on (dwc2's mode, g_dbgp's output), so code that tests
        them is not seen with all of them off."""
        members = self._members()
        wanted = {self.choice_of[t] for t in tested if t in self.choice_of}
        for sym, cid in self.choice_of.items():
            if cid not in wanted and self.depends.get(sym, set()) & \
                    set(options):
                wanted.add(cid)
        out = []
        for cid in sorted(wanted):
            default = self.choice_default.get(cid)
            if default in members[cid] and not any(
                    self.config.get(m) in ("y", "m") for m in members[cid]):
                out.append((default, "y"))
        return out

    def _read_config(self, path):
        try:
            with io.TextIOWrapper(fswalk.open_regular(path),
                                  encoding="utf-8", errors="replace") as f:
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
        self.has_config = bool(self.config)

    def set_config(self, pairs):
        """The configuration is pairs [("CONFIG_X", "y"), ...], made for
        this tree (autoconf.fit()): a symbol it does not set is off."""
        self.config = dict(pairs)
        self.has_config = bool(self.config)
        self.same_kernel = True

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

    def bool_for(self, sym, arch):
        """True when, for a build of arch, sym can only be bool: every
        type its Kconfig files that arch reads (arch/ARCH's and those
        outside arch/) give it is bool. arm64's and powerpc's KVM are
        bool where x86's is tristate, so arch/arm64/kvm is never a
        module."""
        mine = [t for f, t in self.typed_in.get(sym, {}).items()
                if self.file_arch(f) in (None, arch)]
        return bool(self.tree and mine) and "tristate" not in mine

    def file_arch(self, path):
        """ARCH for a Kconfig file under arch/ARCH/, else None."""
        return arch_of(self.tree, path)

    def selects_for(self, sym, arch=None, forced=False):
        """What sym selects (only unconditionally, when forced) in the
        Kconfig files a build of arch reads: x86's KVM selects
        KVM_GENERIC_DIRTYLOG_READ_PROTECT, s390's does not. Without
        arch, every file's but forced selects of architectures' own
        files (ARM64 selects what arm64 needs, not what a driver that
        depends on it does)."""
        return {t for t, cond, f in self.select_lines.get(sym, ())
                if not (forced and cond) and
                (self.file_arch(f) in (None, arch) or
                 not arch and not forced)}

    def settable(self, sym):
        """Some configuration can turn sym on: a prompt, a default, or
        another option's select or imply (SND_SOC_INTEL_SST of 6.12,
        a bare tristate nothing selects any more, never is)."""
        return sym in self.prompted or sym in self.default_exprs or \
            sym in self.selected_if or sym in self.implied

    def arches(self, sym):
        """The arch/ subdirectories whose Kconfig files define sym, when
        only architectures' do, or else whose options select it, when only
        architectures' options do (HAVE_ARM_SMCCC); else an empty set."""
        if sym not in self._arches:
            self._arches[sym] = self._defining_arches(sym)
            if not self._arches[sym]:
                by = self._selectors().get(sym, ())
                if by and all(self.arch_only(b) for b in by):
                    self._arches[sym] = frozenset().union(
                        *(self._defining_arches(b) for b in by))
        return self._arches[sym]

    def source_arches(self, path):
        """The architectures whose own Kconfig files alone bring in the
        Kconfig file path (arch/sparc/Kconfig sources drivers/sbus/char/
        Kconfig, nothing else does), or an empty set: every
        architecture's (the top Kconfig reaches it), or not known."""
        path = os.path.normpath(path)
        if self._sourced_by is None:
            self._sourced_by, self._source_arches = {}, {}
            for parent, lines in self.sources.items():
                for kind, rel, _ in lines:
                    if "$" in rel:
                        continue
                    base = os.path.dirname(parent) if kind.endswith(
                        "rsource") else (self.tree or "")
                    child = os.path.normpath(os.path.join(base, rel))
                    self._sourced_by.setdefault(child, set()).add(parent)
        if path not in self._source_arches:
            self._source_arches[path] = self._walk_sources(path)
        return self._source_arches[path]

    def _walk_sources(self, path):
        arches, seen, todo = set(), set(), [path]
        while todo:
            f = todo.pop()
            if f in seen:
                continue
            seen.add(f)
            a = self.file_arch(f)
            if a:
                arches.add(a)
                continue
            parents = self._sourced_by.get(f)
            if not parents:
                return frozenset()  # the top, or sourced through a macro
            todo += sorted(parents)
        return frozenset(arches)

    def arches_on(self, sym):
        """arches(sym) but those where no configuration turns it on:
        sparc's SBUS has a default, x86's and arm's is a bare bool (each
        architecture that has such drivers' Kconfig defines it)."""
        where = self.arches(sym)
        if where and not self._defining_arches(sym) and (
                sym in self.free_prompt or any(
                    d[0] != "n" for d in self.default_exprs.get(sym, ()))):
            # only architectures select it, but a user can set it
            # anywhere or it has a default (WATCHDOG, which only arm's
            # options select)
            return frozenset()
        if not where or not self._defining_arches(sym) or \
                sym in self.implied or \
                self.types.get(sym) not in ("bool", "tristate"):
            return where
        arch_dir = self._arch_dir
        on = {arch_dir(f) for f in self.prompted_in.get(sym, ())}
        on |= {arch_dir(d[2]) for d in self.default_exprs.get(sym, ())}
        on |= {arch_dir(f) for _, _, f in self.selected_if.get(sym, ())}
        return where if None in on else frozenset(where & on)

    def _arch_dir(self, path):
        """The directory under arch/ a Kconfig file lies in (x86 for
        arch/x86/um/Kconfig), or None."""
        top = os.path.join(self.tree or "", "arch") + os.sep
        path = os.path.normpath(path)
        return os.path.relpath(path, top).split(os.sep, 1)[0] \
            if path.startswith(top) else None

    def _defining_arches(self, sym):
        if not self.arch_only(sym):
            return frozenset()
        return frozenset(self._arch_dir(f) for f in self.defined_in[sym])

    def selectors_need(self, sym):
        """What every option that selects sym depends on (directly or
        through what it depends on), when only a select turns sym on
        (REBOOT_MODE, a bare tristate whose selectors need OF, one
        through MFD_SPMI_PMIC); else an empty set."""
        if sym in self.prompted or sym in self.default_exprs or \
                sym in self.implied:
            return set()
        by = sorted(self._selectors().get(sym, ()))

        def needs(b):
            out = set(self.depends.get(b, ()))
            for d in sorted(out):
                out |= self.depends.get(d, set())
            return out
        return set.intersection(*(needs(b) for b in by)) if by else set()

    def _selectors(self):
        if self._selected_by is None:
            self._selected_by = {}
            for sym, targets in self.selects.items():
                for t in targets:
                    self._selected_by.setdefault(t, set()).add(sym)
        return self._selected_by

    def arch_only(self, sym):
        """True when only architectures' Kconfig files define sym."""
        # arch/Kconfig itself is every architecture's
        arch = os.path.join(self.tree or "", "arch") + os.sep
        files = self.defined_in.get(sym)
        return bool(self.tree and files) and all(
            f.startswith(arch) and os.sep in f[len(arch):] for f in files)


def arch_of(tree, path):
    """ARCH when path lies under tree/arch/ARCH/ (um under
    arch/SUBARCH/um/, which only User-mode Linux builds), else None:
    arch/Kconfig itself is every architecture's."""
    if not tree:
        return None
    rel = os.path.relpath(path, os.path.join(tree, "arch"))
    parts = rel.split(os.sep)
    if len(parts) > 2 and parts[1] == "um":
        return "um"     # arch/x86/um/: User-mode Linux's part for x86
    return parts[0] if len(parts) > 1 and parts[0] != ".." else None


KSYM = re.compile(r"(!?)\s*\(*\s*([A-Za-z0-9_]+)")


def positive_symbols(expr):
    """The symbols of a Kconfig expression that it needs on: not
    negated, not compared ("A != B"), not a constant."""
    expr = re.sub(r'"[^"]*"', " ", expr.split("#", 1)[0])
    if "=" in expr or "<" in expr or ">" in expr:
        expr = re.sub(r"[A-Za-z0-9_]+\s*[!<>=]+\s*[A-Za-z0-9_]+", " ", expr)
    out = set()
    for neg, name in KSYM.findall(expr):
        if not neg and not name.isdigit() and name not in ("y", "m", "n"):
            out.add("CONFIG_" + name)
    return out


def _version(tree):
    """(VERSION, PATCHLEVEL) of a kernel tree's Makefile, or None."""
    v = {}
    try:
        if not os.path.isfile(os.path.join(tree, "Makefile")):
            raise OSError("not a regular file")
        with _open_text(os.path.join(tree, "Makefile")) as f:
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
            with _open_text(os.path.join(tree, "include", "config",
                                         "kernel.release")) as f:
                m = re.match(r"^(\d+)\.(\d+)", f.read())
            if m:
                v = {"VERSION": m.group(1), "PATCHLEVEL": m.group(2)}
        except OSError:
            return None
    return (v.get("VERSION"), v.get("PATCHLEVEL")) if v else None
