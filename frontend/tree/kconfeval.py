# SPDX-License-Identifier: GPL-2.0-only
"""The values kconfig would give the options a configuration does not
set, as "make olddefconfig" gives them: an option whose dependencies
hold takes its first default whose condition holds, a selected one is
on, a choice's default member is on when no member is. Expressions are
evaluated as kconfig does (y = 2, m = 1, n = 0; && is the minimum,
|| the maximum, ! is 2 - x); the Kconfig files are data (kconfig.py
read them), nothing of the tree runs."""
import collections
import os
import re

from . import archnames

TOKEN = re.compile(r'\s*(&&|\|\||!=|<=|>=|[()!=<>]|"[^"]*"|[\w.-]+)')
MAX_ROUNDS = 8


def _tokens(expr):
    out, pos = [], 0
    expr = expr.strip()
    while pos < len(expr):
        m = TOKEN.match(expr, pos)
        if not m:
            return None
        out.append(m.group(1))
        pos = m.end()
    return out


class _Eval:
    def __init__(self, values):
        self.values = values
        self.files = set()
        self.types = {}
        self.pending = set()

    def word(self, w):
        """The string value of a word (a symbol, y/m/n, a literal)."""
        if w.startswith('"'):
            return w[1:-1]
        if w in ("y", "m", "n") or re.fullmatch(r"-?\d+|0x[0-9a-fA-F]+", w):
            return w
        v = self.values.get("CONFIG_" + w)
        if v is None:
            # an unset string is empty
            return "" if self.types.get("CONFIG_" + w) == "string" else "n"
        return v[1:-1] if v.startswith('"') else v

    @staticmethod
    def tri(v):
        return {"y": 2, "m": 1}.get(v, 0)

    def run(self, expr):
        toks = _tokens(expr)
        if not toks:
            return 2 if toks == [] else 0
        self.toks, self.i = toks, 0
        try:
            v = self.or_()
        except IndexError:
            return 0
        return v if self.i == len(self.toks) else 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def _joined(self, op, operand, combine):
        """operand (op operand)*, folded with combine (tristate logic:
        || is the maximum, && the minimum)."""
        v = operand()
        while self.peek() == op:
            self.i += 1
            v = combine(v, operand())
        return v

    def or_(self):
        return self._joined("||", self.and_, max)

    def and_(self):
        return self._joined("&&", self.not_, min)

    def not_(self):
        if self.peek() == "!":
            self.i += 1
            return self.negate(self.not_())
        if self.peek() == "(":
            self.i += 1
            v = self.or_()
            if self.peek() == ")":
                self.i += 1
            return v
        a, op, b = self.toks[self.i], None, None
        self.i += 1
        if self.peek() in ("=", "!=", "<", ">", "<=", ">="):
            op, b = self.peek(), self.toks[self.i + 1]
            self.i += 2
        return self.atom(a, op, b)

    @staticmethod
    def negate(v):
        return 2 - v

    def atom(self, a, op=None, b=None):
        """The value of a word, or of a comparison of two."""
        if op:
            return 2 if _compare(self.word(a), op, self.word(b)) else 0
        return self.tri(self.word(a))


def _compare(a, op, b):
    try:
        x, y = int(a, 0), int(b, 0)
    except ValueError:
        x, y = a, b
    return {"=": x == y, "!=": x != y, "<": x < y, ">": x > y,
            "<=": x <= y, ">=": x >= y}[op]


def reachable(kconfig, arch):
    """The Kconfig files kconfig reads for arch, from the top Kconfig
    following "source" lines ($(SRCARCH) is arch): {path: the lines of
    the source lines that lead to it}, which order the definitions as
    kconfig reads them (an option defined twice takes the first default
    read: arch/Kconfig sources the architecture's Kconfig at its top)."""
    tree = kconfig.tree
    src = archnames.srcarch(arch)
    seen, stack = {}, [(os.path.join(tree, "Kconfig"), ())]
    while stack:
        path, chain = stack.pop()
        path = os.path.normpath(path)
        if path in seen:
            continue
        seen[path] = chain
        more = []
        for kind, rel, n in kconfig.sources.get(path, ()):
            rel = rel.replace("$(SRCARCH)", src).replace("$(ARCH)", src)
            if "$" in rel:
                continue
            base = os.path.dirname(path) if kind.endswith("rsource") \
                else tree
            more.append((os.path.join(base, rel), chain + (n,)))
        stack += reversed(more)
    return seen


