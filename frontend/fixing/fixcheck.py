# SPDX-License-Identifier: GPL-2.0-only
"""Checks on a fix's result before it is written: a change that would
put code after a return, barrier an RCU callback into a cache already
destroyed, or dereference a possibly-ERR_PTR value on its error path is
refused (each is a pattern a semantic patch produced on real drivers)."""
import difflib
import re

from .. import paths

_RETURN = re.compile(r"^\s*return\b[^;]*;\s*(/\*.*\*/)?\s*$")
_BARRIER = re.compile(r"\b(rcu_barrier|srcu_barrier)\s*\(")


def _indent(line):
    return len(line.expandtabs(8)) - len(line.expandtabs(8).lstrip())


def added(old, new):
    """Indexes into new's lines of the lines the fix added."""
    a, b = old.splitlines(), new.splitlines()
    out = []
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, _i1, _i2, j1, j2 in sm.get_opcodes():
        if tag in ("insert", "replace"):
            out.extend(range(j1, j2))
    return out


def _previous_code(lines, i):
    j = i - 1
    while j >= 0 and (not lines[j].strip() or
                      lines[j].strip().startswith(("/*", "*", "//"))):
        j -= 1
    return j


def _function_start(lines, i):
    j = i
    while j > 0 and not lines[j].startswith("{"):
        j -= 1
    return j


def after_return(lines, i):
    j = _previous_code(lines, i)
    return j >= 0 and _RETURN.match(lines[j]) and \
        _indent(lines[j]) <= _indent(lines[i])


def barrier_after_destroy(lines, i):
    if not _BARRIER.search(lines[i]):
        return None
    for j in range(_function_start(lines, i), i):
        m = re.search(r"\bkmem_cache_destroy\s*\(([^)]*)\)", lines[j])
        if m:
            return m.group(1).strip()
    return None


def _block(lines, i):
    """The lines of the statement that starts at line i (an if): to its
    closing brace, or its one statement."""
    depth, out = 0, []
    for ln in lines[i:i + 60]:
        out.append(ln)
        depth += ln.count("{") - ln.count("}")
        if depth <= 0 and (ln.rstrip().endswith(";") or
                           ln.rstrip().endswith("}")) and len(out) > 1:
            break
    return out


def errptr_deref(lines, i, ctors):
    m = re.search(r"(\b[A-Za-z_][\w.>-]*)\s*=\s*(\w+)\s*\(", lines[i])
    if not m or m.group(2) not in ctors:
        return None
    var = m.group(1)
    for j in range(i + 1, min(i + 12, len(lines))):
        if re.match(r"^\s*if\s*\(", lines[j]):
            body = "\n".join(_block(lines, j)[1:])
            if re.search(re.escape(var) + r"\s*->", body):
                return var
            return None
    return None


def problems(old, new):
    """Why the fixed text new must not replace old; [] when none."""
    lines = new.splitlines()
    ctors = set(paths.kb_list("errptr-constructors"))
    out = []
    for i in added(old, new):
        if after_return(lines, i):
            out.append("line %d would follow a return: it never runs"
                       % (i + 1))
        cache = barrier_after_destroy(lines, i)
        if cache:
            out.append("line %d waits for RCU callbacks after "
                       "kmem_cache_destroy(%s), which they free into"
                       % (i + 1, cache))
        var = errptr_deref(lines, i, ctors)
        if var:
            out.append("line %d: the error path after it dereferences %s, "
                       "an ERR_PTR() there" % (i + 1, var))
    return out
