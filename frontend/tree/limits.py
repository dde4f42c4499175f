# SPDX-License-Identifier: GPL-2.0-only
"""Where a build file of the tree ran into a reader's bound.

The tree's readers (Makefiles, Kconfig files, generated-header makers)
stop a file that would take memory or time without bound and go on
without it. Such a file was not read as the build reads it, so what
depends on it may be judged wrongly: each is named once in the scan's
errors, and the scan's exit status says something was not checked.
A reader tells of one with hit(); a reader that keeps its results
across scans (a memo) keeps its hits with them and tells them again
when it hands a kept result out (hits()/replay())."""
import os
import threading

from . import fswalk

_lock = threading.Lock()
_hits = {}
_recorders = []


def hit(path, what):
    """path (a Makefile, Kconfig file, ...) was cut short: what says
    by which bound ("nested if blocks deeper than 64: not read")."""
    path = os.path.abspath(path)
    with _lock:
        _hits.setdefault(path, what)
        for r in _recorders:
            r.hits.append((path, what))
    fswalk.note("limits", path, what)


def replay(hits):
    """Tells again the hits a kept result came with ([(path, what)])."""
    for path, what in hits:
        hit(path, what)


def take():
    """The hits told since the last take(), {path: what}; forgets them."""
    with _lock:
        out = dict(_hits)
        _hits.clear()
    return out


class Recorder:
    """The hits told while it is open (for a memo to keep with what it
    computed): with Recorder() as r: ...; r.hits."""

    def __init__(self):
        self.hits = []

    def __enter__(self):
        with _lock:
            _recorders.append(self)
        return self

    def __exit__(self, *exc):
        with _lock:
            _recorders.remove(self)
