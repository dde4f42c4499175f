# SPDX-License-Identifier: GPL-2.0-only
"""The link step: decide each candidate finding with the facts of every
file of its module.

A finding fact carries keys: "unless" (dropped when any file of the module
provides one), "requires" (kept only when each is provided; "a|b" means
either) and "unload" (kept only when the module has an exit function).
"implies" facts derive keys from keys (a cdev's owner also pins its fops);
"provide_if_reached" facts hold when the exit function reaches their
function. "path_to" names the function whose exit path replaces %PATH% in
the message.

The call graph is the one sparse-plugin/graph.c builds for one file; keep
the edge rules alike: direct calls (a call through a static table of
function pointers is one to each function in it, as the checker writes
its facts); "ops->member()" to the one function
the module stores into that member (inferred); a driver unregistration to
the driver's remove/disconnect. "provide_if_may_reach" facts use graph.c's
generous "may" graph: every implementation of an ops member, and as extra
roots the functions stored into teardown-like members and the exported
teardown-like functions, the functions a wait lets run ("waits" for
a key: the "runs" functions of that key, and of the items "queued" on
it), and the functions a call passes as arguments (argument "store"
facts with "from"). "provide_unless_exported" facts hold unless an
exported function of the module reaches their function (graph.c's
"exports" graph).
"""
import collections
import re

from . import paths

TEARDOWN = ("remove", "remove_new", "disconnect")
TEARDOWN_WORDS = re.compile(
    r"(^|_)(%s)(_|\Z)|^_*devm_add_action"
    % "|".join(map(re.escape, paths.kb_list("teardown-words"))))


TEARDOWN_OPS = frozenset(paths.kb_list("teardown-ops"))


def is_teardown_name(name):
    return bool(name and TEARDOWN_WORDS.search(name))


def is_teardown_store(struct, member):
    """A function stored into struct's member may run before the unload."""
    return is_teardown_name(member) or \
        "%s.%s" % (struct, member) in TEARDOWN_OPS


class CallGraph:
    def __init__(self, facts):
        self.calls = collections.defaultdict(list)
        self.icalls = collections.defaultdict(list)
        self.unregs = collections.defaultdict(list)
        impls = collections.defaultdict(set)
        self.teardown = collections.defaultdict(list)
        self.may_roots = []
        self.exported = []
        self.waits = collections.defaultdict(list)
        self.runs = collections.defaultdict(list)
        self.queued = collections.defaultdict(list)
        self.passes = collections.defaultdict(list)
        defined, elsewhere = set(), set()
        for f in facts:
            k = f.get("k")
            if k == "call" and f.get("from"):
                self.calls[f["from"]].append(f["to"])
            elif k == "waits":
                self.waits[f["from"]].append(f["key"])
            elif k == "runs":
                self.runs[f["key"]].append(f["fn"])
            elif k == "queued":
                self.queued[f["on"]].append(f["item"])
            elif k == "icall":
                self.icalls[f["from"]].append((f["struct"], f["member"]))
            elif k == "unreg_driver":
                self.unregs[f["from"]].append(f["driver"])
            elif k == "fn" and f.get("exported"):
                self.exported.append(f["name"])
                if is_teardown_name(f["name"]):
                    self.may_roots.append(f["name"])
            elif k == "fn" and not f.get("static"):
                defined.add(f["name"])
            elif k == "export":
                # EXPORT_SYMBOL() in another file than the definition
                elsewhere.add(f["name"])
            elif k == "store":
                if f.get("from"):
                    self.passes[f["from"]].append(f["fn"])
                impls[(f["struct"], f["member"])].add(f["fn"])
                if is_teardown_store(f["struct"], f["member"]):
                    self.may_roots.append(f["fn"])
                if f["member"] in TEARDOWN and f.get("obj"):
                    self.teardown[f["obj"]].append(f["fn"])
        for name in sorted((defined & elsewhere) - set(self.exported)):
            self.exported.append(name)
            if is_teardown_name(name):
                self.may_roots.append(name)
        self.impls = {k: sorted(v) for k, v in impls.items()}
        self.single = {k: v[0] for k, v in self.impls.items()
                       if len(v) == 1}

    def reach(self, roots, may=False):
        """{fn: (parent, inferred)} breadth first from the roots; the
        "may" graph adds graph.c's generous edges and roots."""
        seen = {}
        if may:
            roots = list(roots) + self.may_roots
        queue = collections.deque()
        for r in roots:
            if r not in seen:
                seen[r] = (None, False)
                queue.append(r)
        while queue:
            fn = queue.popleft()
            nexts = [(t, False) for t in self.calls.get(fn, [])]
            for st, m in self.icalls.get(fn, []):
                if may:
                    nexts += [(t, True) for t in self.impls.get((st, m), [])]
                elif (st, m) in self.single:
                    nexts.append((self.single[(st, m)], True))
            for drv in self.unregs.get(fn, []):
                nexts += [(t, False) for t in self.teardown.get(drv, [])]
            if may:
                nexts += [(t, False) for t in self.passes.get(fn, [])]
            for key in self.waits.get(fn, []) if may else ():
                for item in [key] + self.queued.get(key, []):
                    nexts += [(t, False) for t in self.runs.get(item, [])]
            for t, inferred in nexts:
                if t not in seen:
                    seen[t] = (fn, inferred)
                    queue.append(t)
        return seen


def path(reached, fn):
    chain = []
    while fn is not None and len(chain) < 64:
        parent, inferred = reached[fn]
        chain.append(fn + (" (inferred from ops table)" if inferred else ""))
        fn = parent
    return " -> ".join(reversed(chain))


def provided_keys(facts, reached, may_reached=(), export_reached=()):
    keys = set()
    implications = []
    for f in facts:
        k = f.get("k")
        if k == "provide":
            keys.add(f["key"])
        elif k == "implies":
            implications.append((f["if"], f["then"]))
        elif k == "provide_if_reached" and f["fn"] in reached:
            keys.add(f["key"])
        elif k == "provide_if_may_reach" and f["fn"] in may_reached:
            keys.add(f["key"])
        elif k == "provide_unless_exported" and \
                f["fn"] not in export_reached:
            keys.add(f["key"])
    keys.update("exit-reaches:" + fn for fn in reached)
    changed = True
    while changed:
        changed = False
        for a, b in implications:
            if a in keys and b not in keys:
                keys.add(b)
                changed = True
    return keys


def link_module(facts):
    """facts: every fact of one module's files. Returns the findings that
    stand, as fact dicts (message with its exit path filled in)."""
    roots = [f["fn"] for f in facts if f.get("k") == "module_exit"]
    graph = CallGraph(facts)
    reached = graph.reach(roots)
    may = graph.reach(roots, may=True) if roots else {}
    exports = graph.reach(graph.exported)
    keys = provided_keys(facts, reached, may, exports)
    has_exit = bool(roots)
    out = []
    for f in facts:
        if f.get("k") != "finding":
            continue
        if any(k in keys for k in f.get("unless", [])):
            continue
        if not all(any(a in keys for a in r.split("|"))
                   for r in f.get("requires", [])):
            continue
        if f.get("unload") and not has_exit:
            continue
        target = f.get("path_to")
        if target:
            if target not in reached:
                continue
            f = dict(f, message=f["message"].replace(
                "%PATH%", path(reached, target)))
        out.append(f)
    return out
