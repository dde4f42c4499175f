# SPDX-License-Identifier: GPL-2.0-only
"""Builds the owner knowledge file from a kernel source tree.

Every C file of the tree that pins a module (try_module_get(),
__module_get(), fops_get()) is checked with --modlife-kb-scan. A struct
type's owner matters when core code passes it to one of those, or copies it
into the owner of a type whose owner matters (a registration falling back to
dev->driver->owner, __register_chrdev() copying fops->owner into the cdev).

The same scan, over the files that export a function and stop or wait for
something, says what exported helpers do for their callers: reach
rcu_barrier() ("barrier:" rows), or stop work, timers, threads or
workqueues named by a struct type and member ("stops:" rows), and over
the files that export a function and call a driver-core registration,
which exported helpers register an object their caller passes
("registers:FN:N" rows: parameter N, or the member of it the second column
names, reaches a kb/api.tsv "register" call, directly or through other
functions). The third column says whether the core holds the object
itself ("held:"), so that it may be static: its unregistration waits for
the release its own release callback completes (i2c_del_adapter()), or
the module is pinned while the object is open (__video_register_device()
copies the owner into the cdev).
"""
import concurrent.futures
import fnmatch
import os
import re
import subprocess
import sys
import tempfile

from . import sparse_engine
from .. import paths
from ..tree import fswalk, includes, kflags
from ..tree.kconfig import Kconfig
from ..tree.modules import ModuleMap

# the barriers: kb/api.tsv's rows, read as data
BARRIERS = tuple(name for cls, name in paths.kb_api()
                 if cls == "rcu-barrier")
PIN = re.compile(rb"\b(try_module_get|__module_get|fops_get|" +
                 "|".join(re.escape(name) for cls, name in paths.kb_api()
                          if cls in ("rcu-barrier", "srcu-barrier"))
                 .encode() + rb")\b")


def _pin_gate():
    words = [b"module_get", b"fops_get"] + [
        name.encode() for cls, name in paths.kb_api()
        if cls in ("rcu-barrier", "srcu-barrier")]
    return lambda text: any(w in text for w in words)


# what a file PIN matches holds
_PIN_GATE = _pin_gate()
# files that may export a helper stopping its caller's work or timers
EXPORT = re.compile(rb"\bEXPORT_SYMBOL")
# ... and call a stop that waits: kb/api.tsv's rows of these classes, read
# as data (the checker writes what they stop as STOP_KEYS, STOP_GLOBAL keys)
STOP_CLASSES = ("work-stop", "wq-stop", "timer-stop", "thread-stop",
                "system-wq-stop")


def _stop_pattern():
    names = [re.escape(name).replace(r"\*", r"\w*").replace(r"\?", r"\w")
             for cls, name in paths.kb_api() if cls in STOP_CLASSES]
    return re.compile(rb"\b(" + "|".join(names).encode() + rb")\s*\(")


STOP = _stop_pattern()
# what a stop provides (track_async.c); only keys naming a struct type and
# member mean the same object in the caller's file
STOP_KEYS = ("exit-cancels:struct ", "exit-cancels-wq:struct ",
             "exit-stops:struct ", "exit-stops-thread:struct ")
STOP_GLOBAL = tuple("exit-calls:" + name for cls, name in paths.kb_api()
                    if cls == "system-wq-stop")
# the async primitives' own wrappers name every object of their kind
# (flush_delayed_work() flushes "struct delayed_work.work")
GENERIC = re.compile(r":struct (%s)\." % "|".join(
    map(re.escape, paths.kb_list("generic-wrappers"))))
# ... or wait with no time limit for what a file's close or a kref release
# signals (the "user-wait:" rows: check_exit_wait.c's kxwait facts)
WAITS = re.compile(rb"\b(wait_event\w*|wait_for_completion\w*|"
                   rb"prepare_to_wait\w*)\s*\(")
LAST_REF = re.compile(rb"\bkref_put\w*\s*\(|\.release\s*=")
MAX_ROUNDS = 6
# an unregistration's name (i2c_del_adapter(), ntb_unregister_device())
TEARDOWN_WORD = re.compile(r"(^|_)(del|unregister|free|%s)(_|$)" % "|".join(
    map(re.escape, paths.kb_list("teardown-words"))))
# registration helpers copying a "struct module *" parameter into an owner
# (__video_register_device(): vdev->cdev->owner = owner), and callers
# passing a nested table's owner to one (video_register_device(), an
# inline of include/media/v4l2-dev.h: vdev->fops->owner)
PARAM_COPY = re.compile(rb"(->|\.)\s*(owner|module)\s*=\s*[a-z_]\w*\s*;")
# exported helpers filling in their caller's owner themselves
# (af_alg_register_type(): type->ops->owner = THIS_MODULE) or with the
# bound driver's (x->owner = dev->driver->owner)
FILL = re.compile(rb"(->|\.)\s*(owner|module)\s*=\s*(THIS_MODULE|"
                  rb"[A-Za-z_][\w>.-]*->\s*driver\s*->\s*owner)\s*;")
NESTED_ARG = re.compile(rb"[(,]\s*\w+\s*(->|\.)\s*\w+\s*(->|\.)\s*owner\s*\)")


def _register_pattern():
    names = [re.escape(name).replace(r"\*", r"\w*").replace(r"\?", r"\w")
             for cls, name in paths.kb_api() if cls == "register"]
    return re.compile(rb"\b(" + "|".join(names).encode() + rb")\s*\(")


# no kernel code under these
SKIP_DIRS = ("Documentation", "tools", "samples", "scripts")


