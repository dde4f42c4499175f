# SPDX-License-Identifier: GPL-2.0-only
"""The scan: collect C files, decide which are module code, run the
engines in parallel, link each module as soon as its files are done, and
merge the engines' findings.

Memory stays flat: a module's facts are dropped once it is linked. The
sparse engine decides every file it parses; the semantic patches run on
the module files sparse could not parse, as soon as that is known. Each
file's parse is file_jobs.py's, the loop over modules module_loop.py's.
"""
import os
import re
import subprocess
import threading
import time

from . import link, sparse_engine, treekb
from .. import paths
from ..tree import archheaders, archnames, autoconf, buildmade, ccheaders, \
    fswalk, genheaders, gentree, kconfeval, kerneltree, kflags, limits, \
    machdirs, optionrepair, treeflags
from ..tree.ownheaders import NATIVE, OwnHeaders
from ..tree.overlay import Overlays
from .staging import say, shown_path
from .cache import FactCache, tree_top
from .cocci_cache import CocciCache
from .plan_cache import PlanCache
from ..tree.kconfig import Kconfig, arch_of
from ..tree.modules import ModuleMap, tree_root
from .file_jobs import FileJobs
from .module_loop import ModuleLoop, linked_findings
from .progress import Progress
from ..rules import RULES, rule_for_script

SKIP_DIRS = {".git", ".tmp_versions", "Documentation"}


class ScanError(Exception):
    pass


def collect(targets, errors, outside=None):
    """The .c files under the targets, each once, in a stable order.

    A scanned tree is not trusted: a file or directory link in it that
    leads out of the named directory is not followed (fix would write
    through it), and such links are listed in outside when it is given.
    A file named on the command line is the user's own choice and is
    taken as it is."""
    seen, out = set(), []

    def add(p, real=None):
        real = real or os.path.realpath(p)
        if real in seen:
            return
        seen.add(real)
        if not os.access(p, os.R_OK):
            errors.append({"file": p, "message": "cannot read the file"})
            return
        out.append(os.path.abspath(p))

    for t in targets:
        if os.path.isfile(t):
            if t.endswith(".c"):
                add(t)
            else:
                errors.append({"file": t, "message": "not a C source file"})
            continue
        if not os.path.isdir(t):
            errors.append({"file": t, "message": "no such file or directory"})
            continue
        # a directory named twice, or inside another one named, has its
        # files already: it is not empty
        found = 0
        root = os.path.realpath(t)

        def unreadable(e):
            errors.append({"file": e.filename or t, "message":
                           "cannot read the directory: %s"
                           % (e.strerror or e)})

        def leads_out(p):
            if outside is not None:
                outside.append(os.path.abspath(p))

        for dirpath, dirnames, filenames, real in fswalk.walk(
                t, onerror=unreadable, followlinks=True, within=t,
                outside=leads_out, with_real=True):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS
                                 and not d.startswith("."))
            for fn in sorted(filenames):
                if fn.endswith(".c") and not fn.endswith(".mod.c"):
                    p = os.path.join(dirpath, fn)
                    if not os.path.islink(p):
                        if os.path.isfile(p):
                            found += 1
                            add(p, os.path.join(real, fn))
                    elif not fswalk.inside(p, root):
                        leads_out(p)
                    elif os.path.isfile(p):
                        found += 1
                        add(p)
        if not found and not any(e["file"] == t for e in errors):
            errors.append({"file": t, "message": "no C source file (.c) "
                           "here to check"})
    return out


def _display(path, cwd):
    return shown_path(path, cwd)


