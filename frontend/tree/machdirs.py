# SPDX-License-Identifier: GPL-2.0-only
"""The include directories an architecture's Makefile adds for the
machine a configuration builds.

A board's or platform's headers are no part of LINUXINCLUDE: arm adds
arch/arm/mach-sa1100/include under ARCH_SA1100 (machdirs-y), mips each
platform's asm/mach-* directory from its Platform file (cflags-y), sh
its mach-* directories (machdir-y), xtensa its variant's and
platform's include/. A file of such a board parses only with them, and
with the board's directory ahead of the generic one it overrides
(mips's asm/mach-generic). arch/ARCH/Makefile and the files it includes
are read here as make would read them under the options a file's
parse turns on: assignments, conditionals, includes and the text
functions these Makefiles use; $(shell) and $(call) give nothing, so
nothing of the tree runs.
"""
import hashlib
import os
import re

from . import fswalk
from .kconfig import logical_lines
from .archnames import srcarch

# what make's expansion may spend per Makefile (references, characters)
MAX_REFS = 50000
MAX_CHARS = 1 << 21
MAX_INCLUDES = 64
# the variables that reach the compiler's command line
FLAG_VARS = ("LINUXINCLUDE", "KBUILD_CPPFLAGS", "KBUILD_CFLAGS", "cflags-y")

_ASSIGN = re.compile(r"^\s*(?:(?:export|override)\s+)?"
                     r"([^\s:=?+!]+(?:\$\([^)]*\)[^\s:=?+!]*)*)"
                     r"\s*(:::=|::=|:=|\+=|\?=|=)\s*(.*)$")
_COND = re.compile(r"^\s*(ifeq|ifneq|ifdef|ifndef)\b\s*(.*)$")


class _Make:
    def __init__(self, tree, arch, on):
        self.tree, self.on = tree, on
        self.vars = {"srctree": tree, "objtree": tree, "ARCH": arch,
                     "SRCARCH": arch, "comma": ",", "empty": "",
                     "space": " "}
        self.lazy = {}
        self.refs, self.chars = MAX_REFS, MAX_CHARS
        self.included = 0
        self.seen = set()

    # expansion
    def expand(self, text, env=None, depth=0):
        if "$" not in text or depth > 12 or self.refs <= 0:
            return text if "$" not in text else ""
        out, i, n = [], 0, len(text)
        while i < n:
            c = text[i]
            if c != "$" or i + 1 >= n:
                out.append(c)
                i += 1
                continue
            nxt = text[i + 1]
            if nxt == "$":
                out.append("$")
                i += 2
                continue
            if nxt not in "({":
                out.append(self._var(nxt, env, depth))
                i += 2
                continue
            close = ")" if nxt == "(" else "}"
            level, j = 1, i + 2
            while j < n and level:
                if text[j] == nxt:
                    level += 1
                elif text[j] == close:
                    level -= 1
                j += 1
            if level:
                break       # unbalanced: make would stop here too
            out.append(self._ref(text[i + 2:j - 1], env, depth))
            i = j
            self.chars -= len(out[-1])
            if self.chars < 0:
                self.refs = 0
                return ""
        return "".join(out)

    def _var(self, name, env, depth):
        self.refs -= 1
        if self.refs <= 0:
            return ""
        if env and name in env:
            return env[name]
        if name.startswith("CONFIG_"):
            return self.on.get(name, "")
        if name in self.vars:
            return self.vars[name]
        if name in self.lazy:
            return self.expand(self.lazy[name], env, depth + 1)
        return ""

    def _ref(self, body, env, depth):
        m = re.match(r"^([a-z-]+)[ \t]+(.*)$", body, re.S)
        if m and m.group(1) in _FUNCS:
            return _FUNCS[m.group(1)](self, _split(m.group(2)), env, depth)
        if ":" in body and "=" in body:
            # a substitution reference, $(var:a=b)
            name, pat = body.split(":", 1)
            a, _, b = pat.partition("=")
            words = self.expand("$(%s)" % name, env, depth + 1).split()
            return " ".join(_pat(a if "%" in a else "%" + a,
                                 b if "%" in b else "%" + b, w)
                            for w in words)
        return self._var(self.expand(body, env, depth + 1).strip(), env,
                         depth)

    # statements
    def assign(self, name, op, value):
        if op == "?=" and (name in self.vars or name in self.lazy):
            return
        if op == "=":
            self.lazy[name] = value
            self.vars.pop(name, None)
            return
        value = self.expand(value)
        if op == "+=":
            if name in self.lazy:
                self.lazy[name] += " " + value
                return
            value = (self.vars.get(name, "") + " " + value).strip()
        self.vars[name] = value
        self.lazy.pop(name, None)

    def condition(self, kw, arg):
        if kw in ("ifdef", "ifndef"):
            name = self.expand(arg).strip()
            v = bool(self._var(name, None, 0).strip())
            return v if kw == "ifdef" else not v
        arg = arg.strip()
        if arg.startswith("("):
            inner = arg[1:arg.rfind(")")] if ")" in arg else arg[1:]
            parts = _split(inner)
            if len(parts) != 2:
                return False
            a, b = parts
        else:
            m = re.match(r"""^(["'])(.*?)\1\s+(["'])(.*?)\3\s*$""", arg)
            if not m:
                return False
            a, b = m.group(2), m.group(4)
        same = self.expand(a).strip() == self.expand(b).strip()
        return same if kw == "ifeq" else not same

    def read(self, path, depth=0):
        real = os.path.realpath(path)
        if depth > 4 or real in self.seen or self.included >= MAX_INCLUDES \
                or not real.startswith(os.path.realpath(self.tree) + os.sep):
            return
        self.seen.add(real)
        self.included += 1
        stack = []      # per conditional: [live, a branch was taken]
        for line in logical_lines(path):
            if line.startswith("\t") or not line.strip():
                continue
            s = line.strip()
            word = s.split(None, 1)[0]
            if word == "define":
                stack.append([False, True])     # a macro body: not read
                continue
            if word == "endef":
                if stack:
                    stack.pop()
                continue
            c = _COND.match(s)
            if c:
                live = all(t[0] for t in stack)
                v = live and self.condition(c.group(1), c.group(2))
                stack.append([v, v])
                continue
            if word == "else" and stack:
                top = stack[-1]
                rest = _COND.match(s[4:].strip())
                v = not top[1] and (self.condition(rest.group(1),
                                                   rest.group(2))
                                    if rest else True)
                v = v and all(t[0] for t in stack[:-1])
                top[0] = v
                top[1] = top[1] or v
                continue
            if word == "endif":
                if stack:
                    stack.pop()
                continue
            if not all(t[0] for t in stack):
                continue
            if word in ("include", "-include", "sinclude"):
                for inc in self.expand(s.split(None, 1)[1]).split()[:16]:
                    if not os.path.isabs(inc):
                        inc = os.path.join(self.tree, inc)
                    if os.path.isfile(inc):
                        self.read(inc, depth + 1)
                continue
            m = _ASSIGN.match(line)
            if m and not re.match(r"^[^=]*[^:=]:[^=]", line.split("=")[0]
                                  + "="):
                self.assign(self.expand(m.group(1)).strip(), m.group(2)
                            .replace(":::=", ":=").replace("::=", ":="),
                            m.group(3).strip())