def complete(kconfig, config, off=(), arch="x86"):
    """config ([(symbol, value)]) with the options of the tree it does
    not set (and off does not name) given the values kconfig would give
    them; only options of the Kconfig files kconfig reads for arch."""
    values = dict(config)
    ev = _Eval(values)
    off = set(off)
    files = reachable(kconfig, arch) if kconfig.tree else set()
    ev.files = files
    ev.types = kconfig.types
    todo = []
    for sym in sorted(kconfig.types):
        if sym in values or sym in off or not (
                kconfig.defined_in.get(sym, set()) & files.keys()):
            continue
        todo.append(sym)
    members = kconfig._members()
    # what this evaluation turned on does not make a choice taken
    ev.pending = set(todo)
    added = {}
    for _ in range(MAX_ROUNDS):
        changed = False
        for sym in todo:
            v = _value(kconfig, ev, sym, members)
            if v != values.get(sym):
                changed = True
                if v is None:
                    values.pop(sym, None)
                    added.pop(sym, None)
                else:
                    values[sym] = added[sym] = v
        if not changed:
            break
    return list(config) + [(s, added[s]) for s in todo if s in added]


def valued_defaults(kconfig, config, on, arch="x86", own_arch=None):
    """{symbol: value} for the int, hex and string options that depend
    on a symbol of on and that config (a mapping {symbol: value}, with
    on's values; not changed) does not set, as kconfig would default
    them there: an option a base configuration cannot have, made
    visible by what a
    file's parse turns on (ColdFire's CLOCK_FREQ under COLDFIRE), and
    the bools their dependencies need that default to y there. An
    option only architectures define is left alone, but one of own_arch
    (the architecture a file under arch/ is parsed as): the native one
    parses under its base configuration, and another's would not be
    there at all (PPC_BOOK3S_32 for an x86 driver)."""
    index = getattr(kconfig, "_valued_by_dep", None)
    if index is None:
        # each valued option under the symbols it depends on, directly
        # or through a bool of its own
        index = {}
        for v, typ in kconfig.types.items():
            if typ not in ("int", "hex", "string"):
                continue
            for d in kconfig.depends.get(v, ()):
                index.setdefault(d, set()).add(v)
                if kconfig.types.get(d) == "bool":
                    for dd in kconfig.depends.get(d, ()):
                        index.setdefault(dd, set()).add(v)
        kconfig._valued_by_dep = index

    def ours(sym):
        return not kconfig.arch_only(sym) or (
            own_arch is not None and kconfig.arches(sym) == {own_arch})
    todo = sorted(v for v in {v for o in on for v in index.get(o, ())}
                  if v not in config and ours(v))
    if not todo:
        return {}
    files = getattr(kconfig, "_reachable", {})
    if arch not in files:
        files[arch] = reachable(kconfig, arch) if kconfig.tree else {}
        kconfig._reachable = files
    out = {}
    ev = _Eval(collections.ChainMap(out, config))
    ev.files, ev.types = files[arch], kconfig.types
    members = kconfig._members()

    def settle(sym, depth):
        # the bools it depends on that default to y where they are
        # visible (PLAT_SAMSUNG under PLAT_S3C24XX under ARCH_S3C24XX)
        for d in sorted(kconfig.depends.get(sym, ())):
            # one the configuration sets, on or off, stays as it is
            if depth > 3 or d in ev.values or not ours(d) or \
                    kconfig.types.get(d) not in ("bool", "tristate"):
                continue
            settle(d, depth + 1)
            v = _value(kconfig, ev, d, members)
            if v:
                out[d] = v
    for sym in todo:
        if not kconfig.defined_in.get(sym, set()) & ev.files.keys():
            continue
        settle(sym, 0)
        v = _value(kconfig, ev, sym, members)
        if v is not None:
            out[sym] = v
    return out


class _AllOn(dict):
    """A configuration with every option on but those it sets."""

    def get(self, key, default=None):
        return dict.get(self, key, "y")


def needs_off(kconfig, sym, other, arch):
    """sym can be on for arch only while other is off, however the rest
    is set: X86_32 ("depends on !64BIT"), SPARC32 ("def_bool !64BIT")."""
    memo = kconfig.__dict__.setdefault("_needs_off", {})
    key = (sym, other, arch)
    if key not in memo:
        files = kconfig.__dict__.setdefault("_reachable", {})
        if arch not in files:
            files[arch] = reachable(kconfig, arch) if kconfig.tree else {}
        members = kconfig._members()

        def on(value):
            ev = _Eval(_AllOn({other: value}))
            ev.files, ev.types = files[arch], kconfig.types
            return _value(kconfig, ev, sym, members) in ("y", "m")
        memo[key] = sym != other and kconfig.types.get(sym) in (
            "bool", "tristate") and on("n") and not on("y")
    return memo[key]


