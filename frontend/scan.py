# SPDX-License-Identifier: GPL-2.0-only
"""The scan: collect C files, run both engines in parallel, link per
module, merge the engines' findings."""
import concurrent.futures
import json
import os

from . import cocci_engine, kflags, link, paths, sparse_engine
from .modules import Kconfig, ModuleMap, tree_root
from .rules import RULES, rule_for_script

SKIP_DIRS = {".git", ".tmp_versions", "Documentation"}


class ScanError(Exception):
    pass


def collect(targets, errors):
    """The .c files under the targets, each once, in a stable order."""
    seen, out = set(), []
    for t in targets:
        if os.path.isfile(t):
            if t.endswith(".c"):
                real = os.path.realpath(t)
                if real not in seen:
                    seen.add(real)
                    out.append(os.path.abspath(t))
            else:
                errors.append({"file": t, "message": "not a C source file"})
            continue
        if not os.path.isdir(t):
            errors.append({"file": t, "message": "no such file or directory"})
            continue
        visited = set()
        for dirpath, dirnames, filenames in os.walk(t, followlinks=True):
            real = os.path.realpath(dirpath)
            if real in visited:     # a symlink loop
                dirnames[:] = []
                continue
            visited.add(real)
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS
                                 and not d.startswith("."))
            for fn in sorted(filenames):
                if not fn.endswith(".c") or fn.endswith(".mod.c"):
                    continue
                p = os.path.join(dirpath, fn)
                real = os.path.realpath(p)
                if real not in seen and os.path.isfile(p):
                    seen.add(real)
                    out.append(os.path.abspath(p))
    return out


def _display(path, cwd):
    path = os.path.abspath(path)
    rel = os.path.relpath(path, cwd)
    return path if rel.startswith("..") else rel


def linked_findings(by_module, requested, rules, cwd):
    """Link each module's facts; the findings that stand, as reported."""
    findings = []
    for key, facts in sorted(by_module.items()):
        for fd in link.link_module(facts):
            path = os.path.abspath(fd["file"])
            if requested is not None and path not in requested:
                continue
            if fd["rule"] not in rules:
                continue
            findings.append({
                "rule": fd["rule"], "file": _display(path, cwd),
                "line": fd["line"], "column": fd["col"],
                "severity": "warning", "message": fd["message"],
                "engine": "sparse"})
    return findings


def link_built(dirs, rules):
    """Links the facts that kbuild runs of modlife-sparse
    --modlife-facts=auto left beside the objects (.foo.o.modlife)."""
    cwd = os.getcwd()
    by_module, errors = {}, []
    for top in dirs:
        for dirpath, dirnames, filenames in os.walk(top):
            for fn in sorted(filenames):
                if not (fn.startswith(".") and fn.endswith(".o.modlife")):
                    continue
                path = os.path.join(dirpath, fn)
                facts = []
                try:
                    with open(path, encoding="utf-8", errors="replace") as f:
                        for line in f:
                            facts.append(json.loads(line))
                except (OSError, ValueError) as e:
                    errors.append({"file": _display(path, cwd),
                                   "message": "unreadable facts: %s" % e})
                    continue
                tu = next((x for x in facts if x.get("k") == "tu"), {})
                if any(x.get("k") == "error" for x in facts):
                    for x in facts:
                        if x.get("k") == "error":
                            errors.append({"file": _display(x["file"], cwd),
                                           "message": x["message"]})
                    facts = [x for x in facts if x.get("k") != "finding"]
                key = os.path.join(dirpath, tu.get("modname") or fn)
                by_module.setdefault(key, []).extend(facts)
    findings = linked_findings(by_module, None, set(rules), cwd)
    findings.sort(key=lambda d: (d["file"], d["line"], d["column"]))
    return {"findings": findings, "errors": errors}


