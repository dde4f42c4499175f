# SPDX-License-Identifier: GPL-2.0-only
"""scan --diff-base REV: check the modules a change touches, at REV and
now, and report the findings that are new wherever they are in those
modules (deleting an `.owner` line reports the table's first line, which
the change did not touch); the ones that went away are listed as fixed.

REV's text of each changed file is written into a private temporary
tree and parsed in the file's place (Scanner.substitute), with REV's
headers of the same directories beside it, so that quote includes find
REV's text first. Nothing is written into the work tree."""
import os
import re
import tempfile

from . import baseline, diffbase
from ..tree import fswalk

INCLUDE = re.compile(rb'^\s*#\s*include\s*[<"]([^">]+)[">]', re.M)


def _area(header, top):
    """Where the users of a module-local header are: the nearest
    directory with a Makefile or Kbuild at or above the header's, below
    the tree's top; None for the kernel's shared headers."""
    rel = os.path.relpath(header, top).split(os.sep)
    if rel[0] == "include" or (rel[0] == "arch" and "include" in rel[2:3]):
        return None
    d = os.path.dirname(header)
    while d.startswith(top + os.sep):
        if os.path.exists(os.path.join(d, "Makefile")) or \
                os.path.exists(os.path.join(d, "Kbuild")):
            return d
        d = os.path.dirname(d)
    return os.path.dirname(header)


def _sources(d):
    for dirpath, dirnames, filenames in fswalk.walk(d):
        dirnames[:] = [n for n in dirnames if not n.startswith(".")]
        for fn in filenames:
            if fn.endswith(diffbase.SOURCES) and not fn.endswith(".mod.c"):
                yield os.path.join(dirpath, fn)


def _includers(headers, top):
    """Files that include one of headers, directly or through another
    header of the same area."""
    found, todo = set(), set(headers)
    while todo:
        by_area = {}
        for h in todo:
            a = _area(h, top)
            if a:
                by_area.setdefault(a, set()).add(os.path.basename(h))
        todo = set()
        for a, names in by_area.items():
            for f in _sources(a):
                if f in found:
                    continue
                try:
                    with fswalk.open_regular(f) as fh:
                        text = fh.read(fswalk.MAX_SOURCE)
                except OSError:
                    continue
                if any(os.path.basename(os.fsdecode(m)) in names
                       for m in INCLUDE.findall(text)):
                    found.add(f)
                    if f.endswith(".h"):
                        todo.add(f)
    return found


def _mirror(tmp, top, path):
    return os.path.join(tmp, os.path.relpath(path, top))


def _write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


class Plan:
    """What one change makes the scan check."""

    def __init__(self, changes):
        self.changes = changes
        self.old = {}           # real path: REV's bytes or None
        self.top = {}           # real path: its work tree's top
        self.seeds = set()      # sources whose module is checked
        self.includes = set()   # files that see a changed header
        for ch in changes:
            for p, data in ch.old.items():
                self.old[p] = data
                self.top[p] = ch.top
            heads = [p for p in ch.old if p.endswith(".h")] + \
                [p for p in ch.deleted if p.endswith(".h")]
            for p in ch.deleted:
                self.top[p] = ch.top
            users = _includers(heads, ch.top)
            for p in users:
                self.top[p] = ch.top
            self.includes |= users
            self.seeds |= {p for p in set(ch.old) | users
                           if p.endswith(".c")}

    def substitute(self, tmp, files):
        """{file: its text at REV in tmp} for the module files that
        changed or see a changed header; REV's headers of their
        directories beside them."""
        sub, dirs = {}, {}
        for f in files:
            real = os.path.realpath(f)
            if real not in self.old and real not in self.includes:
                continue
            top = self.top[real]
            if real in self.old:
                data = self.old[real]
            else:
                with open(real, "rb") as fh:
                    data = fh.read()
            target = _mirror(tmp, top, real)
            _write(target, data or b"")
            sub[f] = target
            dirs[os.path.dirname(real)] = top
        for d, top in dirs.items():
            try:
                names = os.listdir(d)
            except OSError:
                names = []
            for n in names:
                p = os.path.join(d, n)
                if not n.endswith(".h") or p in self.old:
                    continue
                if os.path.isfile(p):
                    with open(p, "rb") as fh:
                        _write(_mirror(tmp, top, p), fh.read())
        gone = [kv for ch in self.changes for kv in ch.deleted.items()]
        for p, data in list(self.old.items()) + gone:
            if p.endswith(".h") and data is not None:
                _write(_mirror(tmp, self.top[p], p), data)
        return sub


def _keys(findings, sources=None):
    return [(f, (f["rule"], fp)) for f, fp in
            baseline.fingerprints(findings, sources=sources)]


def run(make_scanner, rev, paths):
    """The result of scanning the changed modules now, with only the new
    findings, "fixed" (REV's findings that are gone, REV's lines) and
    "checked" (the module files); a file that REV's text of could not be
    parsed is an error (its findings would all look new)."""
    changes = diffbase.changes(rev, paths)
    plan = Plan(changes)
    now = make_scanner()
    files = now.module_files(sorted(plan.seeds)) if plan.seeds else []
    if not files:
        result = {"findings": [], "errors": [], "skipped": [],
                  "fixed": [], "checked": []}
        now.stats = now.stats or _empty_stats()
        return now, result
    result = now.scan(files)
    with tempfile.TemporaryDirectory(prefix="modlife-rev-") as tmp:
        before = make_scanner()
        before.substitute = plan.substitute(tmp, files)
        # a file REV did not have is parsed as empty: it had no findings
        old = before.scan(files)
        back = {}
        for f in old["findings"]:
            real = os.path.realpath(f["file"])
            if real.startswith(os.path.realpath(tmp) + os.sep):
                # a finding in one of REV's headers: name the real file
                for top in set(plan.top.values()):
                    cand = os.path.join(top, os.path.relpath(
                        real, os.path.realpath(tmp)))
                    if os.path.exists(cand) or cand in plan.top:
                        back[real] = cand
        sources = {os.path.realpath(f): os.path.realpath(t)
                   for f, t in before.substitute.items()}
        sources.update({v: k for k, v in back.items()})
        for f in old["findings"]:
            real = os.path.realpath(f["file"])
            if real in back:
                f["file"] = os.path.relpath(back[real])
        old_keys = _keys(old["findings"], sources)
        was = {k for _, k in old_keys}
        is_now = _keys(result["findings"])
        keys_now = {k for _, k in is_now}
        result["fixed"] = [f for f, k in old_keys if k not in keys_now]
        named = {e["file"] for e in result["errors"]}
        for e in old["errors"]:
            if e["file"] not in named:
                result["errors"].append({"file": e["file"], "message": (
                    "at %s: %s" % (rev, e["message"]))})
    result["findings"] = [f for f, k in is_now if k not in was]
    for f in result["findings"]:
        f["baseline"] = "new"
    result["checked"] = files
    return now, result


def _empty_stats():
    return {"files": 0, "checked": 0, "skipped": 0, "reasons": {},
            "failed": 0, "unchecked": 0, "cache_hits": 0, "seconds": 0.0,
            "link_seconds": 0.0}