def _built_facts(dirs, errors, cwd):
    """The facts files kbuild left (.foo.o.modlife beside foo.o) that
    still describe their object: one older than its object, or whose
    object is gone (make clean), is stale and named in errors."""
    found, seen = [], 0
    for top in dirs:
        if not os.path.isdir(top):
            errors.append({"file": top, "message": "no such directory"})
            continue
        for dirpath, dirnames, filenames in fswalk.walk(top):
            dirnames.sort()
            for fn in sorted(filenames):
                if not (fn.startswith(".") and fn.endswith(".o.modlife")):
                    continue
                path = os.path.join(dirpath, fn)
                seen += 1
                obj = os.path.join(dirpath, fn[1:-len(".modlife")])
                try:
                    stale = os.stat(obj).st_mtime > os.stat(path).st_mtime
                except OSError:
                    stale = True
                if stale:
                    errors.append({"file": _display(path, cwd),
                                   "message": "stale facts (older than %s, "
                                   "or it is gone): ignored" %
                                   os.path.basename(obj)})
                    continue
                found.append(path)
    return found, seen


def link_built(dirs, rules, explain=False):
    """Links the facts that kbuild runs of modlife-sparse
    --modlife-facts=auto left beside the objects (.foo.o.modlife).
    Returns None when no directory holds any; "checked" counts those
    that were linked. explain: the link step says on stderr why each
    candidate finding that does not stand was dropped."""
    cwd = os.getcwd()
    by_module, errors = {}, []
    files, seen = _built_facts(dirs, errors, cwd)
    if not seen:
        return None
    for path in files:
        try:
            facts = link.read_facts(path)
        except link.LinkError as e:
            errors.append({"file": _display(path, cwd),
                           "message": "unreadable facts: %s" % e})
            continue
        for x in sparse_engine.parse(facts, ("error",)):
            # no file: the checker stopped before it read the file names
            errors.append({"file": _display(str(x.get("file") or path), cwd),
                           "message": str(x.get("message"))})
        tu = next(iter(sparse_engine.parse(facts, ("tu",))), {})
        key = os.path.join(os.path.dirname(path),
                           str(tu.get("modname") or os.path.basename(path)))
        by_module.setdefault(key, []).extend(facts)
    findings = []
    with link.Linker(explain=explain) as linker:
        for key in sorted(by_module):
            findings += linked_findings(linker, by_module[key], None,
                                        set(rules), cwd, errors)
    findings.sort(key=lambda d: (d["file"], d["line"], d["column"]))
    return {"findings": findings, "errors": errors, "checked": len(files)}


_KB_ROW = re.compile(r"^(?:(?:struct|union) \w+|[a-z][a-z-]*:[^\t]*)"
                     r"\t[^\t]*\t[^\t]*$")


def _kb_rows_problem(path):
    """Why path's rows are not those of a knowledge file (every row:
    a type or a tagged key, where, how), or None."""
    try:
        with fswalk.open_regular(path) as f:
            data = f.read(fswalk.MAX_SOURCE + 1)
    except OSError as e:
        return "knowledge file %s: %s" % (path, e.strerror or e)
    if len(data) > fswalk.MAX_SOURCE:
        return "knowledge file %s: too large" % path
    rows = 0
    for n, line in enumerate(data.decode("utf-8", "replace").split("\n"),
                             1):
        if not line.strip() or line.startswith("#"):
            continue
        if not _KB_ROW.match(line):
            return "knowledge file %s:%d: not a row of a knowledge file " \
                "(type or key, where, how)" % (path, n)
        rows += 1
    if not rows:
        return "knowledge file %s: no row in it" % path
    return None


