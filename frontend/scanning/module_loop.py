# SPDX-License-Identifier: GPL-2.0-only
"""The scan's loop over modules: a bounded window of files in flight,
in module order, each module linked as soon as its last file is read
(its kept result read instead when its files are unchanged), the
semantic patches run on the files sparse could not parse."""
import concurrent.futures
import json
import os
import time

from ..tree import buildmade
from . import cocci_engine, link, module_cache, sparse_engine
from .file_jobs import Refused, too_large
from .module_cache import ModuleCache
from .staging import shown_path


def linked_findings(linker, facts, requested, rules, cwd, errors,
                    failed=None, result=None):
    """Link one module's facts; the findings that stand, as reported. A
    link that fails is an error of the module's files (and is added to
    failed); the scan goes on. result, a list, gets what a module entry
    keeps of a link that did not fail: (standing, parsed, included)."""
    if not facts:
        return []     # no file gave a fact: nothing to decide
    tus, incs = module_cache.parsed_and_included(facts)
    try:
        standing = linker.link(facts)
    except link.LinkError as e:
        if failed is not None:
            failed.append(e)
        for f in tus or ["?"]:
            errors.append({"file": shown_path(f, cwd), "message": str(e)})
        return []
    if result is not None:
        result.append((standing, tus, incs))
    return reported(standing, tus, incs, requested, rules, cwd)


def reported(standing, tus, incs, requested, rules, cwd):
    """The findings of a module's link (standing, with the files it
    parsed and included) that the scan reports."""
    # a finding in a header of the module's own (beside a file, or in a
    # ccflags -I directory) is one of the requested files' when it
    # includes it
    headers = set()
    if requested is not None and any(os.path.abspath(t) in requested
                                     for t in tus):
        headers = {os.path.abspath(x) for x in incs}
    findings = []
    for fd in standing:
        path = os.path.abspath(fd["file"])
        if requested is not None and path not in requested and \
                path not in headers:
            continue
        if fd["rule"] not in rules:
            continue
        findings.append({
            "rule": fd["rule"], "file": shown_path(path, cwd),
            "line": fd["line"], "column": fd["col"],
            "severity": "warning", "message": fd["message"],
            "engine": "sparse"})
    return findings


def marked_failed(facts, err):
    """The facts of a file the checker did not finish, with the error
    said where the checker could not say it (killed, timed out): the
    link step withholds a failed file's findings (link_decide())."""
    if not facts or any(sparse_engine.kind(x) == "error" for x in facts):
        return facts
    return facts + [json.dumps({"k": "error", "file": None,
                                "message": str(err)})]


