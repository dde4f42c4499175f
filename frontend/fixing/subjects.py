# SPDX-License-Identifier: GPL-2.0-only
"""The subject prefix and tree tag of a patch, as the subsystem writes
them: from the file's git history (history.py: its own commits, then its
directory's), else from the tree's MAINTAINERS and the subsystems' forms
in kb/subject-prefixes.tsv, else (a module outside a kernel tree) the
module's name. Never a raw path: "usb: xhci:", not "drivers/usb/host:"."""
import fnmatch
import os
import re

from .. import paths
from ..ci.baseline import tree_path
from . import history

TABLE = os.path.join("kb", "subject-prefixes.tsv")


def _load(path=None):
    forms, trees = {}, []
    path = path or os.path.join(paths.ROOT, TABLE)
    for n, cols in paths.kb_table(path):
        if len(cols) != 3 or cols[0] not in ("form", "tree"):
            raise ValueError("%s:%d: not a row of the table" % (path, n))
        if cols[0] == "form":
            forms[cols[1].rstrip("/")] = cols[2]
        else:
            trees.append((re.compile(cols[1]), cols[2]))
    return forms, trees


FORMS, TREES = _load()


class Maintainers:
    """The sections of a tree's MAINTAINERS: (title, F: patterns, T:
    lines)."""
    _cache = {}

    def __init__(self, sections):
        self.sections = sections

    @classmethod
    def of(cls, top):
        if top not in cls._cache:
            cls._cache[top] = cls(_sections(os.path.join(top,
                                                         "MAINTAINERS")))
        return cls._cache[top]

    def covering(self, rel):
        """[(pattern, title, T: lines)] of the sections whose F: lines
        match rel, most specific (longest fixed part) first."""
        hits = []
        for title, files, trees in self.sections:
            for p in files:
                if _matches(p, rel):
                    hits.append((len(p.split("*")[0]), p, title, trees))
        hits.sort(key=lambda h: -h[0])
        return [(p, t, tr) for _, p, t, tr in hits]


def _sections(path):
    out, cur = [], None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read(8 << 20).splitlines()
    except OSError:
        return out
    for line in lines:
        m = re.match(r"^([A-Z]):\s+(.*)", line)
        if m and cur is not None:
            if m.group(1) == "F":
                cur[1].append(m.group(2).strip())
            elif m.group(1) == "T":
                cur[2].append(m.group(2).strip())
        elif line.strip() and not line[0].isspace() and not m:
            cur = (line.strip(), [], [])
            out.append(cur)
    return out


def _matches(pattern, rel):
    if pattern.endswith("/"):
        return rel.startswith(pattern)
    if "*" not in pattern and "?" not in pattern:
        return rel == pattern or rel.startswith(pattern + "/")
    # a glob does not cross a directory (MAINTAINERS: "F: dir/*")
    return fnmatch.fnmatchcase(rel, pattern) and \
        rel.count("/") == pattern.count("/")


def kernel_top(path):
    """The top of the kernel tree path is in (a MAINTAINERS and a
    Kbuild or Kconfig beside it), or None."""
    d = os.path.dirname(os.path.realpath(path))
    while True:
        if os.path.isfile(os.path.join(d, "MAINTAINERS")) and \
                os.path.isfile(os.path.join(d, "Kconfig")):
            return d
        up = os.path.dirname(d)
        if up == d:
            return None
        d = up


def _form(rel):
    """(directory, template) of the most specific form row for rel."""
    best = None
    for d, form in FORMS.items():
        if rel == d or rel.startswith(d + "/"):
            if best is None or len(d) > len(best[0]):
                best = (d, form)
    return best


