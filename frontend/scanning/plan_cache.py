# SPDX-License-Identifier: GPL-2.0-only
"""A scan's plan (which files are module code, their modules, options
and flags), kept beside the facts (side_cache.py) with what decided it.

Planning reads the tree's Kconfig files (all of them: an option's
dependencies may lie in any), its Makefiles, KDIR's .config and the
CONFIG_ words of each source; that takes seconds on every run, more than
a warm scan's other work. While a plan is made, the tree's readers note
each file they open or try, each directory they list or walk
(fswalk.Reads), and each source's words. The entry keeps each file's and
directory's inode, size and times (a directory's change when an entry
is added or removed: a Makefile or Kconfig file that appears) and the
words' digest (read again only from a source whose times changed); it
is used only when all of them are as they were. A plan
is not kept when something it read changed in the last seconds (a time
stamp can hide a second write within its granularity)."""
import hashlib
import json
import os
import re
import time

from .. import paths
from ..tree import limits
from ..tree.modules import config_words
from .side_cache import SideCache

RECENT_NS = 2 * 10**9
MAX_PLAN = 256 << 20


def _signature(path, is_dir):
    """What changes when a file or directory does; None: it is not
    there."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_ino, 0 if is_dir else st.st_size, st.st_mtime_ns,
            st.st_ctime_ns]


def _words_digest(path):
    words = config_words(path)
    return hashlib.sha256(b" ".join(words)).hexdigest()


def _code_digest():
    """The front end's code: another version plans otherwise."""
    h = hashlib.sha256()
    top = os.path.join(paths.ROOT, "frontend")
    for d, dirs, names in sorted(os.walk(top)):
        dirs.sort()
        for n in sorted(names):
            if n.endswith(".py"):
                with open(os.path.join(d, n), "rb") as f:
                    h.update(n.encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()


def _ancestors(path, stop):
    """path's directory and those above it up to stop (when path lies
    under stop): where a Makefile or Kconfig file that appears changes
    the plan."""
    out = []
    d = os.path.dirname(path)
    while stop and (d == stop or d.startswith(stop.rstrip(os.sep) + os.sep)):
        out.append(d)
        if d == stop:
            break
        d = os.path.dirname(d)
    return out or [os.path.dirname(path)]


def _strs(x):
    return isinstance(x, list) and all(isinstance(s, str) for s in x)


def _makefile_flags(x):
    """Only flags the Makefile readers give (modules._flag_words(),
    ModuleMap.flags()): an entry holds nothing else for the checker's
    command line."""
    if not _strs(x):
        return False
    i = 0
    while i < len(x):
        w = x[i]
        i += 1
        if w in ("-include", "-idirafter"):
            if i == len(x) or x[i].startswith("-"):
                return False
            i += 1
        elif not (re.fullmatch(r"-[IDU].+|-O[0-3sgz]?", w, re.S) and
                  not w.startswith(("-Include", "-D-", "-U-"))):
            return False
    return True


def _pairs(x):
    return isinstance(x, list) and all(
        isinstance(p, list) and len(p) == 2 and _strs(p) for p in x)


class PlanCache:
    def __init__(self, directory, warn):
        self.store = SideCache(directory, "plan", "module plans", warn,
                               limit=MAX_PLAN)
        self._code = None
        self.hit = False

    def key(self, parts):
        """The key of a plan of parts (the files, root, KDIR and the
        options that decide it), or None without a cache."""
        if not self.store.dir:
            return None
        if self._code is None:
            self._code = _code_digest()
        h = hashlib.sha256(self._code.encode() + b"\0")
        h.update(json.dumps(parts, sort_keys=True).encode(
            "utf-8", "surrogateescape"))
        return h.hexdigest()

    def get(self, key):
        """(info, modules, skipped, options, flags) as _plan() gives
        them, or None when there is none or what decided it changed."""
        e = self.store.read(key)
        try:
            inputs, plan = e["inputs"], e["plan"]
            for kind in ("files", "dirs"):
                for path, sig in inputs[kind]:
                    if _signature(path, kind == "dirs") != sig:
                        return None
            for path, digest, sig in inputs["words"]:
                # the words are read again only from a source that changed
                if _signature(path, False) != sig and \
                        _words_digest(path) != digest:
                    return None
            info = {f: tuple(v) for f, v in plan["info"].items()
                    if _strs(v) and len(v) == 2}
            modules = plan["modules"]
            skipped = plan["skipped"]
            options, flags = {}, plan["flags"]
            for f, (opts, archs, alt) in plan["options"].items():
                if not (_pairs(opts) and _strs(archs) and
                        (alt is None or _pairs(alt))):
                    return None
                options[f] = ([tuple(p) for p in opts], archs,
                              alt and [tuple(p) for p in alt])
            hits = inputs.get("limits", [])
            if not _pairs(hits):
                return None
            # an entry that cannot go stale is none a scan wrote: each
            # file it plans has its directory among what decided it
            seen = {d for d, _ in inputs["dirs"]}
            if not all(os.path.dirname(f) in seen
                       for f in list(plan["info"]) + list(skipped)):
                return None
            if len(info) != len(plan["info"]) or not all(
                    _strs(v) for v in modules.values()) or not all(
                    isinstance(v, str) for v in skipped.values()) or \
                    not all(_makefile_flags(v) for v in flags.values()) or \
                    set(options) != set(info) or set(flags) != set(info):
                return None
        except (TypeError, KeyError, ValueError, AttributeError):
            return None
        self.store.hit()
        self.hit = True
        limits.replay(hits)     # as planning it anew would tell them
        return info, modules, skipped, options, flags

    def put(self, key, reads, plan, files, stop):
        """Keeps plan with what reads saw (and the directories of files
        and of what was read, up to stop)."""
        if not key:
            return
        dirs = set(reads.dirs)
        for p in list(reads.files) + list(reads.words) + list(files):
            dirs.update(_ancestors(os.path.abspath(p), stop))
        inputs = {"files": [[p, _signature(p, False)]
                            for p in sorted(reads.files)],
                  "dirs": [[d, _signature(d, True)] for d in sorted(dirs)],
                  "words": sorted([p, w, _signature(p, False)]
                                  for p, w in reads.words.items()),
                  "limits": sorted([p, w] for p, w in reads.limits.items())}
        recent = time.time_ns() - RECENT_NS
        if any(sig and max(sig[2], sig[3]) > recent
               for kind in ("files", "dirs", "words")
               for sig in (x[-1] for x in inputs[kind])):
            return
        info, modules, skipped, options, flags = plan
        self.store.write(key, {"inputs": inputs, "plan": {
            "info": info, "modules": modules, "skipped": skipped,
            "options": options, "flags": flags}})