# what a condition can be over all configurations: a bit for true, one
# for false
CAN_TRUE, CAN_FALSE = 1, 2


class _Satisfiable(_Eval):
    """Whether a condition holds in some configuration: each option
    free, but one no configuration can turn on, which is n. Each
    operand is judged alone (A && !A can be true): a condition is
    found unsatisfiable only when it is."""

    def __init__(self, kconfig, busy):
        super().__init__({})
        self.kconfig, self.busy = kconfig, busy

    def run(self, expr):
        toks = _tokens(expr)
        if not toks or "$" in expr:
            return CAN_TRUE | CAN_FALSE     # a macro's or a bad one
        self.toks, self.i = toks, 0
        try:
            v = self.or_()
        except IndexError:
            return CAN_TRUE | CAN_FALSE
        return v if self.i == len(self.toks) else CAN_TRUE | CAN_FALSE

    def or_(self):
        return self._joined("||", self.and_, lambda a, b: (
            (a | b) & CAN_TRUE) | (a & b & CAN_FALSE))

    def and_(self):
        return self._joined("&&", self.not_, lambda a, b: (
            a & b & CAN_TRUE) | ((a | b) & CAN_FALSE))

    def _literal(self, w):
        return w.startswith('"') or w in ("y", "m", "n") or \
            re.fullmatch(r"-?\d+|0x[0-9a-fA-F]+", w) is not None

    @staticmethod
    def negate(v):
        return ((v & CAN_TRUE) << 1) | ((v & CAN_FALSE) >> 1)

    def atom(self, a, op=None, b=None):
        if op:
            if self._literal(a) and self._literal(b):
                return CAN_TRUE if _compare(self.word(a), op, self.word(b)) \
                    else CAN_FALSE
            return CAN_TRUE | CAN_FALSE
        if a in ("y", "m"):
            return CAN_TRUE
        if a == "n":
            return CAN_FALSE
        sym = "CONFIG_" + a
        if self.kconfig.tree and sym not in self.kconfig.defined_in:
            return CAN_FALSE    # no Kconfig file of the tree has it
        if self.kconfig.types.get(sym) in ("bool", "tristate") and \
                not can_be_on(self.kconfig, sym, self.busy):
            return CAN_FALSE
        return CAN_TRUE | CAN_FALSE


def can_be_on(kconfig, sym, _busy=None):
    """Some configuration of some architecture can turn sym on: it has
    a prompt, a default, a select or an imply, and the conditions of one
    of its definitions (its own and its blocks') can hold, or an option
    that can be on selects it. BROKEN (a bare bool) never is, nor what
    needs it ("depends on OLPC && FB && BROKEN") or an option no Kconfig
    file of the tree defines (a driver backported without its MFD
    core's option). A condition with a macro ("$(...)") is taken as one
    that can hold."""
    memo = kconfig.__dict__.setdefault("_can_be_on", {})
    if sym in memo:
        return memo[sym]
    busy = _busy if _busy is not None else set()
    if sym in busy:
        return True         # a loop: assumed, not decided
    if not kconfig.settable(sym):
        memo[sym] = False
        return False
    busy.add(sym)
    ev = _Satisfiable(kconfig, busy)
    ok = False
    # one only a select turns on is on where a selector is
    free = sym in kconfig.prompted or sym in kconfig.default_exprs or \
        sym in kconfig.implied
    for f in sorted(kconfig.defined_in.get(sym, ()) if free else ()):
        if all(ev.run(e) & CAN_TRUE for e, g in kconfig.dep_exprs.get(
                sym, ()) if g == f) and all(
                all(ev.run(o[len("CONFIG_"):]) & CAN_TRUE for o in outer)
                for outer, g in kconfig.inherited.get(sym, ()) if g == f):
            ok = True
            break
    if not ok:
        ok = any(can_be_on(kconfig, x, busy) for x, _, _ in
                 kconfig.selected_if.get(sym, ()))
    busy.discard(sym)
    # what a loop assumed is not kept: decided again from the top
    if _busy is None or not ok:
        memo[sym] = ok
    return ok


