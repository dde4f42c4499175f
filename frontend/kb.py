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
workqueues named by a struct type and member ("stops:" rows).
"""
import concurrent.futures
import os
import re
import sys
import tempfile

from . import kflags, paths, sparse_engine
from .kconfig import Kconfig
from .modules import ModuleMap

PIN = re.compile(rb"\b(try_module_get|__module_get|fops_get|rcu_barrier|"
                 rb"srcu_barrier)\b")
BARRIERS = ("rcu_barrier",)
# files that may export a helper stopping its caller's work or timers
EXPORT = re.compile(rb"\bEXPORT_SYMBOL")
STOP = re.compile(rb"\b(cancel_work_sync|cancel_delayed_work_sync|flush_work|"
                  rb"flush_delayed_work|destroy_workqueue|flush_workqueue|"
                  rb"drain_workqueue|del_timer_sync|timer_delete_sync|"
                  rb"timer_shutdown_sync|del_singleshot_timer_sync|"
                  rb"hrtimer_cancel|kthread_stop|flush_scheduled_work)\s*\(")
# what a stop provides (check_async.c); only keys naming a struct type and
# member mean the same object in the caller's file
STOP_KEYS = ("exit-cancels:struct ", "exit-cancels-wq:struct ",
             "exit-stops:struct ", "exit-stops-thread:struct ")
STOP_GLOBAL = ("exit-calls:flush_scheduled_work",)
# the async primitives' own wrappers name every object of their kind
# (flush_delayed_work() flushes "struct delayed_work.work")
GENERIC = re.compile(r":struct (%s)\." % "|".join(
    map(re.escape, paths.kb_list("generic-wrappers"))))
MAX_ROUNDS = 6
# registration helpers copying a "struct module *" parameter into an owner
# (__video_register_device(): vdev->cdev->owner = owner), and callers
# passing a nested table's owner to one (video_register_device(), an
# inline of include/media/v4l2-dev.h: vdev->fops->owner)
PARAM_COPY = re.compile(rb"(->|\.)\s*(owner|module)\s*=\s*[a-z_]\w*\s*;")
NESTED_ARG = re.compile(rb"[(,]\s*\w+\s*(->|\.)\s*\w+\s*(->|\.)\s*owner\s*\)")


class KbError(Exception):
    pass


def candidates(tree, pattern=PIN, also=(), ext=".c"):
    """The tree's files (ext: C files) matching pattern (if any), or
    matching every regex of also (if any)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                             and d not in ("Documentation", "tools",
                                           "samples", "scripts"))
        for fn in sorted(filenames):
            if fn.endswith(ext):
                p = os.path.join(dirpath, fn)
                try:
                    with open(p, "rb") as f:
                        text = f.read()
                    if (pattern and pattern.search(text)) or (also and all(
                            r.search(text) for r in also)):
                        out.append(p)
                except OSError:
                    continue
    return out


def build(tree, kdir, jobs, out_path):
    if not os.path.isdir(os.path.join(tree, "include", "linux")):
        raise KbError("%s is not a kernel source tree" % tree)
    binary = paths.sparse_binary()
    if not binary:
        raise KbError("modlife-sparse is not built (run make)")
    base = kflags.kernel_flags(kdir)
    files = candidates(tree, PIN, (EXPORT, STOP))
    files += [f for f in candidates(tree, PARAM_COPY) if f not in files]
    # headers are checked as files of their own for their inline helpers
    files += candidates(os.path.join(tree, "include"), NESTED_ARG, ext=".h")
    mmap = ModuleMap(Kconfig(kdir=kdir), root=os.path.abspath(tree),
                     mode="kdir")
    reads, copies, failed = {}, set(), 0
    params, args = {}, set()    # owner parameters copied, owners passed
    members = {}    # type -> {owner member name: how often read}
    per_file, done, names, barriers, stops = [], set(), set(), {}, {}
    with tempfile.NamedTemporaryFile("w", suffix=".tsv") as empty_kb:
        for rnd in range(MAX_ROUNDS):
            sys.stderr.write("modlife kb: round %d: %d files\n" % (
                rnd + 1, len(files)))
            failed += _scan(binary, empty_kb.name, base, mmap, jobs, tree,
                            files, per_file, reads, copies, members,
                            params, args)
            done.update(files)
            # files calling a helper found so far may export helpers of
            # their own that reach it (tcf_unregister_action() ->
            # unregister_pernet_subsys() -> rcu_barrier())
            barriers = _barrier_helpers(per_file)
            teardown = set().union(*(p[4] for p in per_file))
            stops = _stop_helpers(per_file, teardown)
            new = (set(barriers) | {fn for fn in stops
                                    if fn in teardown}) - names
            names |= new
            if not new:
                break
            pat = re.compile(rb"\b(" + b"|".join(
                re.escape(n.encode()) for n in sorted(new)) + rb")\s*\(")
            files = [f for f in candidates(tree, None, (EXPORT, pat))
                     if f not in done]
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
    set_by_modules = _this_module_members(tree)
    owner_member = {}
    for t, m in members.items():
        if "owner" in m:
            continue
        named = [k for k in sorted(m, key=lambda k: (-m[k], k))
                 if k in set_by_modules]
        if named:
            owner_member[t] = named[0]
    matters = {}
    for t, sites in reads.items():
        if t.startswith("struct module"):
            continue
        if "owner" not in members.get(t, {}) and t not in owner_member:
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
    # an owner copied between two objects of one type: the core merges
    # tables (ib_set_device_ops()), so one table's owner covers the rest
    merges = {src: where for src, dst, where in sorted(copies, reverse=True)
              if src == dst and src in matters}
    version = _tree_version(tree)
    tmp = out_path + ".tmp"
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    with open(tmp, "w") as f:
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
    os.replace(tmp, out_path)
    print("modlife kb: %d types, %d merged, %d barrier helpers, %d stop "
          "helpers (%d stops) from %d files (%d not parsed) -> %s" % (
              len(matters), len(merges), len(barriers), len(stops),
              sum(len(k) for _, k in stops.values()), len(done), failed,
              out_path))
    return 0


