# SPDX-License-Identifier: GPL-2.0-only
"""The link step: each module's facts go to the checker's own decision
(modlife-sparse --modlife-link, sparse-plugin/link.c), the one that kbuild
runs per file, and its standing findings come back. Nothing is decided
here: one process serves a whole scan, a module at a time, each ended by
an {"k":"end"} line both ways."""
import json
import subprocess

from . import paths


class LinkError(Exception):
    pass


class Linker:
    def __init__(self, binary=None):
        self.binary = binary or paths.sparse_binary()
        if not self.binary:
            raise LinkError("modlife-sparse is not built (run make)")
        self.proc = None

    def _start(self):
        try:
            self.proc = subprocess.Popen(
                [self.binary, "--modlife-link"], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE)
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
            out = []
            for line in self.proc.stdout:
                d = json.loads(line.decode("utf-8", "surrogateescape"))
                if d.get("k") == "end":
                    return out
                out.append(d)
        except (OSError, ValueError) as e:
            self._lost()
            raise LinkError("the link step failed: %s" % e)
        raise LinkError("the link step failed (exit %s)" % self._lost())

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


def link_module(facts):
    """One module, in a process of its own."""
    with Linker() as linker:
        return linker.link(facts)
