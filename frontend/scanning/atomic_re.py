# SPDX-License-Identifier: GPL-2.0-only
"""Possessive quantifiers and atomic groups, in a form every Python 3
runs the same.

The prefilter expressions use `X*+`, `X++`, `X?+`, `X{m,n}+` and
`(?>X)` so that their time stays linear in hostile text. Python's `re`
has them since 3.11, but early 3.11 releases (Debian 12 ships 3.11.2)
match some of them wrongly: `(?:[^*]+|\\*(?!/))*+\\*/` finds no match
in "ab */", so a prefilter would drop files its script reports. A
lookahead is atomic in every version of `re` and keeps its captures, so
`(?>X)` is written as `(?=(?P<_aN>X))(?P=_aN)`: the lookahead takes X's
first match and the back-reference consumes exactly that text, with no
way back into it.
"""

PREFIX = "_a"
_QUANT = "*+?{"


def portable(pattern):
    """pattern with every possessive quantifier and atomic group
    rewritten as a lookahead and a back-reference."""
    out, _ = _seq(pattern, 0, [0])
    return out


def is_helper(name):
    """The groups portable() adds, not the pattern's own."""
    return name.startswith(PREFIX) and name[len(PREFIX):].isdigit()


def _atomic(body, count):
    count[0] += 1
    name = "%s%d" % (PREFIX, count[0])
    return "(?=(?P<%s>%s))(?P=%s)" % (name, body, name)


def _seq(p, i, count):
    """Rewrites p from i up to an unmatched ')' or the end; returns the
    text and the index of that ')' (or len(p))."""
    out = []
    while i < len(p) and p[i] != ")":
        if p[i] == "|":
            out.append("|")
            i += 1
            continue
        atom, i = _atom(p, i, count)
        quant, i, possessive = _quantifier(p, i)
        if possessive:
            out.append(_atomic(atom + quant, count))
        else:
            out.append(atom + quant)
    return "".join(out), i


def _atom(p, i, count):
    c = p[i]
    if c == "\\":
        return _escape(p, i)
    if c == "[":
        return _class(p, i)
    if c == "(":
        return _group(p, i, count)
    return c, i + 1


def _escape(p, i):
    j = i + 2
    kind = p[i + 1:i + 2]
    if kind == "x":
        j = i + 4
    elif kind == "u":
        j = i + 6
    elif kind == "U":
        j = i + 10
    elif kind == "N" and p[j:j + 1] == "{":
        j = p.index("}", j) + 1
    elif kind.isdigit():
        while j < len(p) and p[j].isdigit() and j < i + 4:
            j += 1
    return p[i:j], j


def _class(p, i):
    j = i + 1
    if p[j:j + 1] == "^":
        j += 1
    if p[j:j + 1] == "]":
        j += 1
    while p[j] != "]":
        j += 2 if p[j] == "\\" else 1
    return p[i:j + 1], j + 1


def _group(p, i, count):
    """A group from its '(' on; its body rewritten too."""
    if p.startswith("(?>", i):
        body, j = _seq(p, i + 3, count)
        return _atomic(body, count), j + 1
    j = i + 1
    if p.startswith("(?P<", i):
        j = p.index(">", i) + 1
    elif p.startswith("(?P=", i) or p.startswith("(?#", i):
        j = p.index(")", i)
        return p[i:j + 1], j + 1
    elif p.startswith("(?<=", i) or p.startswith("(?<!", i):
        j = i + 4
    elif p.startswith("(?", i):
        j = i + 2
        # (?:, (?=, (?!, or flags such as (?i: / (?i)
        while p[j] not in ":=!)":
            j += 1
        if p[j] == ")":
            return p[i:j + 1], j + 1
        j += 1
    body, k = _seq(p, j, count)
    return p[i:j] + body + ")", k + 1


def _quantifier(p, i):
    """The quantifier at i (without a possessive '+'), the index after
    it, and whether it was possessive."""
    if i >= len(p) or p[i] not in _QUANT:
        return "", i, False
    if p[i] == "{":
        j = p.find("}", i)
        inner = p[i + 1:j] if j > 0 else ""
        if j < 0 or not inner or not all(c.isdigit() or c == ","
                                         for c in inner):
            return "", i, False     # a literal '{'
        j += 1
    else:
        j = i + 1
    quant = p[i:j]
    if p[j:j + 1] == "+":
        return quant, j + 1, True
    if p[j:j + 1] == "?":
        return quant + "?", j + 1, False
    return quant, j, False
