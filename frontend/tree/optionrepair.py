# SPDX-License-Identifier: GPL-2.0-only
"""Options a failed parse wants: a file is module code when some
configuration builds it, and a name it uses may exist only in some (a
board's register in <mach/highlander.h>, struct map_info's read() under
CONFIG_MTD_COMPLEX_MAPPINGS, the SoC an #error asks for). From the
checker's error, the header that defines the name (among those the
parse could include) or the #error's own file gives the options of the
conditional block around it; the scan parses again with them on.

Headers are read as text, never run; only #if/#ifdef/#elif/#else/
#endif lines and the one definition looked for are interpreted."""
import os
import re
import threading

from . import fswalk, includes

LOCATION = re.compile(r"^(?:(.+?):)?(\d+):(\d+): error: (.*)")
UNDEFINED = re.compile(r"^undefined identifier '(\w+)'")
# sparse's error at the declarator after a type name it does not know
UNKNOWN_TYPE = re.compile(r"^[Ee]xpected ; at end of declaration")
# what may stand between a type name and the declarator
QUALIFIERS = re.compile(r"^(?:const|volatile|restrict|__\w+)$")
TABSTOP = 8     # sparse's columns count a tab to the next multiple
NO_MEMBER = re.compile(r"^no member '(\w+)' in (?:struct|union) (\w+)")
DIRECTIVE = re.compile(rb"^\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)")
# CONFIG_X in a condition, and whether a "!" negates it
SYMBOL = re.compile(r"(!\s*)?(?:(?:defined|IS_ENABLED|IS_BUILTIN|"
                    r"IS_REACHABLE)\s*\(?\s*)?\b(CONFIG_\w+)")
MAX_HEADER = 4 << 20
MAX_FILES = 40000
MAX_DIRS = 20000


def _positive(cond):
    """The CONFIG_ symbols a condition wants on (not those it negates;
    an "||" of several: the first)."""
    out = []
    for neg, sym in SYMBOL.findall(cond):
        if not neg:
            out.append(sym)
        if "||" in cond and out:
            break
    return out


def _blocks(lines):
    """(line number, line stripped on the left, the blocks around it)
    for each line of lines (bytes) that is no #if/#ifdef/#ifndef/#elif/
    #else/#endif, the blocks innermost last, each as (symbols of the
    branch the line is in, symbols of the block's first branch, whether
    the line is in a later branch). The list is the walk's own: copy
    what is kept."""
    stack = []
    for n, line in enumerate(lines, 1):
        bare = line.lstrip()
        m = DIRECTIVE.match(bare) if bare[:1] == b"#" else None
        if not m:
            yield n, bare, stack
            continue
        kind = m.group(1).decode()
        cond = m.group(2).decode("utf-8", "replace").split("/*")[0]
        if kind in ("if", "ifdef", "ifndef"):
            syms = [] if kind == "ifndef" else _positive(
                "defined(%s)" % cond.strip() if kind == "ifdef" else cond)
            stack.append((syms, syms, False))
        elif kind in ("elif", "else") and stack:
            stack[-1] = (_positive(cond) if kind == "elif" else [],
                         stack[-1][1], True)
        elif kind == "endif" and stack:
            stack.pop()


def conditions(lines, target):
    """The blocks around line target (1-based) of lines, as _blocks()
    gives them, or None (a directive, or no such line)."""
    for n, _, stack in _blocks(lines):
        if n == target:
            return list(stack)
    return None


def _read_lines(path):
    try:
        with fswalk.open_regular(path, noted=False) as f:
            data = f.read(MAX_HEADER + 1)
    except OSError:
        return None
    if len(data) > MAX_HEADER:
        return None
    return data.split(b"\n")