class KbError(Exception):
    pass


def candidates(tree, pattern=PIN, also=(), ext=".c"):
    """The tree's files (ext: C files) matching pattern (if any), or
    matching every regex of also (if any)."""
    out = []
    for dirpath, dirnames, filenames in fswalk.walk(tree):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                             and d not in SKIP_DIRS)
        for fn in sorted(filenames):
            if fn.endswith(ext):
                p = os.path.join(dirpath, fn)
                try:
                    # a FIFO or a device is no source (and would block)
                    with fswalk.open_regular(p) as f:
                        text = f.read(fswalk.MAX_SOURCE)
                    if (pattern and pattern.search(text)) or (also and all(
                            r.search(text) for r in also)):
                        out.append(p)
                except OSError:
                    continue
    return out


_REGISTER = _register_pattern()
_PATS_C = (("pin", PIN), ("param", PARAM_COPY))
# these count only in a file that exports
# ... or export a registration or its undo (the "keeps:" rows)
_KEEP = re.compile(rb"\bEXPORT_SYMBOL\w*\(\s*\w*register\w*\s*[,)]")
_PATS_X = (("stop", STOP), ("fill", FILL), ("wait", WAITS),
           ("last", LAST_REF), ("register", _REGISTER), ("keep", _KEEP))


def c_patterns(text):
    """The names of the patterns a C file's text matches."""
    # the cheap substring tests first: most files have neither
    m = {n for n, r in _PATS_C if n != "pin" or _PIN_GATE(text)
         if r.search(text)}
    if b"EXPORT_SYMBOL" in text and EXPORT.search(text):
        m.add("export")
        m.update(n for n, r in _PATS_X if r.search(text))
    return m


def first_round_c(m):
    """A C file with patterns m is checked in the first round."""
    return "pin" in m or "param" in m or "export" in m and bool(
        {"stop", "fill", "register", "keep"} & m or {"wait", "last"} <= m)


# a name, then "(": a call (or a declaration) of that name
CALL = re.compile(rb"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def called(text):
    """The names text calls, as bytes: what a later round looks for is a
    call of one of its names. A set, not a pattern of the names: a
    regular expression of a thousand alternatives costs some 15 ms a
    file, which a round pays on each of the 11,000 exporting files and
    headers of a tree."""
    return frozenset(CALL.findall(text))


def as_called(names):
    """names (str) as called() has them."""
    return frozenset(n.encode() for n in names)


def calls_one_of(calls, names):
    """Whether calls (called()) has one of names (as_called())."""
    return not calls.isdisjoint(names)


def set_to_this_module(text):
    """The member names the text sets to THIS_MODULE."""
    if b"THIS_MODULE" not in text:
        return set()
    return {m.decode() for m in THIS_MODULE_SET.findall(text)}


class _Index:
    """One read of the tree: which patterns each C file and each header
    of include/ matches (as candidates() would say), and the member
    names some file sets to THIS_MODULE (as _this_module_members())."""

    def __init__(self, tree):
        pats_h = (("nested", NESTED_ARG), ("register", _REGISTER))
        self.c, self.h = {}, {}     # path -> names of patterns matched
        # what a later round looks in: path -> called() of an exporting
        # C file or a header of include/
        self.calls = {}
        self.set_by_modules = set()
        self.member_files = set()   # the files that set them
        top = os.path.abspath(tree)
        inc = os.path.join(top, "include") + os.sep
        for dirpath, dirnames, filenames in fswalk.walk(tree):
            # samples/ has modules setting THIS_MODULE, and no core code
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                                 and (d == "samples" or d not in SKIP_DIRS))
            samples = "samples" in os.path.relpath(
                dirpath, tree).split(os.sep)
            for fn in sorted(filenames):
                if not fn.endswith((".c", ".h")):
                    continue
                p = os.path.join(dirpath, fn)
                text = source_text(p)
                if text is None:
                    continue
                members = set_to_this_module(text)
                if members:
                    self.set_by_modules |= members
                    self.member_files.add(p)
                if samples:
                    continue
                if fn.endswith(".c"):
                    self.c[p] = c_patterns(text)
                    if "export" in self.c[p]:
                        self.calls[p] = called(text)
                elif os.path.abspath(p).startswith(inc):
                    self.h[p] = {n for n, r in pats_h if r.search(text)}
                    self.calls[p] = called(text)

    def _with(self, table, *names):
        return [p for p, m in table.items() if set(names) <= m]

    def first_round(self):
        c = self.c
        files = [p for p, m in c.items()
                 if "pin" in m or {"export", "stop"} <= m]
        # (first_round_c() says the same of one C file's patterns)
        seen = set(files)

        def add(group):
            for f in group:
                if f not in seen:
                    seen.add(f)
                    files.append(f)
        add(self._with(c, "param"))
        add(self._with(c, "export", "fill"))
        # headers are checked as files of their own for their inline
        # helpers
        add(self._with(self.h, "nested"))
        add(self._with(c, "export", "wait", "last"))
        add(self._with(c, "export", "register") +
            self._with(self.h, "register"))
        add(self._with(c, "export", "keep"))
        return files

    def calling(self, names):
        """The exporting C files and the headers of include/ that call
        one of names (a later round's new helper names)."""
        want = as_called(names)
        return [p for p in self._with(self.c, "export") + list(self.h)
                if calls_one_of(self.calls[p], want)]


