# SPDX-License-Identifier: GPL-2.0-only
"""Which findings `modlife fix` fixes (kb/rules.tsv, read by rules.py: the
rules whose fix the rule page calls safe), and the re-scan that each fix
must pass: the finding it was for is gone from a scan of the module with
the fixed file in place."""
import os
import tempfile

from ..tree import fswalk
from ..rules import RULES

# rule -> (safe, what the fix does or why there is none), for patchmail
FIXES = {name: (r.safe_fix, r.fix_why) for name, r in RULES.items()}


def plan(findings):
    """({file: [rules with a safe fix]}, [(finding, why not)])."""
    todo, manual = {}, []
    for f in findings:
        r = RULES.get(f["rule"])
        if r and r.safe_fix:
            rules = todo.setdefault(f["file"], [])
            if f["rule"] not in rules:
                rules.append(f["rule"])
        else:
            manual.append((f, r.fix_why if r else "no fix known"))
    return todo, manual


def _key(f):
    return (f["rule"], f["message"])


class Verifier:
    """Re-scans a fixed file's module with the fixed text."""

    def __init__(self, scanner_factory, findings):
        self.make = scanner_factory
        self.before = {}
        for f in findings:
            self.before.setdefault(os.path.abspath(f["file"]), []).append(f)

    def remaining(self, path, new, rules):
        """The findings of rules that the fixed text still has, or None
        when it could not be checked. The module is scanned as it is,
        with the new text parsed in place of the file (never written
        into the tree)."""
        from ..ci.baseline import tree_path
        path = os.path.abspath(path)
        if path.endswith(".h"):
            return self._header(path, new, rules)
        with tempfile.TemporaryDirectory(prefix="modlife-verify-") as tmp:
            # the same path suffix: own-file keys stay what they were
            target = os.path.join(tmp, tree_path(path))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(new)
            scanner = self.make()
            scanner.substitute = {path: target}
            result = scanner.scan([path])
            if any(os.path.abspath(e["file"]) == path
                   for e in result["errors"]) or \
                    not scanner.stats["checked"]:
                return None
            now = {_key(f) for f in result["findings"]
                   if os.path.abspath(f["file"]) == path}
        return [f for f in self.before.get(path, [])
                if f["rule"] in rules and _key(f) in now]

    def _header(self, path, new, rules):
        """remaining() for a module's own header: the sources beside it
        are parsed from copies that stand beside the fixed text (and the
        directory's other headers), so their quote includes find it."""
        from ..ci.baseline import tree_path
        d = os.path.dirname(path)
        try:
            names = sorted(os.listdir(d))
        except OSError:
            return None
        here = [os.path.join(d, n) for n in names]
        sources = [p for p in here if p.endswith(".c") and
                   not p.endswith(".mod.c") and os.path.isfile(p)]
        if not sources:
            return None
        with tempfile.TemporaryDirectory(prefix="modlife-verify-") as tmp:
            # the same path suffix: own-file keys stay what they were
            mirror = os.path.join(tmp, os.path.dirname(tree_path(path)))
            os.makedirs(mirror)
            sub = {}
            try:
                for p in here:
                    if p == path or not p.endswith((".c", ".h")) or \
                            not os.path.isfile(p):
                        continue
                    with fswalk.open_regular(p) as f:
                        data = f.read(fswalk.MAX_SOURCE + 1)
                    if len(data) > fswalk.MAX_SOURCE:
                        return None
                    target = os.path.join(mirror, os.path.basename(p))
                    with open(target, "wb") as f:
                        f.write(data)
                    if p in sources:
                        sub[p] = target
            except OSError:
                return None
            fixed = os.path.join(mirror, os.path.basename(path))
            with open(fixed, "wb") as f:
                f.write(new)
            scanner = self.make()
            files = scanner.module_files(sources)
            scanner.substitute = {p: t for p, t in sub.items()
                                  if p in files}
            if not scanner.substitute:
                return None
            result = scanner.scan(files)
            mine = set(scanner.substitute) | {path, fixed}
            if any(os.path.abspath(e["file"]) in mine
                   for e in result["errors"]) or \
                    not scanner.stats["checked"]:
                return None
            # the fixed text's findings, and the file's own if another
            # source still reads it
            now = {_key(f) for f in result["findings"]
                   if os.path.abspath(f["file"]) in (path, fixed)}
        return [f for f in self.before.get(path, [])
                if f["rule"] in rules and _key(f) in now]