DEFINE = re.compile(rb"^\s*#\s*define\s+(\w+)")
OPENS = re.compile(rb"^\s*(?:typedef\s+)?(?:struct|union)\s+(\w+)\s*\{")
# a function declared or defined at file scope (a type, then the name
# and its parameters' parenthesis), or an extern variable; a type named
# by typedef (of a function pointer, of anything else, or after a
# struct's body)
FUNCTION = re.compile(rb"^[A-Za-z_][\w \t*]*?[ \t*](\w+)\s*\(")
TYPEDEF_FN = re.compile(rb"^typedef\b[^;]*?\(\s*\*\s*(\w+)\s*\)")
TYPEDEF = re.compile(rb"^typedef\b[^;{}()]*?\b(\w+)\s*(?:\[[^\]]*\]\s*)?;")
TYPEDEF_END = re.compile(rb"^\}\s*(\w+)\s*;")
EXTERN = re.compile(rb"^extern\s[\w \t*]*?[ \t*](\w+)\s*(?:\[[^\]]*\]\s*)?;")
NOT_TYPES = (b"return", b"if", b"while", b"for", b"switch", b"do", b"else",
             b"case", b"goto", b"sizeof")
WORD = re.compile(rb"\w+")

_indexes = {}
_indexes_lock = threading.Lock()
_building = {}      # a directory being indexed -> the lock its maker holds


def _uncommented(line, inside):
    """(line without its comments, whether a /* comment goes on after
    it), the line starting inside one when inside."""
    out, pos = [], 0
    while pos < len(line):
        if inside:
            end = line.find(b"*/", pos)
            if end < 0:
                return b"".join(out), True
            inside, pos = False, end + 2
            continue
        start = line.find(b"/*", pos)
        cut = line.find(b"//", pos)
        if cut >= 0 and (start < 0 or cut < start):
            out.append(line[pos:cut])
            break
        if start < 0:
            out.append(line[pos:])
            break
        out.append(line[pos:start] + b" ")
        inside, pos = True, start + 2
    return b"".join(out), inside


def _index_file(path, defines, members):
    """Adds the definitions of path that only some configurations have:
    macros, functions and extern variables, and members of a struct or
    union, each with the options of the blocks around it."""
    lines = _read_lines(path)
    # no option: nothing only some configurations have
    if lines is None or not any(b"CONFIG_" in ln for ln in lines):
        return
    # depth: within a struct; outer: the braces of file scope's bodies;
    # macro: the line goes on a directive (a macro's body); named: the
    # struct is a typedef's, its name after the body
    struct, depth, outer, macro, comment = None, 0, 0, False, False
    named = False
    # a member's declaration so far: a function pointer's parameters
    # may go on over lines (gpio_chip's of_xlate)
    decl = b""

    def add(name, n, stack):
        defines.setdefault(name.decode(), []).append(
            (path, n, [s for cur, _, _ in stack for s in cur]))
    for n, bare, stack in _blocks(lines):
        if comment or b"/" in bare:
            bare, comment = _uncommented(bare, comment)
            bare = bare.lstrip()
        directive = macro or bare[:1] == b"#"
        macro = directive and bare.rstrip().endswith(b"\\")
        if directive:
            d = DEFINE.match(bare)
            if d and any(cur for cur, _, _ in stack):
                defines.setdefault(d.group(1).decode(), []).append(
                    (path, n, [s for cur, _, _ in stack for s in cur]))
            continue
        if struct is None:
            if bare[:1] in (b"s", b"u", b"t"):
                o = OPENS.match(bare)
                if o:
                    struct, depth = o.group(1).decode(), \
                        bare.count(b"{") - bare.count(b"}")
                    named = bare.startswith(b"typedef")
                    continue
            if outer == 0 and any(cur for cur, _, _ in stack):
                if bare.startswith(b"typedef"):
                    f = TYPEDEF_FN.match(bare) or TYPEDEF.match(bare)
                else:
                    f = FUNCTION.match(bare) or EXTERN.match(bare)
                    if f and bare.split(None, 1)[0] in NOT_TYPES:
                        f = None
                if f:
                    add(f.group(1), n, stack)
            outer = max(0, outer + bare.count(b"{") - bare.count(b"}"))
            continue
        if depth == 1:
            decl += b" " + bare
            if b";" in bare:
                if any(cur for cur, _, _ in stack):
                    syms = [s for cur, _, _ in stack for s in cur]
                    for w in set(WORD.findall(decl)):
                        members.setdefault((struct, w.decode()), []).append(
                            (path, n, syms))
                decl = b""
        else:
            decl = b""
        depth += bare.count(b"{") - bare.count(b"}")
        if depth <= 0:
            t = TYPEDEF_END.match(bare) if named else None
            if t and any(cur for cur, _, _ in stack):
                add(t.group(1), n, stack)
            struct = None