class ModuleLoop:
    """One scan's modules ({key: files}), their files parsed by jobs
    (file_jobs.FileJobs) on scanner's threads. requested: the files
    asked for; scripts: the semantic patches; errors: the scan's list,
    appended to. After run(): findings, failed, cocci_checked,
    link_seconds, and the module cache's hits."""

    def __init__(self, scanner, jobs, modules, info, requested, scripts,
                 cwd, errors, progress):
        self.s, self.jobs = scanner, jobs
        self.modules, self.info = modules, info
        self.requested, self.scripts = requested, scripts
        self.cwd, self.errors, self.progress = cwd, errors, progress
        self.findings, self.failed, self.cocci_checked = [], [], set()
        # files parsed with an empty stand-in for one the build makes
        self.stand_ins = []
        self.link_seconds = 0.0
        self.pending = {key: len(ms) for key, ms in modules.items()}
        self.bucket = {key: [] for key in modules}
        # the salt holds the knowledge chosen before
        self.modcache = ModuleCache(scanner.cache.dir, scanner.cache,
                                    scanner.warn, scanner.explain)
        # a module being read: its entry's key, and each file's error
        # and included headers when its facts are a cache entry
        self.modstate = {}
        self.todo = iter(sorted(modules))
        # a bounded window of files in flight, in module order: a module
        # is linked and dropped soon after its files are read, so memory
        # stays flat however large the tree (or warm the cache) is
        self.window = max(8, 4 * scanner.jobs)
        self.futs = {}
        self.pool = self.linker = None

    def run(self):
        s = self.s
        with concurrent.futures.ThreadPoolExecutor(s.jobs) as self.pool, \
                link.Linker(s.binary, s.explain) as self.linker:
            try:
                self._refill()
                while self.futs:
                    done, _ = concurrent.futures.wait(
                        self.futs,
                        return_when=concurrent.futures.FIRST_COMPLETED)
                    for fut in done:
                        self._done(fut)
                    self._refill()
            finally:
                # an engine that raised: do not wait for the whole window
                for fut in self.futs:
                    fut.cancel()

    def _cocci(self, f):
        self.futs[self.pool.submit(
            cocci_engine.run_report, self.scripts, [f], None,
            self.s.cocci_cache)] = ("cocci", f, None)

    def _failed_file(self, f, err):
        self.errors.append({"file": shown_path(f, self.cwd),
                            "message": err})
        self.failed.append(f)
        if isinstance(err, Refused):
            self.s.input_errors += 1  # not read at all
        elif self.s.cocci == "fallback" and f in self.requested and \
                self.scripts:
            self._cocci(f)

    def _stood_in(self, f, headers):
        """Notes that f (a requested file) was parsed with stand-ins
        among the headers it read."""
        if f in self.requested:
            self.stand_ins += [{"file": shown_path(f, self.cwd),
                                "header": h}
                               for h in buildmade.stand_ins(headers)]

    def _read_from_entry(self, key, entry):
        """A module whose result is kept: its files' errors and its
        link's findings, no fact read."""
        ms = self.modules[key]
        for f in ms:
            if entry["errors"][f]:
                self._failed_file(f, entry["errors"][f])
            else:
                self._stood_in(f, entry["deps"][f])
        found = reported(entry["standing"], entry["tus"], entry["includes"],
                         self.requested, self.s.rules, self.cwd)
        self.findings.extend(found)
        self.s.cache.hits += len(ms)
        self.pending[key] = 0
        self.bucket.pop(key)
        self.progress.step(len(ms), len(found))

    def _refill(self):
        s = self.s
        while len(self.futs) < self.window:
            key = next(self.todo, None)
            if key is None:
                return
            ms = self.modules[key]
            prep = {f: self.jobs.prepared(f) for f in ms}
            mkey = None
            if not any(f in s.substitute or too_large(f) for f in ms):
                mkey = self.modcache.key([(f, prep[f][4]) for f in ms])
            entry = self.modcache.get(mkey, {f: prep[f][3] for f in ms})
            if s.cocci == "all":
                for f in ms:
                    if f in self.requested and not too_large(f):
                        self._cocci(f)
            if entry is not None:
                self._read_from_entry(key, entry)
                continue
            self.modstate[key] = (mkey, {})
            for f in ms:
                fl, alt, archs, kf, ck = prep[f]
                # a cached file is read here: threads would only contend
                # for the interpreter
                hit = None if f in s.substitute or too_large(f) else \
                    s.cache.get(ck, f, kf, True)
                if hit is not None:
                    fut = concurrent.futures.Future()
                    fut.set_result(hit)
                else:
                    fut = self.pool.submit(self.jobs.work, f, fl, ck, kf,
                                           archs, alt, False)
                self.futs[fut] = ("sparse", f, ck)

    def _done(self, fut):
        s = self.s
        kind, f, ck = self.futs.pop(fut)
        if kind == "cocci":
            found, errs = fut.result()
            if not errs:
                self.cocci_checked.add(f)
            s.cocci_results(found, errs, self.failed, self.requested,
                            self.findings, self.errors, self.cwd)
            return
        # deps: the headers of a kept entry (None: not kept)
        facts, err, deps = fut.result()
        key = self.info[f][1]
        mkey, kept_files = self.modstate[key]
        if deps is not None:
            kept_files[f] = (err, deps)
        if err:
            self._failed_file(f, err)
            facts = marked_failed(facts, err)
        else:
            self._stood_in(f, [x["file"] for x in sparse_engine.parse(
                facts, ("include",)) if isinstance(x.get("file"), str)])
        self.bucket[key].extend(facts)
        self.pending[key] -= 1
        n = 0
        if self.pending[key] == 0:
            t0 = time.time()
            lost, linked = [], []
            found = linked_findings(self.linker, self.bucket.pop(key),
                                    self.requested, s.rules, self.cwd,
                                    self.errors, lost, linked)
            if linked and len(kept_files) == len(self.modules[key]):
                self.modcache.put(mkey, kept_files, *linked[0])
            del self.modstate[key]
            # a module not decided: as an input not checked
            s.input_errors += len(lost)
            self.link_seconds += time.time() - t0
            self.findings += found
            n = len(found)
        self.progress.step(1, n)