def _not_a_kb(binary, path):
    """Why the checker refuses path as its knowledge file (a directory,
    garbage), or None: a wrong MODLIFE_KB must not silently drop every
    finding. The checker decides, with no file to check."""
    problem = _kb_rows_problem(path)
    if problem:
        return problem
    try:
        res = subprocess.run([binary, "--modlife-kb=" + path],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    if res.returncode <= 0:
        return None     # accepted, or killed: no verdict on the file
    line = (res.stderr.decode("utf-8", "replace").strip().splitlines() or
            ["knowledge file %s: exit %d" % (path, res.returncode)])[-1]
    return line[len("modlife: "):] if line.startswith("modlife: ") else line


class Scanner:
    def __init__(self, kdir, jobs, rules=None, assume_module=False,
                 cocci="fallback", cache_dir=None, progress=None,
                 warn=None, config="any", explain=False):
        self.kdir = kdir
        self.jobs = jobs
        self.rules = set(RULES if rules is None else rules)
        self.assume_module = assume_module
        self.config = config
        self.cache_dir = cache_dir
        self.cocci = cocci
        self.progress = progress
        # {file: other file}: parse the other text as the file (fix's
        # re-scan of a fixed text before it is written); never cached
        self.substitute = {}
        self.warn = warn or say
        self.binary = paths.sparse_binary()
        self.explain = explain  # the link step says why it dropped each
        self.kb = paths.kb_file()
        if not self.binary:
            raise ScanError("modlife-sparse is not built (run make)")
        if not self.kb:
            raise ScanError("no owner knowledge file (kb/owner-reads.tsv)")
        problem = _not_a_kb(self.binary, self.kb)
        if problem:
            raise ScanError(problem)
        # what decides a file's parse besides its flags: the checker, its
        # knowledge, and how failed parses are tried again
        self.cache = FactCache(cache_dir, self._salt_files(), self.warn)
        # the semantic patches' results, beside the facts
        self.cocci_cache = CocciCache(self.cache.dir, self.warn)
        self.plan_cache = PlanCache(self.cache.dir, self.warn)
        self._model, self._model_args = None, None
        self._model_lock = threading.Lock()
        self.plan_flags = {}
        self.knowledge = None   # which knowledge the scan read (a label)
        self.stats = {}
        self.input_errors = 0
        # kdir: named by the user (used for any tree); else per tree
        self.own = OwnHeaders(kdir, self.warn)

    def _salt_files(self):
        return [self.binary, self.kb] + [
            os.path.abspath(m.__file__) for m in (
                archheaders, archnames, buildmade, ccheaders, genheaders,
                gentree,
                autoconf, kconfeval, machdirs, optionrepair, treeflags)] + \
            [autoconf.template()] + ccheaders.shipped()

    def _use_knowledge(self, path):
        """Reads the knowledge file path from now on (the tree's own)."""
        if path != self.kb:
            problem = _not_a_kb(self.binary, path)
            if problem:
                raise ScanError(problem)
            self.kb = path
            self.cache.set_salt(self._salt_files())

    @staticmethod
    def _root(files):
        """The kernel tree the files lie in (the first, by name), or
        None."""
        roots = {tree_root(os.path.join(d, "x"))
                 for d in {os.path.dirname(f) for f in files}}
        roots.discard(None)
        return sorted(roots)[0] if roots else None

    def _model_of(self):
        """(Kconfig, ModuleMap) of the tree planned last: made when the
        plan is, or when first asked for after a plan from the cache."""
        with self._model_lock:
            if self._model is None:
                root, kdir, explicit = self._model_args
                kconfig = Kconfig(tree=root, kdir=kdir)
                if root and not kdir:
                    # the tree's own headers: the configuration made for
                    # it
                    kconfig.set_config(self.own.config(kconfig))
                self._model = (kconfig, ModuleMap(
                    kconfig, self.assume_module, mode=self.config,
                    explicit=explicit))
            return self._model

    @property
    def kconfig(self):
        return self._model_of()[0]

    @property
    def mmap(self):
        return self._model_of()[1]

    def _plan(self, files, explicit, native=()):
        """Which files to check, grouped by module; the others with the
        reason. The plan of the same files in an unchanged tree comes
        from the cache (self.plan_flags: each checked file's flags)."""
        root = self._root(files)
        self._cache_outside(files, root)
        kdir = self.own.kdir_for(root)
        with self._model_lock:
            self._model, self._model_args = None, (root, kdir, explicit)
        key = self.plan_cache.key([
            files, sorted(os.path.abspath(p) for p in explicit),
            list(native), root, kdir, self.config, self.assume_module])
        hit = self.plan_cache.get(key)
        if hit is None:
            with fswalk.Reads() as reads:
                hit = self._plan_fresh(files, native)
            self.plan_cache.put(key, reads, hit, files, root)
        info, modules, skipped, options, self.plan_flags = hit
        return info, modules, skipped, options

    def _cache_outside(self, files, root):
        """A cache inside the scanned tree, or the checkout the files
        lie in, is not used: a change could ship entries in it (a CI
        cache kept under the project's directory), and the scan would
        read what the change says of itself."""
        top = self.cache.dir and os.path.realpath(self.cache.dir)
        if not top:
            return
        tops = {root} if root else set()
        for d in {os.path.dirname(f) for f in files}:
            tops.add(d)
            tops.add(tree_top(os.path.join(d, "x")))
        tops.discard(None)
        for t in sorted(tops):
            real = os.path.realpath(t)
            if top == real or top.startswith(real.rstrip(os.sep) + os.sep):
                self.cache.refuse("lies inside the scanned tree %s: a "
                                  "change could ship its entries" % t)
                self.cocci_cache = CocciCache(None, self.warn)
                self.plan_cache = PlanCache(None, self.warn)
                return

    def _plan_fresh(self, files, native):
        kconfig, mmap = self._model_of()
        if self.config == "kdir" and not kconfig.has_config:
            raise ScanError("--config kdir: %s has no .config, so nothing "
                            "would be module code" % self._model_args[1])
        info, modules, skipped, options = {}, {}, {}, {}
        # a source several architectures' modules share (virt/kvm/ in
        # each one's kvm module) is a part of the native one's, whose
        # Makefile's flags ("-I arch/x86/kvm" for its "irq.h") the
        # native parse needs: other architectures' directories claim last
        root = self._model_args[0]
        files = sorted(files, key=lambda f: arch_of(root, f) not in (
            None,) + tuple(native))
        for f in files:
            place = mmap.resolve(f)
            if not place.module:
                skipped[f] = place.reason   # not a module: nothing to unload
                continue
            for m in [f] + place.members:
                if m not in info:
                    info[m] = (place.modname, place.key)
                    modules.setdefault(place.key, []).append(m)
                    # a part's own option is its own line's
                    mine = place if m == f else mmap.resolve(m)
                    if not mine.module:
                        mine = place
                    own = mmap.module_options(m, mine)
                    deps = mmap.dependencies(mine, m, native)
                    alone = mmap.dependencies(mine, m, native, False)
                    options[m] = (own + deps,
                                  mmap.architectures(mine, native, m),
                                  own + alone if alone != deps else None)
        # a part of a checked module is checked, whatever its own line
        skipped = {f: r for f, r in skipped.items() if f not in info}
        # the per-directory flags kbuild adds, read from the Makefiles
        flags = {f: mmap.flags(f, os.path.dirname(info[f][1]))
                 for f in info}
        return info, modules, skipped, options, flags

    def module_files(self, files):
        """The source files of the modules that files are part of (a
        directory no Makefile covers is one module); files that are no
        module code are left out."""
        info, modules, _, _ = self._plan(files, [], ())
        out = set(info)
        for key in modules:
            d = os.path.dirname(key)
            if not self.mmap.has_makefile(d):
                out.update(os.path.join(d, n) for n in os.listdir(d)
                           if n.endswith(".c") and not n.endswith(".mod.c")
                           and os.path.isfile(os.path.join(d, n)))
        return sorted(out)

    def scan(self, targets):
        cwd = os.getcwd()
        errors, outside = [], []
        limits.take()   # what an earlier scan's readers told
        files = collect(targets, errors, outside)
        # named inputs that could not be checked at all
        self.input_errors = len(errors)
        root = self._root(files)
        kdir = self.own.kdir_for(root)
        tree_key = []
        if kdir:
            # self.cache.dir: None unless the cache is usable (and ours)
            flags = kflags.kernel_flags(kdir, self.cache.dir)
            trusted = flags
            native = kflags.native_arch(flags)
        else:
            native = [NATIVE]
        explicit = [os.path.abspath(t) for t in targets
                    if os.path.isfile(t) and t.endswith(".c")]
        info, modules, skipped, options = self._plan(
            files, explicit, native)
        for p in outside:
            skipped[p] = "link-outside"
        explicit += outside         # said on stderr: the user should know
        scripts = self._scripts() if self.cocci != "off" else []
        overlay = Overlays(self.cache.dir, self.warn)
        # other architectures' files parse with the tree's headers
        own_tree = bool(root) and kerneltree.has_headers(root)
        knowledge = treekb.Knowledge(self.cache.dir, self.jobs, self.warn,
                                     quiet=self.progress is False)
        try:
            if not kdir:
                flags, trusted, digest = self.own.tree_setup(
                    root, self.kconfig, overlay.tree)
                tree_key = [digest]
            self.headers = kdir or "tree:" + root
            self._use_knowledge(knowledge.choose(
                root, kdir, self.own, overlay.tree,
                lambda path: _not_a_kb(self.binary, path)))
        except BaseException:
            knowledge.close()
            overlay.close()
            raise
        self.knowledge = knowledge.label
        requested = set(files)
        t_start = time.time()
        progress = Progress(len(info), self.progress)
        try:
            jobs = FileJobs(self, (info, options), flags, trusted, kdir,
                            root, own_tree, tree_key, overlay)
            loop = ModuleLoop(self, jobs, modules, info, requested, scripts,
                              cwd, errors, progress)
            loop.run()
        finally:
            progress.close()
            overlay.close()
            knowledge.close()
        findings, failed = loop.findings, loop.failed
        # build files a reader's bound cut short: not read as kbuild
        # reads them, so the scan did not check all it was asked to
        for path, what in sorted(limits.take().items()):
            errors.append({"file": _display(path, cwd), "message": what})
            self.input_errors += 1
        if self.cocci == "all":
            # the type-aware engine decides the files it parsed
            parsed = {_display(f, cwd) for f in info} - {
                _display(f, cwd) for f in failed}
            findings = [x for x in findings if x["engine"] == "sparse" or
                        x["file"] not in parsed]
        seen, unique = set(), []
        for fd in findings:
            k = (fd["rule"], fd["file"], fd["line"])
            if k not in seen:
                seen.add(k)
                unique.append(fd)
        unique.sort(key=lambda d: (d["file"], d["line"], d["column"],
                                   d["rule"]))
        errors.sort(key=lambda e: e["file"])
        reasons = {}
        for r in skipped.values():
            reasons[r] = reasons.get(r, 0) + 1
        self.stats = {"files": len(files), "checked": len(info),
                      "skipped": len(skipped), "reasons": reasons,
                      "failed": len(failed),
                      # neither engine checked them
                      "unchecked": len(set(failed) - loop.cocci_checked),
                      "cache_hits": self.cache.hits,
                      "cocci_cache_hits": self.cocci_cache.hits,
                      "module_cache_hits": loop.modcache.hits,
                      "seconds": time.time() - t_start,
                      "link_seconds": loop.link_seconds}
        self.stats["stand_ins"] = len(loop.stand_ins)
        return {"findings": unique, "errors": errors,
                "stand_ins": sorted(loop.stand_ins, key=lambda x: (
                    x["file"], x["header"])),
                "skipped": [{"file": _display(f, cwd), "reason": r,
                             "named": f in explicit}
                            for f, r in sorted(skipped.items())]}

    def cocci_results(self, found, errs, failed, requested, findings,
                       errors, cwd):
        for c in found:
            path = os.path.abspath(c["file"])
            rule = rule_for_script(c.pop("script"))
            if path not in requested or rule not in self.rules:
                continue
            # coccicheck's "WARNING: " leads; the words are the checker's
            message = re.sub(r"^(WARNING|ERROR|INFO): ", "", c["message"])
            findings.append({"rule": rule, "file": _display(path, cwd),
                             "line": c["line"], "column": c["column"],
                             "severity": "warning", "message": message,
                             "engine": "cocci"})
        for path, msg in errs:
            errors.append({"file": _display(path, cwd), "message": msg})

    def _scripts(self):
        d = paths.cocci_dir()
        out = []
        for rule in sorted(self.rules):
            s = RULES[rule].get("cocci")
            if d and s and os.path.isfile(os.path.join(d, s)):
                out.append(os.path.join(d, s))
        return out