def _split(args):
    """A function's arguments: split at commas outside parentheses."""
    out, level, cur = [], 0, []
    for ch in args:
        if ch == "," and level == 0:
            out.append("".join(cur))
            cur = []
            continue
        level += (ch in "({") - (ch in ")}")
        cur.append(ch)
    return out + ["".join(cur)]


def _pat(pattern, replacement, word):
    head, pct, tail = pattern.partition("%")
    if not pct:
        return replacement if word == pattern else word
    if word.startswith(head) and word.endswith(tail) and \
            len(word) >= len(head) + len(tail):
        stem = word[len(head):len(word) - len(tail)]
        return replacement.replace("%", stem, 1)
    return word


def _args(mk, a, env, depth):
    return [mk.expand(x, env, depth + 1) for x in a]


def _patsubst(mk, a, env, depth):
    if len(a) != 3:
        return ""
    p, r, text = _args(mk, a, env, depth)
    return " ".join(_pat(p.strip(), r.strip(), w) for w in text.split())


def _foreach(mk, a, env, depth):
    if len(a) != 3:
        return ""
    name = mk.expand(a[0], env, depth + 1).strip()
    out = []
    for w in mk.expand(a[1], env, depth + 1).split():
        out.append(mk.expand(a[2], dict(env or {}, **{name: w}),
                             depth + 1).strip())
        if mk.refs <= 0:
            return ""
    return " ".join(x for x in out if x)


def _filter(keep):
    def f(mk, a, env, depth):
        if len(a) != 2:
            return ""
        pats, text = _args(mk, a, env, depth)
        pats = pats.split()

        def hit(w):
            return any(_pat(p, "\0", w) == "\0" if "%" in p else w == p
                       for p in pats)
        return " ".join(w for w in text.split() if hit(w) == keep)
    return f


def _fix(prefix):
    def f(mk, a, env, depth):
        if len(a) != 2:
            return ""
        fix, text = _args(mk, a, env, depth)
        fix = fix.strip()
        return " ".join(fix + w if prefix else w + fix
                        for w in text.split())
    return f


def _subst(mk, a, env, depth):
    if len(a) != 3:
        return ""
    a_, b, text = _args(mk, a, env, depth)
    return text.replace(a_, b) if a_ else text