def _index(top):
    """({macro: [(header, line, options)]}, {(struct, member): [...]})
    of the headers under the directory top: made once per process, by
    one thread (the others would make the same), while other threads
    make other directories' (include/ takes seconds)."""
    real = os.path.realpath(top)
    with _indexes_lock:
        if real in _indexes:
            return _indexes[real]
        mine = _building.setdefault(real, threading.Lock())
    with mine:
        with _indexes_lock:
            if real in _indexes:
                return _indexes[real]
        defines, members, n, dirs = {}, {}, 0, 0
        if os.path.isdir(real):
            for d, subdirs, names in fswalk.walk(top):
                dirs += 1
                if dirs > MAX_DIRS:
                    break
                subdirs.sort()
                for name in sorted(names):
                    if name.endswith(".h") and n < MAX_FILES:
                        n += 1
                        _index_file(os.path.join(d, name), defines, members)
        with _indexes_lock:
            _indexes[real] = (defines, members)
            _building.pop(real, None)
        return defines, members


class _Name:
    """A name, as UNDEFINED's match gives it."""

    def __init__(self, name):
        self.name = name

    def group(self, _):
        return self.name


def _type_before(path, line, col):
    """The type name before column col (1-based, tabs to TABSTOP) of
    path's line: the word the declarator follows, past qualifiers
    ("cbd_t __iomem *rx_bd_base"); None when there is none."""
    lines = _read_lines(path)
    if not lines or line > len(lines):
        return None
    text = lines[line - 1].decode("utf-8", "replace").expandtabs(TABSTOP)
    for word in reversed(re.findall(r"[A-Za-z_]\w*", text[:col - 1])):
        if not QUALIFIERS.match(word):
            return _Name(word)
    return None


def options_for(err, path, flags, known, allowed=lambda d: True):
    """The options (CONFIG_X names) a parse of path with flags that
    failed with err wants on, or []: those of the blocks around the
    definition err misses (every block's symbols, the first such
    definition that has some), or of the first branch of the block whose
    later branch holds an #error. known(symbol) says whether an option
    can be turned on (a bool or tristate of the tree); allowed(dir)
    whether an include directory of flags may be read (a Makefile's
    "-I/" is no directory of headers to walk)."""
    m = LOCATION.match(err.split("\n")[0])
    if not m:
        return []
    where, line, text = m.group(1), int(m.group(2)), m.group(4)
    text = re.sub(r" \((?:as|with) [^)]*\)$", "", text)
    where = path if not where else where
    if not os.path.isabs(where):
        where = os.path.abspath(where)
    found = []
    u, mem = UNDEFINED.match(text), NO_MEMBER.match(text)
    if not (u or mem) and UNKNOWN_TYPE.match(text):
        u = _type_before(where, line, int(m.group(3)))
    if u or mem:
        # where the parse looks: the file's directory, then its flags'
        for top in [os.path.dirname(path)] + [
                d for d in includes.search_dirs(flags) if allowed(d)]:
            defines, members = _index(top)
            defs = defines.get(u.group(1)) if u else \
                members.get((mem.group(2), mem.group(1)))
            for _, _, syms in defs or ():
                if all(known(s) for s in syms):
                    return sorted(set(syms))
        return []
    lines = _read_lines(where)
    if not lines or line > len(lines) or \
            not re.match(rb"\s*#\s*error\b", lines[line - 1]):
        return []
    blocks = conditions(lines, line) or []
    for cur, first, later in reversed(blocks):
        if later and first and all(known(s) for s in first):
            found = first
            break
    return sorted(set(found))