def _stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def _section_part(base, rel, maint):
    """The driver's name from the most specific MAINTAINERS section below
    base: "xhci" for drivers/usb/host/xhci*, "mt76: mt7915" for
    drivers/net/wireless/mediatek/mt76/ and a file in its mt7915/."""
    for pattern, _, _ in maint.covering(rel):
        fixed = pattern.split("*")[0]
        if len(fixed.rstrip("/")) <= len(base):
            return None
        if pattern.endswith("/") or pattern.endswith("/*"):
            top = pattern.rstrip("*").rstrip("/")
            below = os.path.dirname(rel)[len(top):].strip("/")
            names = [os.path.basename(top)] + \
                ([p for p in below.split("/")] if below else [])
            return ": ".join(names)
        if "*" in pattern:
            stem = os.path.basename(fixed).rstrip("-_.")
            if stem:
                return stem
            continue
        return _stem(pattern)
    return None


def _module_part(module, subsystem, rel):
    """A driver's name from its module's: without the subsystem's word
    (mmc_block: block, i5100_edac: i5100, snd-soc-avs: avs); the file's
    name where the module is named after it (cros_ec_lpcs: cros_ec_lpc)."""
    if not module:
        return None
    stem = _stem(rel)
    if module != stem and module.startswith(stem):
        return stem
    name = re.sub(r"^snd-(soc-)?", "", module)
    word = subsystem.lower()
    for pat in (r"^%s[-_]" % re.escape(word), r"[-_]%s$" % re.escape(word)):
        short = re.sub(pat, "", name)
        if short != name and len(short) > 3:
            return short
    return name


def maintainers_prefix(path, module=None):
    """The prefix from MAINTAINERS and the subsystems' forms, or None
    outside a kernel tree or a directory the table has no form for."""
    top = kernel_top(path)
    if top is None:
        return None
    rel = os.path.relpath(os.path.realpath(path), top)
    found = _form(rel)
    if found is None:
        return None
    base, form = found
    maint = Maintainers.of(top)
    subsystem = re.split(r"[:/ ]", form)[0] or "-"
    part = None
    if "{part}" in form or "{slashed}" in form:
        part = _section_part(base, rel, maint) or \
            _module_part(module, subsystem, rel) or _stem(rel)
        # "bus: mhi: mhi:", "greybus: greybus:": the module is the
        # subsystem's core; its directory below the form's (mhi's host/)
        # or the file names the part
        fixed = set(re.findall(r"\w+", form.split("{")[0].lower()))
        if part.lower() in fixed:
            below = os.path.dirname(rel)[len(base):].strip("/")
            stem = re.sub(r"^%s[-_]" % re.escape(part), "", _stem(rel),
                          flags=re.I)
            part = below.replace("/", ": ") if below else stem
    text = form.format(stem=_stem(rel), part=part or "",
                       slashed=(part or "").replace(": ", "/"),
                       rel=os.path.splitext(rel[len(base) + 1:])[0])
    return text


def tree_tag(path):
    """The tree tag of a patch of path ("net" for [PATCH net]), from the
    most specific MAINTAINERS section whose T: line names a tree of the
    table; None when none does."""
    top = kernel_top(path)
    if top is None:
        return None
    rel = os.path.relpath(os.path.realpath(path), top)
    for _, _, trees in Maintainers.of(top).covering(rel):
        for t in trees:
            url = t.split()[-1] if t.split() else ""
            if len(t.split()) > 2:      # "git URL branch"
                url = t.split()[1]
            for pattern, tag in TREES:
                if pattern.search(url):
                    return None if tag == "-" else tag
    return None


def prefix(path, module=None):
    """The subject prefix for a change of path (in module)."""
    found = history.prefix(path) or maintainers_prefix(path, module)
    if found:
        return found
    # a module outside a kernel tree: its name, as its own subjects would
    name = module or os.path.basename(os.path.dirname(tree_path(path))) \
        or _stem(path)
    return name + ":"


def common_prefix(prefixes):
    """One prefix for a patch of several files: theirs when they agree,
    else the leading parts they share ("ASoC:"), else the first."""
    if len(set(prefixes)) == 1:
        return prefixes[0]
    split = [history.parse(p + " x") or [p] for p in prefixes]
    out = []
    for parts in zip(*split):
        if len(set(parts)) != 1:
            break
        out.append(parts[0])
    return " ".join(out) or prefixes[0]