THIS_MODULE_SET = re.compile(rb"[.>]\s*([A-Za-z_]\w*)\s*=\s*THIS_MODULE\b")


def _this_module_members(tree):
    """Member names that some file of the tree sets to THIS_MODULE."""
    names = set()
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and
                       d not in ("Documentation", "tools", "scripts")]
        for fn in filenames:
            if not fn.endswith((".c", ".h")):
                continue
            try:
                with open(os.path.join(dirpath, fn), "rb") as f:
                    text = f.read()
            except OSError:
                continue
            if b"THIS_MODULE" in text:
                names.update(m.decode() for m in THIS_MODULE_SET.findall(text))
    return names


def _scan(binary, kb_path, base, mmap, jobs, tree, files, per_file, reads,
          copies, members, params, args):
    """Checks files with --modlife-kb-scan; returns how many failed."""
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futs = {}
        for f in files:
            fl = kflags.file_flags(base, f, False, "kb") + mmap.flags(f)
            fl = ["--modlife-kb-scan"] + fl
            futs[pool.submit(sparse_engine.run, binary, kb_path, fl, f)] = f
        for fut in concurrent.futures.as_completed(futs):
            lines, err = fut.result()
            facts = sparse_engine.parse(lines)
            if err:
                failed += 1
            per_file.append(_file_calls(facts, tree))
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
    return failed


def _file_calls(facts, tree):
    """(same-file calls {from: {to}}, exported functions {fn: where},
    stops {fn: {key}}, the file's functions {name: is static}, the
    teardown-like names the checker saw called or exported)."""
    calls, exports, stops, defs, teardown = {}, {}, {}, {}, set()
    for x in facts:
        if x.get("teardown"):
            teardown.add(x.get("to") or x.get("fn"))
        if x.get("k") == "kcall":
            calls.setdefault(x["from"], set()).add(x["to"])
        elif x.get("k") == "export":
            exports[x["fn"]] = "%s:%d %s()" % (
                os.path.relpath(x["file"], tree), x["line"], x["fn"])
        elif x.get("k") == "kfn":
            defs[x["name"]] = bool(x.get("static"))
        elif x.get("k") == "provide_if_may_reach" and (
                x["key"].startswith(STOP_KEYS) or x["key"] in STOP_GLOBAL) \
                and not GENERIC.search(x["key"]):
            stops.setdefault(x["fn"], set()).add(x["key"])
    return calls, exports, stops, defs, teardown


def _stop_helpers(per_file, teardown):
    """{exported fn: (where, {key})}: what an exported function stops,
    itself or through the functions it calls: those of its file, and
    teardown-like ones elsewhere (rt2x00usb_disconnect() ->
    rt2x00lib_remove_dev(), free_rtllib() -> rtllib_softmac_free() in
    another file of the module). Other calls are not followed: what
    msleep() stops on the way means nothing to a caller."""
    def node(i, defs, name):
        # a static function is its file's; others are one per name
        return (i, name) if defs.get(name) else name

    keys, preds, where = {}, {}, {}
    for i, (calls, exports, stops, defs, _) in enumerate(per_file):
        for fn, k in stops.items():
            keys.setdefault(node(i, defs, fn), set()).update(k)
        for fn, tos in calls.items():
            src = node(i, defs, fn)
            for to in tos:
                if to in defs or to in teardown:
                    preds.setdefault(node(i, defs, to), set()).add(src)
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
        with open(os.path.join(tree, "Makefile")) as f:
            for line in f:
                m = re.match(r"^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)", line)
                if m:
                    v[m.group(1)] = m.group(2)
    except OSError:
        pass
    return ".".join(v.get(k, "?") for k in ("VERSION", "PATCHLEVEL",
                                            "SUBLEVEL"))
