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


def _fill(start, column, tabs):
    """What goes from column start to column (tabs or spaces), or None
    when tabs cannot land there."""
    if start >= column:
        return None
    if not tabs:
        return " " * (column - start)
    gap, at = "", start
    while at < column:
        gap += "\t"
        at = (at // TAB + 1) * TAB
    return gap if at == column else None


def _agreed(sibs, column_of, gap_of):
    """The column the siblings agree on (two in three) and whether they
    reach it with tabs; None when they do not agree or all write a
    single space, as spatch does."""
    cols = collections.Counter(column_of(s) for s in sibs)
    column, n = cols.most_common(1)[0]
    if n * 3 < len(sibs) * 2 or \
            all(gap_of(s) in ("", " ") for s in sibs):
        return None
    tabbed = sum(1 for s in sibs if "\t" in gap_of(s))
    return column, tabbed * 2 >= len(sibs)


def _aligned(lines, j, added):
    """Line j with its "=" and value where its neighbours have theirs:
    ".open\t\t= f," lines up "=", ".open =\t\tf," and ".open =    f,"
    line up the value; one neighbour is enough to follow."""
    m = _FIELD.match(lines[j])
    if not m:
        return None
    indent, name, gap, after, value, cr = m.groups()
    sibs = _siblings(lines, j, indent, added)
    if not sibs:
        return None
    eq = _agreed(sibs, lambda s: _eq_column(s.group(1), s.group(2),
                                            s.group(3)),
                 lambda s: s.group(3))
    if eq:
        gap = _fill(len((indent + "." + name).expandtabs(TAB)), *eq) \
            or gap
    after = collections.Counter(s.group(4) for s in sibs).most_common(1)[0][0]
    val = _agreed(sibs, lambda s: len((s.group(1) + "." + s.group(2) +
                                       s.group(3) + "=" + s.group(4)
                                       ).expandtabs(TAB)),
                  lambda s: s.group(4))
    if val:
        after = _fill(len((indent + "." + name + gap + "=").expandtabs(
            TAB)), *val) or after
    line = "%s.%s%s=%s%s%s" % (indent, name, gap, after, value, cr)
    return None if line == lines[j] else line


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