class Scanner:
    def __init__(self, kdir, jobs, rules=None, assume_module=False,
                 use_cocci=True):
        self.kdir = kdir
        self.jobs = jobs
        self.rules = set(RULES if rules is None else rules)
        self.assume_module = assume_module
        self.use_cocci = use_cocci
        self.binary = paths.sparse_binary()
        self.kb = paths.kb_file()
        if not self.binary:
            raise ScanError("modlife-sparse is not built (run make)")
        if not self.kb:
            raise ScanError("no owner knowledge file (kb/owner-reads.tsv)")

    def scan(self, targets):
        cwd = os.getcwd()
        errors = []
        files = collect(targets, errors)
        flags = kflags.kernel_flags(self.kdir)
        roots = {tree_root(f) for f in files}
        roots.discard(None)
        kconfig = Kconfig(tree=sorted(roots)[0] if roots else None,
                          kdir=self.kdir)
        mmap = ModuleMap(kconfig, self.assume_module)

        # every file of each module, for the link, even if not asked for
        info, work = {}, []
        requested = set(files)
        for f in files:
            module, modname, key, members = mmap.resolve(f)
            for m in [f] + members:
                if m not in info:
                    info[m] = (module, modname, key)
                    work.append(m)

        facts_by_file, sparse_ok = {}, set()
        cocci_found, cocci_errors = [], []
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
            futs = {}
            for f in work:
                module, modname, key = info[f]
                fl = kflags.file_flags(flags, f, module, modname)
                futs[pool.submit(sparse_engine.run, self.binary, self.kb,
                                 fl, f)] = ("sparse", f)
            if self.use_cocci:
                cand = [f for f in files if info[f][0]]
                for script in self._scripts():
                    for i in range(0, len(cand), 64):
                        batch = cand[i:i + 64]
                        futs[pool.submit(cocci_engine.run_report, script,
                                         batch)] = ("cocci", script)
            for fut in concurrent.futures.as_completed(futs):
                kind, what = futs[fut]
                if kind == "sparse":
                    facts, err = fut.result()
                    if err:
                        # a partial AST may miss what discharges a
                        # finding: keep its keys, not its findings
                        facts = [x for x in facts
                                 if x.get("k") != "finding"]
                    facts_by_file[what] = facts
                    if err:
                        errors.append({"file": _display(what, cwd),
                                       "message": err})
                    else:
                        sparse_ok.add(what)
                else:
                    found, errs = fut.result()
                    rule = rule_for_script(os.path.basename(what))
                    for c in found:
                        c["rule"] = rule
                    cocci_found += found
                    cocci_errors += errs

        by_module = {}
        for f in work:
            by_module.setdefault(info[f][2], []).extend(facts_by_file[f])
        findings = linked_findings(by_module, requested, self.rules, cwd)
        # the type-aware engine decides files it parsed; cocci fills gaps
        for c in cocci_found:
            path = os.path.abspath(c["file"])
            if path in sparse_ok or path not in requested:
                continue
            if c["rule"] not in self.rules or not info.get(path, (0,))[0]:
                continue
            findings.append({"rule": c["rule"], "file": _display(path, cwd),
                             "line": c["line"], "column": c["column"],
                             "severity": "warning", "message": c["message"],
                             "engine": "cocci"})
        for path, msg in cocci_errors:
            errors.append({"file": _display(path, cwd), "message": msg})
        seen, unique = set(), []
        for fd in findings:
            k = (fd["rule"], fd["file"], fd["line"])
            if k not in seen:
                seen.add(k)
                unique.append(fd)
        unique.sort(key=lambda d: (d["file"], d["line"], d["column"],
                                   d["rule"]))
        errors.sort(key=lambda e: e["file"])
        return {"findings": unique, "errors": errors,
                "files": len(files)}

    def _scripts(self):
        d = paths.cocci_dir()
        out = []
        for rule in sorted(self.rules):
            s = RULES[rule].get("cocci")
            if d and s and os.path.isfile(os.path.join(d, s)):
                out.append(os.path.join(d, s))
        return out
