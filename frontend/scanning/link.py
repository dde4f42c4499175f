# SPDX-License-Identifier: GPL-2.0-only
"""The link step: each module's facts go to the checker's own decision
(modlife-sparse --modlife-link, sparse-plugin/link.c), the one that kbuild
runs per file, and its standing findings come back. Nothing is decided
here: one process serves a whole scan, a module at a time, each ended by
an {"k":"end"} line both ways."""
import json
import subprocess

from . import sparse_engine
from .. import paths
from ..tree import fswalk


class LinkError(Exception):
    pass


class Linker:
    def __init__(self, binary=None, explain=False):
        """explain: the process says on stderr why it dropped each
        candidate finding that does not stand."""
        self.binary = binary or paths.sparse_binary()
        if not self.binary:
            raise LinkError("modlife-sparse is not built (run make)")
        self.explain = explain
        self.proc = None

    def _start(self):
        # its stderr is the scan's: a warning (a key of no prefix that
        # kb/keys.tsv declares) or an explanation is said there and is no
        # error of the scan
        try:
            self.proc = subprocess.Popen(
                [self.binary, "--modlife-link"] +
                (["--modlife-explain"] if self.explain else []),
                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        except OSError as e:
            raise LinkError("cannot run %s: %s" % (self.binary, e))

    def link(self, facts):
        """facts: every fact line of one module's files, as the checker
        wrote them. Returns the findings that stand, as dicts (rule, file,
        line, col, message with its exit path filled in, object,
        experimental)."""
        if self.proc is None:
            self._start()
        data = "\n".join(facts).encode("utf-8", "surrogateescape")
        try:
            # the checker reads everything before it writes: no deadlock
            self.proc.stdin.write(data + b'\n{"k":"end"}\n')
            self.proc.stdin.flush()
            out, problems = [], []
            for line in self.proc.stdout:
                d = json.loads(line.decode("utf-8", "surrogateescape"))
                if d.get("k") == "end":
                    break
                if d.get("k") == "error":
                    # lines it could not read: its decision missed them
                    problems.append(str(d.get("message")))
                else:
                    out.append(d)
            else:
                raise LinkError("the link step failed (exit %s)"
                                % self._lost())
        except (OSError, ValueError) as e:
            self._lost()
            raise LinkError("the link step failed: %s" % e)
        if problems:
            raise LinkError("; ".join(problems))
        return out

    def _lost(self):
        """The process died or spoke nonsense: the next module gets a
        new one."""
        proc, self.proc = self.proc, None
        proc.kill()
        for f in (proc.stdin, proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        return proc.wait()

    def close(self):
        if self.proc:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            self.proc.stdout.close()
            self.proc.wait()
            self.proc = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# members whose type the decision relies on (None: null)
_TYPES = {"k": (str,), "file": (str, type(None)),
          "modname": (str, type(None)), "message": (str, type(None)),
          "rule": (str,), "line": (int,), "col": (int,)}


def is_fact(d):
    """Whether d (a decoded line) is what the checker's fact reader
    takes: an object whose first member is the kind, of strings,
    integers, booleans, null and lists of strings; a file, line or
    rule of its own type."""
    if not isinstance(d, dict) or next(iter(d), None) != "k":
        return False
    for key, v in d.items():
        want = _TYPES.get(key)
        if want is not None:
            if not isinstance(v, want) or isinstance(v, bool):
                return False
        elif isinstance(v, list):
            if not all(isinstance(x, str) for x in v):
                return False
        elif v is not None and not isinstance(v, (str, int)):
            return False
    return True


def read_facts(path):
    """The fact lines of a facts file that a kbuild run of the checker
    left (.foo.o.modlife). A FIFO or a device there would block the
    open or never end the read: only a regular file is read. A line that
    is no fact of the checker's (cut, or of other types) is an error
    naming the file: the link would skip it and decide without it."""
    try:
        with fswalk.open_regular(path) as f:
            # bytes: str.splitlines() would also split at U+2028 in a name
            facts = [ln.decode("utf-8", "surrogateescape")
                     for ln in f.read().splitlines()]
    except OSError as e:
        raise LinkError(e.strerror or str(e))
    for n, line in enumerate(facts, 1):
        try:
            ok = sparse_engine.kind(line) and is_fact(json.loads(line))
        except ValueError:
            ok = False
        if not ok:
            raise LinkError("line %d is no fact" % n)
    return facts


def link_module(facts):
    """One module, in a process of its own."""
    with Linker() as linker:
        return linker.link(facts)