def drop_unmet(kconfig, config, keep=(), arch="x86"):
    """config without the bool and tristate options whose dependencies
    fail for arch and that nothing on selects (what kconfig itself does
    to a .config made for another architecture: mm's SPARSEMEM, set in an
    x86 configuration, rests on ARCH_SPARSEMEM_ENABLE, which m68k never
    selects); keep names options left as they are."""
    values = dict(config)
    ev = _Eval(values)
    ev.files = reachable(kconfig, arch) if kconfig.tree else {}
    ev.types = kconfig.types
    keep = set(keep)
    for _ in range(MAX_ROUNDS):
        gone = []
        for sym, v in list(values.items()):
            if sym in keep or v not in ("y", "m") or \
                    kconfig.types.get(sym) not in ("bool", "tristate") or \
                    _deps(kconfig, ev, sym):
                continue
            if _selected(kconfig, ev, sym):
                continue
            gone.append(sym)
        if not gone:
            break
        for sym in gone:
            del values[sym]
    return [(s, v) for s, v in config if s in values]


def needs_built_in(kconfig, config, sym, own):
    """Whether sym's own "depends on" lines hold with the options own
    built in but fail with them as modules: a bool under "depends on
    FOO=y" (the console of a tty driver, SERIAL_8250_CONSOLE), which no
    module build of FOO has, whatever its default or KDIR's .config."""
    # what own depends on is on as far as it can be: only own's being
    # modules may fail the test
    deps = {d for o in own for d in kconfig.depends.get(o, ())
            if d in kconfig.tristate or d in kconfig.bool}

    def holds(v):
        values = dict(config)
        values.update((d, "y") for d in deps)
        values.update((o, v) for o in own)
        ev = _Eval(values)
        ev.types = kconfig.types
        return all(ev.run(e) for e, _ in kconfig.dep_exprs.get(sym, ()))
    return bool(own) and holds("y") and not holds("m")


def _deps(kc, ev, sym):
    return min([ev.run(e) for e, f in kc.dep_exprs.get(sym, ())
                if f in ev.files] +
               # one definition whose enclosing blocks hold will do
               [max([_all(ev, outer) for outer, f in kc.inherited.get(
                   sym, ()) if f in ev.files] or [2])] + [2])


def _selected(kc, ev, sym):
    """How far an option that is on selects sym (0, 1 or 2)."""
    return max([min(ev.tri(ev.word(x[len("CONFIG_"):])),
                    ev.run(c) if c else 2)
                for x, c, f in kc.selected_if.get(sym, ())
                if f in ev.files] + [0])


def _all(ev, syms):
    return min([ev.tri(ev.word(d[len("CONFIG_"):])) for d in syms] + [2])


def _choice_pick(kc, ev, cid, members):
    """The member kconfig turns on in a choice none of whose members
    is on: its default when visible, else its first visible member."""
    ms = members.get(cid, ())
    if any(ev.values.get(m) in ("y", "m") and ev.values.get(m) for m in ms
           if m not in ev.pending):
        return None
    default = kc.choice_default.get(cid)
    if default in ms and _deps(kc, ev, default):
        return default
    return next((m for m in ms if _deps(kc, ev, m)), None)


def _in_order(kc, sym, files):
    """The defaults of sym in kconfig's reading order."""
    return sorted((d for d in kc.default_exprs.get(sym, ()) if d[2] in files),
                  key=lambda d: files[d[2]] + (d[3],))


def _value(kc, ev, sym, members):
    typ = kc.types.get(sym)
    files = ev.files
    deps = _deps(kc, ev, sym)
    if typ in ("bool", "tristate"):
        sel = _selected(kc, ev, sym)
        dflt = 0
        if deps:
            for value, cond, _, _, outer in _in_order(kc, sym, files):
                c = min(ev.run(cond) if cond else 2, _all(ev, outer))
                if c:
                    dflt = min(ev.run(value), c)
                    break
            cid = kc.choice_of.get(sym)
            if cid is not None and _choice_pick(kc, ev, cid, members) == sym:
                dflt = 2
        v = max(sel, min(dflt, deps))
        if typ == "bool" and v:
            v = 2
        return {2: "y", 1: "m"}.get(v)
    if not deps:
        return None
    for value, cond, _, _, outer in _in_order(kc, sym, files):
        if (cond and not ev.run(cond)) or not _all(ev, outer):
            continue
        if value.startswith('"') or re.fullmatch(r"-?\d+|0x[0-9a-fA-F]+",
                                                 value):
            v = value
        else:
            v = ev.values.get("CONFIG_" + value)
            if v is None:
                return None
        if typ in ("int", "hex") and v.startswith('"'):
            v = v[1:-1]
        if typ == "string" and not v.startswith('"'):
            v = '"%s"' % v
        return v
    # a visible string without a default is empty (xe's FORCE_PROBE):
    # kconfig writes it so
    return '""' if typ == "string" and sym in kc.prompted else None