def _checker_problem(binary):
    """Why the checker refuses to start (a MODLIFE_MAX_MEMORY that is no
    size), once, or None: else each file would fail on its own, said
    only as "not parsed"."""
    try:
        res = subprocess.run([binary, "--modlife-kb-scan"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    if res.returncode <= 0:
        return None
    lines = res.stderr.decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else "%s exited with %d" % (binary,
                                                          res.returncode)


def setup(tree, kdir, own=None, write=None, cache_dir=None):
    """(base flags, trusted flags, module map) the knowledge scan of
    tree parses its files with: kdir's configured headers (its flags
    learned into cache_dir), or (kdir None) the tree's own, as a scan of
    the tree does (own: an OwnHeaders; write(files): the directory
    holding the generated headers)."""
    root = os.path.abspath(tree)
    if kdir:
        flags = kflags.kernel_flags(kdir, cache_dir)
        return flags, flags, ModuleMap(Kconfig(kdir=kdir), root=root,
                                       mode="kdir")
    kconfig = Kconfig(tree=root)
    kconfig.set_config(own.config(kconfig))
    flags, trusted, _ = own.tree_setup(root, kconfig, write)
    return flags, trusted, ModuleMap(kconfig, root=root, mode="kdir")


def build(tree, base, mmap, jobs, out_path, say=None, mode=0o600,
          trusted=(), record=None):
    """Writes the knowledge of tree to out_path (atomically, with file
    mode); returns (the summary line, how many files failed for this run
    only: timeouts, signals). say(text): each round's progress; trusted:
    the flags whose include directories need no look for FIFOs; record
    (a dict) gets what the result depends on: "files" checked, "names"
    of the helpers later rounds looked for, "members" set to
    THIS_MODULE and their "member_files"."""
    if not os.path.isdir(os.path.join(tree, "include", "linux")):
        raise KbError("%s is not a kernel source tree" % tree)
    binary = paths.sparse_binary()
    if not binary:
        raise KbError("modlife-sparse is not built (run make)")
    problem = _checker_problem(binary)
    if problem:
        raise KbError(problem)
    say = say or (lambda text: sys.stderr.write("modlife kb: %s\n" % text))
    index = _Index(tree)
    files = index.first_round()
    reads, copies, failed = {}, set(), 0
    transient = []
    params, args = {}, set()    # owner parameters copied, owners passed
    members = {}    # type -> {owner member name: how often read}
    per_file, done, names, barriers, stops = [], set(), set(), {}, {}
    registers, user_waits, keeps = {}, {}, {}
    fills = {"fill": [], "bind": {}, "fallback": {}, "pin": []}
    pin_rows = {}
    with tempfile.NamedTemporaryFile("w", suffix=".tsv") as empty_kb:
        for rnd in range(MAX_ROUNDS):
            say("round %d: %d files" % (rnd + 1, len(files)))
            failed += _scan(binary, empty_kb.name, base, mmap, jobs, tree,
                            files, per_file, reads, copies, members,
                            params, args, fills, trusted, transient)
            done.update(files)
            # files calling a helper found so far may export helpers of
            # their own that reach it (tcf_unregister_action() ->
            # unregister_pernet_subsys() -> rcu_barrier())
            barriers = _barrier_helpers(per_file)
            teardown = set().union(*(p[4] for p in per_file))
            stops = _stop_helpers(per_file, teardown)
            registers = _register_helpers(per_file)
            keeps = _keep_helpers(per_file)
            user_waits = _user_wait_helpers(per_file)
            pin_rows, pin_names = _pin_helpers(per_file, fills["pin"])
            new = (set(barriers) | {fn for fn in stops
                                    if fn in teardown} |
                   {fn for fn, _ in registers} | {fn for fn, _ in keeps} |
                   set(user_waits) |
                   pin_names) - names
            names |= new
            if not new:
                break
            files = [f for f in index.calling(new) if f not in done]
            if not files:
                break

    # T's owner passed to a helper that copies that parameter into U's
    for callee, k, frm, frm_member in sorted(args):
        if (callee, k) in params:
            to, where = params[(callee, k)]
            copies.add((frm, to, where))
            m = members.setdefault(frm, {})
            m[frm_member] = m.get(frm_member, 0) + 1

    def core_first(entry):
        # name core code, at an open/get path, before a driver that
        # happens to pin the same type
        path = entry[0]
        fn = path.rsplit(" ", 1)[-1]
        if not path.startswith(("drivers/", "sound/", "arch/")) or \
                path.startswith("drivers/base/"):
            tier = 0
        else:
            tier = 1 if re.search(r"core|lib", path) else 2
        return (tier, 0 if "open" in fn else 1 if "get" in fn else 2, path)

    # an owner field not named owner counts when modules set it to
    # THIS_MODULE somewhere (crypto_alg.cra_module); klp_object.mod, which
    # the core fills in, does not
    set_by_modules = index.set_by_modules
    if record is not None:
        record.update(files=set(done), names=set(names),
                      members=set(set_by_modules),
                      member_files=set(index.member_files))
    owner_member = {}
    for t, m in members.items():
        if "owner" in m:
            continue
        named = [k for k in sorted(m, key=lambda k: (-m[k], k))
                 if k in set_by_modules]
        if named:
            owner_member[t] = named[0]
    matters, bind_pins = {}, {}
    for t, sites in reads.items():
        if t.startswith("struct module"):
            continue
        if "owner" not in members.get(t, {}) and t not in owner_member:
            continue
        held = [w for w, _ in sites if w not in fills["bind"] or
                fills["bind"][w][0] in reads]
        if not held:
            # every pin lasts only while the table's callbacks hold
            # what they set up: no user-held reference keeps it
            where = sorted(w for w, _ in sites)[0]
            bind_pins[t] = (where, fills["bind"][where])
            continue
        best = sorted(sites, key=core_first)
        where, how = best[0]
        if len(best) > 1:
            where += " (and %d more)" % (len(best) - 1)
        matters[t] = (where, how)
    changed = True
    while changed:
        changed = False
        for src, dst, where in sorted(copies):
            if dst in matters and src not in matters:
                matters[src] = (where, "copied into %s owner" % dst)
                changed = True
    for t in [t for t in bind_pins if t in matters]:
        del bind_pins[t]     # copied into an owner that user space pins
    fill_rows = _fill_helpers(per_file, fills["fill"])
    # an owner copied between two objects of one type: the core merges
    # tables (ib_set_device_ops()), so one table's owner covers the rest
    merges = {src: where for src, dst, where in sorted(copies, reverse=True)
              if src == dst and src in matters}
    version = _tree_version(tree)
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    # two builds at once never meet; a file name that is no UTF-8 (the
    # tree's) is written with "?"
    fswalk.replace_with(out_path, lambda f: _write(
        f, version, done, failed, matters, owner_member, bind_pins, fills,
        fill_rows, merges, barriers, stops, registers, user_waits,
        pin_rows, keeps),
        mode, errors="replace")
    return ("%d types, %d merged, %d barrier helpers, %d stop "
            "helpers (%d stops), %d registration helpers (%d held), %d "
            "keeping parameters, %d user-wait helpers from %d files (%d "
            "not parsed)" % (
                len(matters), len(merges), len(barriers), len(stops),
                sum(len(k) for _, k in stops.values()), len(registers),
                sum(1 for v in registers.values() if v[2]), len(keeps),
                len(user_waits), len(done), failed)), len(transient)


def _write(f, version, done, failed, matters, owner_member, bind_pins,
           fills, fill_rows, merges, barriers, stops, registers, user_waits,
           pin_rows, keeps):
    f.write("# SPDX-License-Identifier: GPL-2.0-only\n")
    f.write("# Struct types whose owner core code reads to pin a module.\n")
    f.write("# Generated by './modlife kb' from Linux %s: %d files "
            "checked, %d not parsed.\n" % (version, len(done), failed))
    f.write("# type\twhere the owner is read\thow\n")
    for t in sorted(matters):
        where, how = matters[t]
        f.write("%s\t%s\t%s\n" % (t, where, how))
    f.write("# owner fields not named owner: the member core code "
            "pins\n")
    for t in sorted(matters):
        if t in owner_member:
            f.write("owner-member:%s\t%s\towner field\n" % (
                t, owner_member[t]))
    f.write("# types whose owner only a table's callbacks pin, from "
            "one that sets up to a teardown one: no user-held "
            "reference\n")
    for t in sorted(bind_pins):
        where, (stype, table, member, drop) = bind_pins[t]
        f.write("bind-pin:%s\t%s\tpinned by %s.%s, dropped by .%s "
                "(%s)\n" % (t, where, stype, member, drop, table))
    f.write("# types whose owner the core takes from the driver bound "
            "to the object's device when it is NULL\n")
    for t in sorted(fills["fallback"]):
        if t in matters:
            f.write("fallback:%s\t%s\tbound driver's owner\n" % (
                t, fills["fallback"][t]))
    f.write("# exported helpers that fill in the owner of what their "
            "caller passes as parameter N: the path to it, and from "
            "what (param:M: the caller's argument M; core: the "
            "helper's own code; driver: the driver bound to the "
            "device)\n")
    for (name, n), rows in sorted(fill_rows.items()):
        for path, src, where in sorted(rows):
            f.write("fills:%s:%d\t%s %s\t%s\n" % (
                name, n, path or "-", src, where))
    f.write("# exported helpers that pin the owner of what their caller "
            "passes as parameter N before they return: a module's own "
            "call pins the module itself\n")
    for (name, n), (t, where) in sorted(pin_rows.items()):
        if t in matters:
            f.write("pins-at-call:%s:%d\t%s\t%s\n" % (name, n, t, where))
    f.write("# types whose owner the core merges between tables\n")
    for t in sorted(merges):
        f.write("merge:%s\t%s\towner merged\n" % (t, merges[t]))
    f.write("# exported helpers that reach rcu_barrier() themselves\n")
    for name in sorted(barriers):
        f.write("barrier:%s\t%s\trcu_barrier\n" % (name,
                                                   barriers[name]))
    f.write("# exported helpers that stop work, timers or threads of "
            "their callers' types: what each provides\n")
    for name in sorted(stops):
        where, keys = stops[name]
        for key in sorted(keys):
            f.write("stops:%s\t%s\t%s\n" % (name, key, where))
    f.write("# exported helpers that register the object their "
            "caller passes as parameter N (or its member named)\n")
    for name, n in sorted(registers):
        path, where, held = registers[(name, n)]
        f.write("registers:%s:%d\t%s\t%s\n" % (
            name, n, path or "-",
            "held: %s" % held if held else "register: " + where))
    f.write("# exported functions that keep what their caller passes as "
            "parameter N (or its member named) until the undo named "
            "takes it back\n")
    for name, n in sorted(keeps):
        path, undo, where = keeps[(name, n)]
        f.write("keeps:%s:%d\t%s\tundo: %s\n" % (name, n, path or "-",
                                                  where))
    f.write("# exported helpers that wait with no time limit for what "
            "only a file's close signals: what each waits for, where\n")
    for name in sorted(user_waits):
        why, where = user_waits[name]
        f.write("user-wait:%s\t%s\t%s\n" % (name, why, where))


_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f]")
THIS_MODULE_SET = re.compile(rb"[.>]\s*([A-Za-z_]\w*)\s*=\s*THIS_MODULE\b")


def _this_module_members(tree):
    """Member names that some file of the tree sets to THIS_MODULE."""
    return _Index(tree).set_by_modules


def source_text(path):
    """The bytes of a source file of the tree (up to the size a source
    may have), or None: not there, or no regular file (a FIFO would
    block)."""
    try:
        with fswalk.open_regular(path) as f:
            return f.read(fswalk.MAX_SOURCE)
    except OSError:
        return None


def _checked(binary, kb_path, flags, path, trusted):
    """The checker's run on path, unless a header it would open is a
    FIFO or a device (it would wait until its timeout)."""
    irregular = includes.irregular_include(path, flags, trusted)
    if irregular:
        return [], irregular
    return sparse_engine.run(binary, kb_path, flags, path)


def _scan(binary, kb_path, base, mmap, jobs, tree, files, per_file, reads,
          copies, members, params, args, fills=None, trusted=(),
          transient=None):
    """Checks files with --modlife-kb-scan; returns how many failed (the
    errors of this run only also appended to transient).
    fills: {"fill": [...], "bind": set(), "fallback": {}}, filled in by
    _owner_fills()."""
    failed = 0
    pool = concurrent.futures.ThreadPoolExecutor(jobs)
    try:
        futs = {}
        for f in files:
            fl = kflags.file_flags(base, f, False, "kb") + mmap.flags(f)
            fl = ["--modlife-kb-scan"] + fl
            futs[pool.submit(_checked, binary, kb_path, fl, f,
                             trusted)] = f
        for fut in concurrent.futures.as_completed(futs):
            lines, err = fut.result()
            if isinstance(err, sparse_engine.Transient) and \
                    transient is not None:
                transient.append(futs[fut])
            facts = sparse_engine.parse(lines)
            for x in facts:
                # a file name is a field of a row: a tab or a newline in
                # it (the tree is anyone's) must not make rows
                if isinstance(x.get("file"), str):
                    x["file"] = _UNPRINTABLE.sub("?", x["file"])
            if err:
                failed += 1
            per_file.append(_file_calls(facts, tree,
                                        futs[fut].endswith(".h")))
            if fills is not None:
                _owner_fills(facts, tree, len(per_file) - 1, fills)
            for x in facts:
                if x.get("k") == "owner_arg":
                    args.add((x["callee"], x["param"], x["from"],
                              x["from_member"]))
                if x.get("k") not in ("owner_read", "owner_copy",
                                      "owner_param"):
                    continue
                where = "%s:%d %s()" % (os.path.relpath(x["file"], tree),
                                        x["line"], x.get("fn") or "?")
                if x["k"] == "owner_param":
                    params.setdefault((x["fn"], x["param"]), (x["to"], where))
                elif x["k"] == "owner_read":
                    reads.setdefault(x["type"], set()).add((where, x["how"]))
                    m = members.setdefault(x["type"], {})
                    name = x.get("member", "owner")
                    m[name] = m.get(name, 0) + 1
                else:
                    copies.add((x["from"], x["to"], where))
                    m = members.setdefault(x["from"], {})
                    name = x.get("from_member", "owner")
                    m[name] = m.get(name, 0) + 1
    finally:
        # interrupted (SIGTERM, ^C): the files not started are not
        pool.shutdown(wait=True, cancel_futures=True)
    return failed


def _where(x, tree, fn=None):
    return "%s:%d %s()" % (os.path.relpath(x["file"], tree), x["line"],
                           fn or x.get("fn") or "?")


def _owner_fills(facts, tree, i, out):
    """What one file says of owners beyond reads and copies:
    - out["fill"]: (file index, fn, param, path, src, where) of each
      owner_fill fact: the function fills in the owner of what its caller
      passes (src "param:M", "core" or "driver");
    - out["pin"]: (file index, fn, param, T, where) of each owner_read
      fact of the owner of what the function's parameter points to: the
      function pins the owner of its caller's object as it runs;
    - out["fallback"]: {T: where} when a function copies T's owner into
      U's and also gives U the owner of the driver bound to the device
      (nvmem_register(): a NULL config->owner falls back to it);
    - out["bind"]: the read sites (as "where") of pins that a callback of
      a static table takes and a teardown callback of the same table
      drops, a callback that undoes it by name
      (hdac_component_master_bind() / _unbind()): they last as long as
      what the table's callbacks set up, not while user space holds
      something."""
    stores, puts, copies = {}, {}, {}
    for x in facts:
        k = x.get("k")
        if k == "owner_read" and x.get("fn") and x.get("param", -1) >= 0:
            out["pin"].append((i, x["fn"], x["param"], x["type"],
                               _where(x, tree)))
        if k == "owner_fill":
            out["fill"].append((i, x["fn"], x["param"], x["path"], x["src"],
                                _where(x, tree)))
        elif k == "kstore":
            stores.setdefault(x["fn"], []).append(
                (x["table"], x["type"], x["member"]))
        elif k == "owner_put":
            puts.setdefault((x["type"], x["member"]), set()).add(x["fn"])
        elif k == "owner_copy" and x.get("fn"):
            copies.setdefault((x["fn"], x["to"]), []).append(
                (x["from"], _where(x, tree)))
    for (fn, to), srcs in copies.items():
        if any(frm == "struct device_driver" for frm, _ in srcs):
            for frm, where in srcs:
                if frm not in ("struct device_driver", to):
                    out["fallback"].setdefault(frm, where)
    for x in facts:
        if x.get("k") != "owner_read" or not x.get("fn"):
            continue
        for table, stype, member in stores.get(x["fn"], ()):
            if TEARDOWN_WORD.search(member):
                continue
            dropped = [m for fn in puts.get((x["type"], x["member"]), ())
                       for t, _, m in stores.get(fn, ())
                       if t == table and _undoes(m, member)]
            if dropped:
                out["bind"][_where(x, tree)] = (
                    stype, table, member, sorted(dropped)[0])


def _undoes(teardown, setup):
    """Whether callback member @teardown undoes @setup by its name:
    unbind/bind, detach/attach, disconnect/connect, deinit/init,
    unregister/register. An open's release or close is not one: a file
    or a device held open is what user space holds."""
    if not TEARDOWN_WORD.search(teardown):
        return False
    if setup.startswith("at"):
        setup = setup[2:]
    return any(teardown == p + setup for p in ("un", "de", "dis"))


def _file_calls(facts, tree, header):
    """(same-file calls {from: {to}}, exported functions {fn: where},
    stops {fn: {key}}, the file's functions {name: is static}, the
    teardown-like names the checker saw called or exported, parameters
    handed on [kparam fact], completions {(kdone|kwait, key, fn)},
    functions copying an owner parameter into a cdev, whether the file is
    a header, waits only user space ends {fn: (why, where)}, the struct
    each parameter of each function points to {fn: "T|-|..."})."""
    calls, exports, stops, defs, teardown = {}, {}, {}, {}, set()
    sigs = {}
    params, completions, cdev_owner, user_waits = [], set(), set(), {}
    for x in facts:
        if x.get("k") == "kparam":
            x["where"] = "%s:%d %s()" % (os.path.relpath(x["file"], tree),
                                         x["line"], x["from"])
            params.append(x)
        elif x.get("k") in ("kdone", "kwait"):
            completions.add((x["k"], x["key"], x["fn"]))
        elif x.get("k") == "owner_param" and x["to"] == "struct cdev":
            cdev_owner.add(x["fn"])
        elif x.get("k") == "kxwait":
            user_waits.setdefault(x["fn"], (x["why"], "%s:%d" % (
                os.path.relpath(x["file"], tree), x["line"])))
        if x.get("teardown"):
            teardown.add(x.get("to") or x.get("fn"))
        if x.get("k") == "kcall":
            calls.setdefault(x["from"], set()).add(x["to"])
        elif x.get("k") == "export":
            exports[x["fn"]] = "%s:%d %s()" % (
                os.path.relpath(x["file"], tree), x["line"], x["fn"])
        elif x.get("k") == "kfn":
            defs[x["name"]] = bool(x.get("static"))
            sigs[x["name"]] = x.get("params", "")
        elif x.get("k") == "provide_if_may_reach" and (
                x["key"].startswith(STOP_KEYS) or x["key"] in STOP_GLOBAL) \
                and not GENERIC.search(x["key"]):
            stops.setdefault(x["fn"], set()).add(x["key"])
    return (calls, exports, stops, defs, teardown, params, completions,
            cdev_owner, header, user_waits, sigs)


def _node(i, defs, name):
    """A function of file i: a static one is its file's, others are one
    per name."""
    return (i, name) if defs.get(name) else name


def _held_types(per_file):
    """{struct type: why the core holds its objects}: a release callback
    (a function named *release*) completes a completion of the type that
    core code waits for (i2c_adapter_dev_release() and i2c_del_adapter()
    on struct i2c_adapter.dev_released)."""
    done, waits = set(), {}
    for p in per_file:
        for k, key, fn in p[6]:
            if k == "kdone" and "release" in fn:
                done.add(key)
            elif k == "kwait":
                waits.setdefault(key, set()).add(fn)

    def teardown_first(fn):
        # name the unregistration (i2c_del_adapter()), not an error path
        return (not TEARDOWN_WORD.search(fn), fn)

    return {key.split(".")[0]: "%s() waits for the release (%s)" % (
        min(waits[key], key=teardown_first), key)
        for key in sorted(done) if key in waits}


def _register_helpers(per_file):
    """{(exported fn, parameter): (member path, where, held)}: parameters
    whose object (or its member on the path) the function registers: a
    kb/api.tsv registration's argument, or handed to a function that
    registers it, in any file (exported names are one per name, static
    ones their file's; a header's inline functions count as exported).
    held: why the core holds the object, if it does (see _held_types();
    or the function copies an owner into a cdev)."""
    held_types = _held_types(per_file)
    sinks, edges, exported, todo = {}, [], set(), []
    for i, p in enumerate(per_file):
        exported |= set(p[1])
        if p[8]:
            # a header's inline functions are every module's to call
            # (video_register_device() -> __video_register_device())
            exported |= set(p[3])
        todo += [(x["where"], x["param"], x["arg"], x["to"], i, n)
                 for n, x in enumerate(p[5])]
    # in source order, whatever order the files were checked in
    for *_, i, n in sorted(todo):
        _, _, _, defs, _, params, _, cdev_owner, header, *_ = per_file[i]
        x = params[n]
        if header:
            defs = {}
        src = (_node(i, defs, x["from"]), x["param"])
        held = held_types.get(x["type"])
        if x["from"] in cdev_owner:
            held = held or "%s() pins the module through its cdev's " \
                "owner" % x["from"]
        if x["register"]:
            if src not in sinks or (held and not sinks[src][2]):
                sinks[src] = (x["path"], x["where"], held)
        else:
            edges.append((src, (_node(i, defs, x["to"]), x["arg"]),
                          x["path"], held))
    _spread(sinks, edges, lambda edge, sink: (
        edge[2] + sink[0], sink[1], edge[3] or sink[2]))
    # kb/api.tsv's registrations are known as they are; devm_ variants
    # are not registrations (as kb/api.tsv leaves them out)
    known = [name for cls, name in paths.kb_api() if cls == "register"]
    return {(n, p): v for (n, p), v in sinks.items()
            if isinstance(n, str) and n in exported and
            not DEVM.match(n) and
            not any(fnmatch.fnmatchcase(n, k) for k in known)}


def _spread(sinks, edges, carry):
    """Closes sinks {(fn node, param): value} over the edges (source,
    destination, ...) of _param_edges(): a source handing its parameter
    on to a sink's becomes a sink, with carry(edge, the sink's value),
    unless that is None, until nothing changes."""
    changed = True
    while changed:
        changed = False
        for edge in edges:
            src, dst = edge[0], edge[1]
            if dst in sinks and src not in sinks:
                value = carry(edge, sinks[dst])
                if value is not None:
                    sinks[src] = value
                    changed = True


# the devm_ functions: the core takes back what they set up, at unbind
DEVM = re.compile(r"_*devm_")
# calls handing the core an action to run at unbind (kb/api.tsv)
DEVRES = tuple(name for cls, name in paths.kb_api() if cls == "devres")
REGISTER_WORD = re.compile(r"(?:^|(?<=_))register(?=_|$)")


def _undo_names(name):
    """The names that would take back what @name registers, leading
    underscores aside: each "register" word of it as "unregister" or
    "deregister" (misc_register(): misc_deregister())."""
    base = name.lstrip("_")
    return {base[:m.start()] + p + base[m.start():]
            for m in REGISTER_WORD.finditer(base) for p in ("un", "de")}


def _keep_helpers(per_file):
    """{(exported fn, parameter): (member path, undo, where)}: functions
    that keep what their caller passes until the caller takes it back.
    A registration keeps parameter N when the tree has a function named
    as its undo (_undo_names()) that takes the same struct: what the
    undo is given back is what the registration kept (misc_register()
    and misc_deregister(), struct miscdevice). A function handing its
    parameter (or a member of it) to such a parameter keeps it too
    (__platform_driver_probe() -> __platform_driver_register()), in any
    file, unless its name is teardown-like. devm_ functions, and those
    that hand the core an action for unbind (kb/api.tsv's devres class:
    snd_soc_jack_add_gpios()), take back what they register themselves:
    they keep nothing."""
    sigs, wheres, undoing = {}, {}, set()
    for i, p in enumerate(per_file):
        shared = set(p[1]) | (set(p[3]) if p[8] else set())
        wheres.update(p[1])
        defs = {} if p[8] else p[3]
        undoing |= {_node(i, defs, fn) for fn, to in p[0].items()
                    if any(fnmatch.fnmatchcase(t, d) for t in to
                           for d in DEVRES)}
        for name, sig in p[10].items():
            if name in shared and sig and not DEVM.match(name) and \
                    name not in undoing:
                sigs.setdefault(name, sig.split("|"))
    by_base = {}
    for name in sigs:
        by_base.setdefault(name.lstrip("_"), []).append(name)
    sinks = {}
    for name in sorted(sigs):
        undos = sorted(u for b in _undo_names(name)
                       for u in by_base.get(b, ()))
        for n, t in enumerate(sigs[name]):
            for u in undos:
                if t != "-" and t in sigs[u]:
                    sinks.setdefault((name, n), (
                        "", u, wheres.get(u, "%s()" % u)))
    exported, edges = _param_edges(per_file)

    def carry(edge, sink):
        node = edge[0][0]
        name = node[1] if isinstance(node, tuple) else node
        if TEARDOWN_WORD.search(name) or DEVM.match(name) or \
                node in undoing:
            return None
        return (edge[2] + sink[0], sink[1], sink[2])

    _spread(sinks, edges, carry)
    return {(n, p): v for (n, p), v in sinks.items()
            if isinstance(n, str) and n in exported}


def _param_edges(per_file):
    """(exported functions, [((fn node, param), (callee node, arg),
    path, type)]): the functions every module can call (a header's
    inline ones too), and each pointer parameter, or a member of what it
    points to (path), handed to a call (kparam facts)."""
    exported, edges = set(), []
    for i, p in enumerate(per_file):
        exported |= set(p[1])
        defs = p[3]
        if p[8]:
            exported |= set(p[3])
            defs = {}
        for x in p[5]:
            edges.append(((_node(i, defs, x["from"]), x["param"]),
                          (_node(i, defs, x["to"]), x["arg"]), x["path"],
                          x["type"]))
    return exported, edges


def _fill_helpers(per_file, fill_facts):
    """{(exported fn, parameter): {(path, src, where)}}: the owners a
    function fills in for its caller (owner_fill facts), also through
    the functions it hands the parameter to (mtd_device_parse_register()
    -> mtd_set_dev_defaults()); an owner from the callee's own
    parameter is followed only where the caller passes it directly."""
    fills = {}
    for i, fn, param, path, src, where in fill_facts:
        p = per_file[i]
        defs = {} if p[8] else p[3]
        fills.setdefault((_node(i, defs, fn), param), set()).add(
            ("" if path == "-" else path, src, where))
    exported, edges = _param_edges(per_file)
    changed = True
    while changed:
        changed = False
        for src, dst, path, _ in edges:
            for dpath, how, where in sorted(fills.get(dst, ())):
                if how.startswith("param:"):
                    continue
                row = (path + dpath, how, where)
                if len(row[0]) > 200:
                    continue    # a recursion handing a member on
                have = fills.setdefault(src, set())
                if row not in have:
                    have.add(row)
                    changed = True
    return {k: v for k, v in fills.items()
            if isinstance(k[0], str) and k[0] in exported}


def _pin_helpers(per_file, pin_facts):
    """({(exported fn, parameter): (T, where)}, {names}): functions that
    pin the owner of the T their caller passes as that parameter before
    they return, themselves or through the functions they hand the
    parameter itself to (kern_mount() -> vfs_kern_mount() ->
    fs_context_for_mount() -> alloc_fs_context() -> get_filesystem()).
    A caller's own object passed to one is pinned by the caller's call,
    not by a path user space starts, when nothing else holds it. Where
    several reads are reached, the first in file order is named, however
    the files' checks finished. names: the functions on such chains that
    other files can call (later rounds look for their callers)."""
    pins = {}
    for i, fn, param, stype, where in pin_facts:
        p = per_file[i]
        defs = {} if p[8] else p[3]
        node = (_node(i, defs, fn), param)
        pins[node] = min(pins.get(node, (stype, where)), (stype, where))
    exported, edges = _param_edges(per_file)
    changed = True
    while changed:
        changed = False
        for src, dst, path, stype in edges:
            if path == "" and dst in pins and pins[dst][0] == stype and (
                    src not in pins or pins[dst] < pins[src]):
                pins[src] = pins[dst]
                changed = True
    names = {k[0] for k in pins if isinstance(k[0], str)}
    return {k: v for k, v in pins.items()
            if isinstance(k[0], str) and k[0] in exported}, names


def _stop_helpers(per_file, teardown):
    """{exported fn: (where, {key})}: what an exported function stops,
    itself or through the functions it calls: those of its file, and
    teardown-like ones elsewhere (rt2x00usb_disconnect() ->
    rt2x00lib_remove_dev(), free_rtllib() -> rtllib_softmac_free() in
    another file of the module). Other calls are not followed: what
    msleep() stops on the way means nothing to a caller."""
    keys, preds, where = {}, {}, {}
    for i, (calls, exports, stops, defs, *_) in enumerate(per_file):
        for fn, k in stops.items():
            keys.setdefault(_node(i, defs, fn), set()).update(k)
        for fn, tos in calls.items():
            src = _node(i, defs, fn)
            for to in tos:
                if to in defs or to in teardown:
                    preds.setdefault(_node(i, defs, to), set()).add(src)
        for fn, w in exports.items():
            where[fn] = w
    todo = list(keys)
    while todo:
        n = todo.pop()
        for p in preds.get(n, ()):
            have = keys.setdefault(p, set())
            if not keys[n] <= have:
                have |= keys[n]
                todo.append(p)
    return {fn: (w, keys[fn]) for fn, w in where.items() if keys.get(fn)}


def _user_wait_helpers(per_file):
    """{exported fn: (why, where)}: exported functions whose calls reach,
    in their own file, a wait with no time limit that only a file's
    ->release (or the kref release of a count a file's open takes)
    signals there, or another exported helper that does."""
    out = {}
    changed = True
    while changed:
        changed = False
        for calls, exports, *rest in per_file:
            waits = rest[7]
            for fn, where in sorted(exports.items()):
                if fn in out:
                    continue
                seen, todo = {fn}, [fn]
                while todo:
                    cur = todo.pop()
                    hit = waits.get(cur)
                    if hit:
                        why, at = hit
                        sig, wait = why.split("|", 1)
                        via = "" if cur == fn else " (through %s())" % cur
                        out[fn] = ("it waits%s in %s at %s, which only %s "
                                   "signals" % (via, wait, at, sig), at)
                    else:
                        helper = sorted(calls.get(cur, set()) & set(out))
                        if helper:
                            out[fn] = ("it calls %s(): %s" % (
                                helper[0], out[helper[0]][0]),
                                out[helper[0]][1])
                    if fn in out:
                        changed = True
                        break
                    for t in sorted(calls.get(cur, ())):
                        if t not in seen:
                            seen.add(t)
                            todo.append(t)
    return out


def _barrier_helpers(per_file):
    """{exported fn: where} for exported functions whose calls reach
    rcu_barrier(): in their own file, or through another exported helper
    that does (tcf_unregister_action() -> unregister_pernet_subsys())."""
    out = {}
    changed = True
    while changed:
        changed = False
        known = set(BARRIERS) | set(out)
        for calls, exports, *_ in per_file:
            for fn, where in exports.items():
                if fn in out:
                    continue
                seen, todo = {fn}, [fn]
                while todo:
                    cur = todo.pop()
                    if calls.get(cur, set()) & known:
                        out[fn] = where
                        changed = True
                        break
                    for t in calls.get(cur, ()):
                        if t not in seen:
                            seen.add(t)
                            todo.append(t)
    return out


def _tree_version(tree):
    v = {}
    try:
        with fswalk.open_regular(os.path.join(tree, "Makefile")) as raw:
            f = raw.read(1 << 20).decode("utf-8", "replace").splitlines()
            for line in f:
                m = re.match(r"^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)", line)
                if m:
                    v[m.group(1)] = m.group(2)
    except OSError:
        pass
    return ".".join(v.get(k, "?") for k in ("VERSION", "PATCHLEVEL",
                                            "SUBLEVEL"))
