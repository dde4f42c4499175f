# SPDX-License-Identifier: GPL-2.0-only
"""The syscall headers an architecture's syscall Makefile makes from its
tables (arch/ARCH/kernel/syscalls/, arch/ARCH/tools/, x86's
entry/syscalls/; since 6.11 for several architectures, the `syscall-y`
of asm/Kbuild), read as data: its variables, target-specific
variables, pattern rules and the command each rule runs are interpreted
here as far as these Makefiles use make; nothing of the tree runs.

Three kinds of command: a unistd header (scripts/syscallhdr.sh, or an
architecture's script with -H), the table for __SYSCALL()
(scripts/syscalltbl.sh) and the number of syscalls (an architecture's
syscallnr.sh, or -N), whose macro name is read from the script."""
import os
import re

from . import fswalk, syscalltbl
from .kconfig import logical_lines

_REF = re.compile(r"\$\(([^()$]*(?:\$\([^()]*\)[^()$]*)*)\)|\$([@<*])")
MAX_SCRIPT = 1 << 16
# a Makefile's whole expansion: the real ones need some hundred
# references and a few KiB; past this budget it makes no header
MAX_REFERENCES = 20000
MAX_CHARS = 1 << 20
MAX_HEADERS = 64


def headers(tree, arch):
    """{path relative to the tree: text} for every syscall header the
    architecture's Makefiles name."""
    out = {}
    base = os.path.join(tree, "arch", arch)
    for dirpath, dirnames, filenames in fswalk.walk(base):
        dirnames.sort()
        if "Makefile" in filenames and os.path.basename(dirpath) in (
                "syscalls", "tools"):
            rel = os.path.relpath(dirpath, tree).replace(os.sep, "/")
            out.update(_Makefile(tree, arch, rel).headers())
    out.update(_asm_headers(tree, arch))
    return out


def _asm_headers(tree, arch):
    """What scripts/Makefile.asm-headers (6.11 on) makes for the
    `syscall-y` lines of an architecture's asm/ and uapi/asm/ Kbuild:
    unistd_N.h, unistd_compat_N.h and syscall_table_N.h from the table
    and the ABIs arch/ARCH/kernel/Makefile.syscalls names, read as data."""
    mk = os.path.join(tree, "scripts", "Makefile.asm-headers")
    if not os.path.isfile(mk):
        return {}
    abis = {}
    table, emit_nr = "scripts/syscall.tbl", True
    for line in logical_lines(os.path.join(tree, "arch", arch, "kernel",
                                           "Makefile.syscalls")):
        m = re.match(r"^\s*syscall_abis_(\w+)\s*\+=\s*(.*)$", line)
        if m:
            abis.setdefault(m.group(1), []).extend(
                m.group(2).replace(",", " ").split())
        m = re.match(r"^\s*syscalltbl\s*:?=\s*(\S+)\s*$", line)
        if m:
            table = m.group(1)
        if re.match(r"^\s*syshdr-args\s*:?=", line):
            emit_nr = "--emit-nr" in line
    out = {}
    for sub, place in (("asm", "asm"), ("uapi/asm", "uapi/asm")):
        kbuild = os.path.join(tree, "arch", arch, "include", sub, "Kbuild")
        for line in logical_lines(kbuild):
            m = re.match(r"^\s*syscall-y\s*[+:]?=\s*(.*)$", line)
            for name in (m.group(1).split() if m else []):
                m2 = re.fullmatch(r"(unistd_compat_|unistd_|syscall_table_)"
                                  r"(\w+)\.h", name)
                if not m2:
                    continue
                kind, n = m2.groups()
                rel = table.replace("$(srctree)/", "").replace("%", n)
                if os.path.isabs(rel) or ".." in rel.split("/"):
                    continue
                rows = syscalltbl.read_table(os.path.join(tree, rel))
                if not rows:
                    continue
                want = {"common", n} | set(abis.get(n, []))
                dest = "arch/%s/include/generated/%s/%s" % (arch, place,
                                                             name)
                if kind == "syscall_table_":
                    out[dest] = syscalltbl.syscalls(rows, want)
                    continue
                out[dest] = syscalltbl.unistd(
                    rows, want, _guard(name),
                    "compat%s_" % n if kind == "unistd_compat_" else "",
                    "", emit_nr)
    return out


def _guard(name):
    """scripts/syscallhdr.sh's include guard for a header's file name."""
    return "_UAPI_ASM_" + re.sub("__", "_", re.sub(r"[^A-Z0-9_]", "_",
                                                   name.upper()))


def _inside(rel):
    rel = os.path.normpath(rel)
    return not (os.path.isabs(rel) or rel == ".." or
                rel.startswith(".." + os.sep))


