# SPDX-License-Identifier: GPL-2.0-only
"""The checker's files call in layers (sparse-plugin/modlife.h lists
them): no cycle in "object A uses a symbol that object B defines" over
the objects the Makefile links (nm), none among the quoted #includes,
and the file names say what a file is: check_*.c make findings,
trackers (track_*.c, kbscan.c) only state and facts."""
import glob
import os
import re
import subprocess
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLUGIN = os.path.join(ROOT, "sparse-plugin")


def run(args):
    return subprocess.run(args, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


def sparse_src():
    """The sparse source the objects compile against (make deps)."""
    build = os.path.join(ROOT, "build")
    found = sorted(glob.glob(os.path.join(build, "sparse-*", "")))
    return found[0] if found else None


def make(*args):
    src = sparse_src()
    if not src:
        raise AssertionError("no sparse source under build/ (make deps)")
    return run(["make", "-s", "--no-print-directory", "-C", PLUGIN,
                "SPARSE_SRC=" + src] + list(args))


def objects():
    """The Makefile's OBJS, built (objects only: the binary that other
    tests run is not relinked)."""
    res = make("--eval", "print-objs: ; @echo $(OBJS)", "print-objs")
    if res.returncode:
        raise AssertionError(res.stderr[-2000:])
    objs = res.stdout.split()
    res = make(*objs)
    if res.returncode:
        raise AssertionError(res.stderr[-2000:])
    return objs


def symbols(obj):
    """(defined, undefined) global symbols of one object."""
    res = run(["nm", "-P", os.path.join(PLUGIN, obj)])
    if res.returncode:
        raise AssertionError(res.stderr)
    defined, undefined = set(), set()
    for ln in res.stdout.splitlines():
        f = ln.split()
        if len(f) < 2:
            continue
        if f[1] == "U":
            undefined.add(f[0])
        elif f[1].isupper():
            defined.add(f[0])
    return defined, undefined


def symbol_graph(syms):
    """{object: {object it uses: [symbols]}}, from {object: symbols()}"""
    objs = sorted(syms)
    where, uses = {}, {}
    for o in objs:
        defined, undefined = syms[o]
        for s in defined:
            where.setdefault(s, o)
        uses[o] = undefined
    graph = {}
    for o in objs:
        edges = graph.setdefault(o, {})
        for s in sorted(uses[o]):
            d = where.get(s)
            if d and d != o:
                edges.setdefault(d, []).append(s)
    return graph


def include_graph():
    """{file: {file it includes: ['#include']}} over sparse-plugin's own
    files (sparse's headers are not ours)."""
    files = sorted(os.path.basename(p) for p in
                   glob.glob(os.path.join(PLUGIN, "*.[ch]")))
    graph = {}
    for name in files:
        edges = graph.setdefault(name, {})
        with open(os.path.join(PLUGIN, name), errors="replace") as f:
            for ln in f:
                m = re.match(r'\s*#\s*include\s*"([^"]+)"', ln)
                if m and m.group(1) in files and m.group(1) != name:
                    edges.setdefault(m.group(1), []).append("#include")
    return graph


def find_cycle(graph):
    """A cycle as [a, b, ..., a], or None; depth first, in name order."""
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, {})):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if not state.get(m):
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if not state.get(n):
            found = visit(n)
            if found:
                return found
    return None


def describe(graph, cycle):
    """"a.o -(sym)-> b.o -(sym)-> a.o"."""
    out = cycle[0]
    for a, b in zip(cycle, cycle[1:]):
        why = graph[a][b]
        out += " -(%s%s)-> %s" % (", ".join(why[:3]),
                                  ", ..." if len(why) > 3 else "", b)
    return out


class LayersTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.objs = objects()
        cls.syms = dict((o, symbols(o)) for o in cls.objs)
        cls.graph = symbol_graph(cls.syms)

    def test_no_call_cycle_among_objects(self):
        cycle = find_cycle(self.graph)
        self.assertIsNone(cycle, cycle and "a cycle among sparse-plugin's "
                          "objects: " + describe(self.graph, cycle))

    def test_no_include_cycle(self):
        graph = include_graph()
        self.assertIn("facts.h", graph["modlife.h"])
        cycle = find_cycle(graph)
        self.assertIsNone(cycle, cycle and "a cycle among sparse-plugin's "
                          "#includes: " + describe(graph, cycle))

    def test_checks_never_call_the_driver(self):
        for o in self.objs:
            used = self.graph[o].get("main.o")
            if used and (o.startswith(("check_", "track_")) or
                         o == "kbscan.o"):
                self.fail("%s uses main.o's %s" % (o, ", ".join(used)))

    def test_file_names_say_what_makes_findings(self):
        """A rule check makes findings (finding_new()); a tracker, whose
        state or facts rules build on, makes none of its own."""
        for o in self.objs:
            finds = "finding_new" in self.syms[o][1]
            if o.startswith("check_") and not finds:
                self.fail("%s makes no finding: a tracker (track_*.c)?" % o)
            if (o.startswith("track_") or o == "kbscan.o") and finds:
                self.fail("%s makes findings: a check (check_*.c)?" % o)

    def test_cycle_finder(self):
        """What the tests above rely on finds a cycle, and names it."""
        graph = {"main.o": {"walk.o": ["walk_tu"]},
                 "walk.o": {"types.o": ["expr_symbol"],
                            "main.o": ["checks"]},
                 "types.o": {}}
        cycle = find_cycle(graph)
        self.assertEqual(cycle, ["main.o", "walk.o", "main.o"])
        self.assertEqual(describe(graph, cycle),
                         "main.o -(walk_tu)-> walk.o -(checks)-> main.o")
        del graph["walk.o"]["main.o"]
        self.assertIsNone(find_cycle(graph))


if __name__ == "__main__":
    unittest.main()
