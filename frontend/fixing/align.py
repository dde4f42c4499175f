# SPDX-License-Identifier: GPL-2.0-only
"""Fields the semantic patches add to an initializer (".owner =
THIS_MODULE,") written as the table writes its others: spatch puts one
space before "=", where many tables line their "=" up with tabs
("\t.open\t\t= foo_open,"). A field is realigned only when the fields
around it agree on the column of "=" and on tabs or spaces before it."""
import collections
import difflib
import re

_FIELD = re.compile(r"^(\s+)\.(\w+)(\s*)=(\s*)(.*?)(\r?)$")
TAB = 8


def _eq_column(indent, name, gap):
    return len((indent + "." + name + gap).expandtabs(TAB))


def _siblings(lines, j, indent, added):
    """The fields of the initializer line j is in, at its indent, that
    the fix did not add."""
    out = []
    for step in (-1, 1):
        k = j + step
        while 0 <= k < len(lines):
            ln = lines[k]
            if ln.strip().startswith("}") and \
                    len(ln) - len(ln.lstrip()) < len(indent):
                break
            if ln.rstrip().endswith("{") and \
                    len(ln) - len(ln.lstrip()) < len(indent):
                break
            m = _FIELD.match(ln)
            if m and m.group(1) == indent and k not in added:
                out.append(m)
            k += step
    return out


def _gap(indent, name, column, tabs):
    """What goes between ".name" and "=" to put "=" at column."""
    start = len((indent + "." + name).expandtabs(TAB))
    if start >= column:
        return None
    if not tabs:
        return " " * (column - start)
    gap, at = "", start
    while at < column:
        gap += "\t"
        at = (at // TAB + 1) * TAB
    return gap if at == column else None


def _aligned(lines, j, added):
    m = _FIELD.match(lines[j])
    if not m:
        return None
    indent, name, gap, after, value, cr = m.groups()
    sibs = _siblings(lines, j, indent, added)
    if len(sibs) < 2:
        return None
    cols = collections.Counter(_eq_column(s.group(1), s.group(2),
                                          s.group(3)) for s in sibs)
    column, n = cols.most_common(1)[0]
    tabbed = sum(1 for s in sibs if "\t" in s.group(3))
    if n * 3 < len(sibs) * 2:
        return None         # the fields do not agree on a column
    if all(not s.group(3) or s.group(3) == " " for s in sibs):
        return None         # "name = value": what spatch writes already
    new_gap = _gap(indent, name, column, tabbed * 2 >= len(sibs))
    if new_gap is None or new_gap == gap:
        return None
    space = collections.Counter(s.group(4) for s in sibs).most_common(1)[0][0]
    return "%s.%s%s=%s%s%s" % (indent, name, new_gap, space, value, cr)


def fields(old, new):
    """new (bytes) with the initializer fields it adds to old aligned as
    their neighbours are."""
    a = old.decode("utf-8", "surrogateescape").split("\n")
    b = new.decode("utf-8", "surrogateescape").split("\n")
    added = set()
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, _, _, j1, j2 in sm.get_opcodes():
        if op in ("insert", "replace"):
            added.update(range(j1, j2))
    changed = False
    for j in sorted(added):
        line = _aligned(b, j, added)
        if line is not None:
            b[j] = line
            changed = True
    if not changed:
        return new
    return "\n".join(b).encode("utf-8", "surrogateescape")