class _Makefile:
    def __init__(self, tree, arch, rel):
        self.tree, self.arch, self.src = tree, arch, rel
        self.budget = MAX_REFERENCES
        self.chars = MAX_CHARS
        self.tables = {}
        self.var = {"SRCARCH": arch, "ARCH": arch, "src": rel,
                    "srctree": ".", "obj": rel, "CONFIG_SHELL": "sh"}
        self.lazy = {}          # NAME = VALUE: expanded when used
        self.target_var = {}    # {target: {name: value}}
        self.rules = []         # (target pattern, prerequisites, command)
        self.lists = []         # header lists (*-y)
        lines = logical_lines(os.path.join(tree, rel, "Makefile"))
        for i, line in enumerate(lines):
            if line.startswith("\t") or not line.strip():
                continue
            m = re.match(r"^([^:=]+?)\s*:\s*([\w-]+)\s*(:=|\+=|=)\s*(.*)$",
                         line)
            if m:       # TARGET: NAME := VALUE
                for t in self.expand(m.group(1)).split():
                    t = os.path.normpath(t).replace(os.sep, "/")
                    tv = self.target_var.setdefault(t, {})
                    value = m.group(4).strip()
                    if m.group(3) == "+=" and tv.get(m.group(2)):
                        value = tv[m.group(2)] + " " + value
                    tv[m.group(2)] = value
                continue
            m = re.match(r"^\s*([\w$()-]+)\s*(:=|\+=|\?=|=)\s*(.*)$", line)
            if m:
                self._assign(self.expand(m.group(1)), m.group(2),
                             m.group(3).strip())
                continue
            m = re.match(r"^([^:=]+):([^=].*)?$", line)
            if m:
                cmd = None
                for nxt in lines[i + 1:i + 4]:
                    if not nxt.startswith("\t"):
                        break       # the rule's recipe, not the next one's
                    c = re.search(r"\$\(call\s+(if_changed|filechk|cmd)\s*,"
                                  r"\s*([\w-]+)\s*(?:,([^)]*))?\)", nxt)
                    if c:
                        cmd = (c.group(1), c.group(2), c.group(3) or "")
                        break
                if cmd:
                    for t in self.expand(m.group(1)).split():
                        self.rules.append((t, (m.group(2) or "").split(),
                                           cmd))

    def _assign(self, name, op, value):
        if op == "=":
            self.lazy[name] = value
            self.var.pop(name, None)
            return
        if op == "?=" and (name in self.var or name in self.lazy):
            return
        value = self.expand(value)
        if op == "+=":
            old = self.var.get(name, self.expand(self.lazy.get(name, "")))
            value = (old + " " + value).strip()
        self.var[name] = value
        self.lazy.pop(name, None)
        if name.endswith("-y"):
            self.lists.append(name)

    def expand(self, text, env=None, depth=0):
        """make's expansion of the references these Makefiles use."""
        if depth > 8 or "$" not in text:
            return text
        env = env or {}

        def one(m):
            self.budget -= 1
            if self.budget < 0:
                return ""       # a variable made to explode: see headers()
            if m.group(2):
                return env.get(m.group(2), "")
            ref = m.group(1)
            fn = re.match(r"^(addprefix|addsuffix|if|subst|filter-out)"
                          r"\s+(.*)$", ref, re.S)
            if fn:
                return self._function(fn.group(1), fn.group(2), env, depth)
            name = self.expand(ref, env, depth + 1).strip()
            if name.startswith("CONFIG_"):
                return "y"      # every header a configuration may need
            if name in env:
                return env[name]
            if name in self.var:
                return self.var[name]
            return self.expand(self.lazy.get(name, ""), env, depth + 1)
        prev = None
        while prev != text and depth <= 8:
            prev, text = text, _REF.sub(one, text)
            depth += 1
            self.chars -= len(text)
            if self.chars < 0 or self.budget < 0:
                self.budget = -1
                return ""
        return text

    @staticmethod
    def _split_args(args):
        """A function's arguments: split at commas outside $(...)."""
        out, level, cur = [], 0, ""
        for ch in args:
            if ch == "," and level == 0:
                out.append(cur)
                cur = ""
                continue
            level += (ch == "(") - (ch == ")")
            cur += ch
        return out + [cur]

    def _function(self, fn, args, env, depth):
        parts = [self.expand(a, env, depth + 1)
                 for a in self._split_args(args)]
        if self.budget < 0:
            return ""
        if fn in ("addprefix", "addsuffix") and len(parts) == 2:
            words = parts[1].split()
            if len(parts[0]) * len(words) > self.chars:
                self.budget = -1
                return ""
            if fn == "addprefix":
                return " ".join(parts[0].strip() + w for w in words)
            return " ".join(w + parts[0].strip() for w in words)
        if fn == "if":
            cond = parts[0].strip()
            return parts[1] if cond and len(parts) > 1 else \
                (parts[2] if not cond and len(parts) > 2 else "")
        if fn == "subst" and len(parts) == 3:
            if not parts[0]:
                return parts[2]
            grow = parts[2].count(parts[0]) * len(parts[1])
            if grow > self.chars:
                self.budget = -1
                return ""
            return parts[2].replace(parts[0], parts[1])
        if fn == "filter-out" and len(parts) == 2:
            drop = set(parts[0].split())
            return " ".join(w for w in parts[1].split() if w not in drop)
        return ""

    def headers(self):
        """The headers the lists name, each under the architecture's
        generated directories; none when the Makefile exhausted its
        budget (a value truncated would make a wrong header)."""
        out = {}
        wanted = []
        place = "arch/%s/include/generated/" % self.arch
        for name in self.lists:
            for w in self.var.get(name, "").split():
                path = os.path.normpath(w).replace(os.sep, "/")
                if path.endswith(".h") and path.startswith(place) and \
                        _inside(path) and path not in wanted:
                    wanted.append(path)
        for path in wanted[:MAX_HEADERS]:
            text = self._make(path)
            if self.budget < 0:
                return {}
            if text is not None:
                out[path] = text
        return out

    def _rule(self, path):
        for target, prereqs, cmd in self.rules:
            target = os.path.normpath(target).replace(os.sep, "/")
            if "%" not in target:
                if target == path:
                    return target, "", prereqs, cmd
                continue
            head, tail = target.split("%", 1)
            if path.startswith(head) and path.endswith(tail) and \
                    len(path) > len(head) + len(tail):
                return target, path[len(head):len(path) - len(tail)], \
                    prereqs, cmd
        return None

    def _make(self, path):
        found = self._rule(path)
        if not found:
            return None
        _, stem, prereqs, (call, name, arg) = found
        base = os.path.basename(path)[:-2]
        env = {"*": stem, "basetarget": base, "@": path, "2": arg.strip()}
        env.update(self.target_var.get(path, {}))
        for k, v in list(env.items()):
            env[k] = self.expand(v, env)
        table = None
        for p in prereqs:
            p = self.expand(p, env).replace("%", stem)
            if p.endswith(".tbl"):
                table = os.path.normpath(p)
                break
        if not table or not _inside(table):
            return None
        env["<"] = table
        raw = self.lazy.get(("cmd_" if call != "filechk" else "filechk_")
                            + name) or self.var.get(
            ("cmd_" if call != "filechk" else "filechk_") + name, "")
        script_var = None
        for ref in re.findall(r"\$\((\w+)\)", raw):
            if ref in ("syshdr", "systbl", "sysnr"):
                script_var = ref
                break
        if not script_var:
            return None
        script = os.path.normpath(self.expand("$(%s)" % script_var, env))
        words = [os.path.normpath(w) if "/" in w else w for w in (
            w.strip("'\"") for w in self.expand(raw, env).split())]
        if table not in self.tables:
            self.tables[table] = syscalltbl.read_table(
                os.path.join(self.tree, table))
        rows = self.tables[table]
        if not rows:
            return None
        args = self._args(words)
        abis = set(args["abis"].split(",")) if args.get("abis") \
            else set(r[1] for r in rows)
        script_text = self._script(script)
        if "-N" in words or script_var == "sysnr":
            return self._count(base, rows, words, script, script_text, abis)
        unistd = script_var == "syshdr" or "-H" in words
        if not unistd and script_var == "systbl" and \
                not script.startswith("scripts" + os.sep):
            return None     # s390's SYSCALL() table: no module needs it
        if not unistd:
            return syscalltbl.syscalls(rows, abis)
        return syscalltbl.unistd(rows, abis, _guard(os.path.basename(path)),
                                 args.get("prefix", ""),
                                 args.get("offset", ""),
                                 "--emit-nr" in words)

    @staticmethod
    def _args(words):
        out = {}
        for i, w in enumerate(words[:-1]):
            if w in ("--abis", "-a"):
                out["abis"] = words[i + 1]
            elif w == "--offset":
                out["offset"] = words[i + 1]
            elif w == "--prefix":
                out["prefix"] = words[i + 1]
        return out

    def _script(self, rel):
        if not _inside(rel):
            return ""
        try:
            with fswalk.open_regular(os.path.join(self.tree, rel)) as f:
                return f.read(MAX_SCRIPT).decode("utf-8", "replace")
        except OSError:
            return ""

    def _count(self, base, rows, words, script, text, abis):
        """The number-of-syscalls header: the macro the script defines
        (__NR_syscalls, NR_syscalls, mips' __NR_<ABI>_Linux_syscalls)."""
        m = re.search(r"#define\s+(\w*?)(%s)?(_Linux_syscalls|syscalls)\b",
                      text)
        if not m:
            return None
        macro = m.group(1) + m.group(3)
        if m.group(2):
            # the script's positional arguments: in, out, abis, prefix
            pos = words[words.index(script) + 1:] if script in words else []
            if len(pos) < 4 or not re.fullmatch(r"\w+", pos[3]):
                return None
            if pos[2]:
                abis = set(pos[2].split(","))
            macro = m.group(1) + pos[3] + m.group(3)
        nrs = [r[0] for r in rows if r[1] in abis]
        n = max(nrs) + 1 if nrs else 0
        if re.search(r"\balign=1\b", text) and "256" in text:
            # arm: rounded up to a multiple of 4 past 256 entries
            align = 1
            while n // (256 * align) > 0:
                align *= 4
            n = (n + align - 1) & ~(align - 1)
        guard = "_MODLIFE_%s_H" % re.sub(r"\W", "_", base).upper()
        return "#ifndef %s\n#define %s\n#define %s %d\n#endif\n" % (
            guard, guard, macro, n)
