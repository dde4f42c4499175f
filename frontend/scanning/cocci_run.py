# SPDX-License-Identifier: GPL-2.0-only
"""modlife cocci: the semantic patches over a tree, prefiltered.

spatch's own prefilter is a disjunction of a script's tokens; most kernel
files mention "device" or "release". Each script here names what a file
must contain to match at all, on its "// Prefilter:" line: groups
separated by ';', all required, each a '|' list of alternatives (plain
substrings, so comments count too: a superset of the files that can
match). Where tokens admit too many files, "// Prefilter-re:" lines
add regular expressions (Python syntax, multi-line mode) on the raw text:
one of them must match. A "// Prefilter-and:" line right after it adds a
step to that alternative, searched once per match of the step before,
with each @name@ replaced by what that match's group "name" captured
(a release function's name, then its installation). Each must admit
every file the script can report. Each file is read once for all
scripts; each script then runs once, with the candidate files as
separate groups (--file-groups) over --jobs processes, so the output is
what coccicheck prints.

The files are not trusted: each regular expression must take time
linear in the text (no two ways to match the same characters, scans that
stop where the next candidate starts), and a file whose chains need more
than a bounded number of searches (thousands of distinct captures) is
admitted without deciding: spatch decides it.
"""
import os
import re
import subprocess
import sys
import tempfile

from .atomic_re import is_helper, portable
from .cocci_engine import TIMEOUT, spatch_options
from ..tree.fswalk import MAX_SOURCE, open_regular
from .staging import Staged, display, lead, shown_path


class Prefilter:
    """What a file must contain for a script to match: token groups (all
    required, any token of a group) and regex chains (any chain)."""

    def __init__(self, groups, chains):
        self.groups = groups
        self.chains = chains

    def admits(self, data):
        if not all(any(t in data for t in g) for g in self.groups):
            return False
        if not self.chains:
            return True
        text = data.decode("latin-1")
        # searches of the whole text the chains may make: each capture
        # of a step is one more search of the next step's expression
        seen = {"budget": max(MIN_SEARCHES, SEARCH_CHARS // (len(text) + 1))}
        try:
            return any(_chain(text, c, {}, seen) for c in self.chains)
        except _Undecided:
            return True


# the work of one file's chains: searches of its text, at least
# MIN_SEARCHES, in all SEARCH_CHARS characters
MIN_SEARCHES = 32
SEARCH_CHARS = 8 << 20


class _Undecided(Exception):
    """The chains would take longer than the bound."""


def _spend(seen):
    seen["budget"] -= 1
    if seen["budget"] < 0:
        raise _Undecided()


_GROUP_REF = re.compile(r"@(\w+)@")


def _matches(text, pat, seen):
    """The distinct group captures of pat's matches, once per text."""
    key = ("captures", pat)
    if key not in seen:
        _spend(seen)
        caps, known = [], set()
        for m in re.finditer(pat, text, re.M):
            g = {k: v for k, v in m.groupdict().items()
                 if v is not None and not is_helper(k)}
            k = tuple(sorted(g.items()))
            if k not in known:
                known.add(k)
                caps.append(g)
        seen[key] = caps
    return seen[key]


def _chain(text, steps, groups, seen):
    """Some match of steps[0] (its @name@ filled from groups) leads to a
    match of the rest; seen caches matches shared by chains."""
    pat = _GROUP_REF.sub(lambda m: re.escape(groups.get(m.group(1)) or ""),
                         steps[0])
    if len(steps) == 1:
        key = ("found", pat)
        if key not in seen:
            _spend(seen)
            seen[key] = re.search(pat, text, re.M) is not None
        return seen[key]
    return any(_chain(text, steps[1:], dict(groups, **g), seen)
               for g in _matches(text, pat, seen))


def prefilter(script):
    """The script's Prefilter, or None when it has no "// Prefilter:"
    line. Raises ValueError for a regular expression that does not
    compile or a "Prefilter-and:" line without a chain to extend."""
    groups, chains = None, []
    try:
        with open(script, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for n, line in enumerate(lines, 1):
        key, _, spec = line.partition(":")
        if key == "// Prefilter":
            groups = [[t.strip().encode() for t in g.split("|")
                       if t.strip()]
                      for g in spec.split(";") if g.strip()]
        elif key in ("// Prefilter-re", "// Prefilter-and"):
            try:
                re.compile(_GROUP_REF.sub("x", spec.strip()), re.M)
                spec = portable(spec.strip())
                re.compile(_GROUP_REF.sub("x", spec), re.M)
            except re.error as e:
                raise ValueError("%s:%d: bad regular expression: %s" %
                                 (script, n, e))
            if key == "// Prefilter-re":
                chains.append([spec])
            elif chains:
                chains[-1].append(spec)
            else:
                raise ValueError("%s:%d: Prefilter-and without "
                                 "Prefilter-re" % (script, n))
    if groups is None and not chains:
        return None
    return Prefilter(groups or [], chains)


def candidates(scripts, files, errors):
    """{script: [files that may match]}; unreadable files go to errors."""
    wants = {s: prefilter(s) for s in scripts}
    out = {s: [] for s in scripts}
    for path in files:
        try:
            with open_regular(path) as f:
                data = f.read(MAX_SOURCE + 1)
        except OSError as e:
            errors.append((path, "cannot read: %s" % e.strerror))
            continue
        if len(data) > MAX_SOURCE:
            errors.append((path, "larger than %d MiB: not read"
                           % (MAX_SOURCE >> 20)))
            continue
        for s, want in wants.items():
            if want is None or want.admits(data):
                out[s].append(path)
    return out


def run(script, files, mode, jobs, out=None, err=None):
    """spatch -D mode over the files, one group each; output passed
    through. Returns spatch's exit status (0 when no file)."""
    out = out or sys.stdout
    err = err or sys.stderr
    if not files:
        return 0
    with tempfile.TemporaryDirectory(prefix="modlife-cocci-") as tmp:
        try:
            staged = Staged(tmp, files)
        except OSError as e:
            err.write("modlife: cannot stage files for spatch: %s\n" % e)
            return 2
        groups = os.path.join(tmp, "groups")
        with open(groups, "w") as f:
            f.write("\n\n".join(staged.paths) + "\n")
        cmd = ["spatch", "-D", mode, "--very-quiet"]
        if mode in ("report", "org"):
            cmd.append("--no-show-diff")
        cmd += spatch_options(script) + [
            "--timeout", str(TIMEOUT), "--tmp-dir", tmp,
            "--jobs", str(max(1, jobs)), "--chunksize", "1",
            "--sp-file", script, "--file-groups", groups]
        try:
            res = subprocess.run(cmd, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, cwd=tmp,
                                 stdin=subprocess.DEVNULL)
        except OSError as e:
            err.write("modlife: cannot run spatch: %s\n" % e)
            return 2
    for line in res.stdout.decode("utf-8", "replace").splitlines():
        # a report line begins with the file's name
        out.write(lead(staged.unstage(line, shown_path)) + "\n")
    for line in res.stderr.decode("utf-8", "replace").splitlines():
        if line.strip():
            err.write("modlife: spatch %s: %s\n" %
                      (os.path.basename(script),
                       display(staged.unstage(line, shown_path))))
    return res.returncode