def _if(mk, a, env, depth):
    cond = mk.expand(a[0], env, depth + 1).strip()
    if cond:
        return mk.expand(a[1], env, depth + 1) if len(a) > 1 else ""
    return mk.expand(",".join(a[2:]), env, depth + 1) if len(a) > 2 else ""


def _words(fn):
    def f(mk, a, env, depth):
        return fn(mk.expand(",".join(a), env, depth + 1).split())
    return f


_FUNCS = {
    "patsubst": _patsubst, "foreach": _foreach, "filter": _filter(True),
    "filter-out": _filter(False), "addprefix": _fix(True),
    "addsuffix": _fix(False), "subst": _subst, "if": _if,
    "strip": _words(" ".join), "sort": _words(lambda w: " ".join(
        sorted(set(w)))), "firstword": _words(lambda w: w[0] if w else ""),
    # never run: a compiler probe or a command of the tree
    "shell": lambda *_: "", "call": lambda *_: "",
    "wildcard": lambda *_: "", "error": lambda *_: "",
    "warning": lambda *_: "", "info": lambda *_: "",
}


_VARS = {}
_PRINTS = {}


def fingerprint(tree, arch):
    """What the directories include_dirs() finds depend on besides the
    options, for a cache key: the names, sizes and times of the
    architecture's Makefile, its Kbuild.platforms and the Platform files
    of its subdirectories (what these Makefiles include)."""
    arch = srcarch(arch)
    key = (os.path.abspath(tree), arch)
    if key not in _PRINTS:
        base = os.path.join(key[0], "arch", arch)
        names = ["Makefile", "Kbuild.platforms"]
        try:
            names += sorted(os.path.join(d, "Platform")
                            for d in fswalk.listdir(base)
                            if os.path.isfile(os.path.join(base, d,
                                                           "Platform")))
        except OSError:
            pass
        h = hashlib.sha256()
        for n in names:
            try:
                st = os.stat(os.path.join(base, n))
            except OSError:
                continue
            h.update(("%s %d %d\n" % (n, st.st_size, st.st_mtime_ns))
                     .encode("utf-8", "surrogateescape"))
        if len(_PRINTS) > 64:
            _PRINTS.clear()
        _PRINTS[key] = h.hexdigest()[:16]
    return _PRINTS[key]


def variables(tree, arch):
    """The variables arch/ARCH/Makefile defines with no option set
    ({name: value}), which kbuild exports to every directory's Makefile:
    arm's CC_FLAGS_FPU (-mfpu=neon) that arch/arm/lib/'s xor-neon.o
    takes. Kept per tree and architecture for the scan."""
    arch = srcarch(arch)
    key = (os.path.abspath(tree), arch)
    if key not in _VARS:
        mk = _Make(key[0], arch, {})
        mk.read(os.path.join(key[0], "arch", arch, "Makefile"))
        out = {}
        if mk.refs > 0:
            out = dict(mk.vars)
            for name, value in mk.lazy.items():
                out[name] = mk.expand(value)
            if mk.refs <= 0:
                out = {}
        if len(_VARS) > 64:
            _VARS.clear()
        _VARS[key] = out
    return _VARS[key]


def include_dirs(tree, arch, on):
    """The directories under arch/ARCH/ that the architecture's Makefile
    puts on the compiler's include path with the options on ({"CONFIG_X":
    "y"}) set, in its order."""
    arch = srcarch(arch)
    tree = os.path.abspath(tree)
    mk = _Make(tree, arch, on)
    mk.read(os.path.join(tree, "arch", arch, "Makefile"))
    if mk.refs <= 0:
        return []
    base = os.path.realpath(os.path.join(tree, "arch", arch)) + os.sep
    out = []
    for var in FLAG_VARS:
        words = mk.expand("$(%s)" % var).split()
        for i, w in enumerate(words):
            if w == "-I" and i + 1 < len(words):
                d = words[i + 1]
            elif w.startswith("-I") and len(w) > 2:
                d = w[2:]
            else:
                continue
            d = os.path.normpath(os.path.join(tree, d))
            if os.path.realpath(d).startswith(base) and os.path.isdir(d) \
                    and d not in out:
                out.append(d)
    return out


def configuration(kconfig, base, options):
    """The options a file's parse turns on ((sym, value) pairs) over
    base, the configuration the scan parses the architecture under, but
    for the members of a choice the file picks another member of (mips's
    CAVIUM_OCTEON_SOC, not MIPS_MALTA); string values as auto.conf has
    them, unquoted."""
    picked = {kconfig.choice_of.get(s) for s, v in options
              if v in ("y", "m")} - {None}
    on = {}
    for sym, v in list(base) + list(options):
        if v == "n" or kconfig.choice_of.get(sym) in picked and \
                (sym, v) not in options:
            on.pop(sym, None)
            continue
        if len(v) >= 2 and v[0] == v[-1] == '"':
            v = v[1:-1]
        on[sym] = v
    return on
