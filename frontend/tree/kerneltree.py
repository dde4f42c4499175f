# SPDX-License-Identifier: GPL-2.0-only
"""Whether a path lies in a kernel source tree, and which version it is.

A tree is recognized by its top Makefile (VERSION = and PATCHLEVEL =
lines) and include/linux/; a configured headers tree (Debian's
linux-headers-*) says its release in include/config/kernel.release. Only
a bounded prefix of the Makefile is read: the tree is data.
"""
import os
import re

from . import fswalk

# the version lines are within the first lines of the top Makefile
HEAD = 4096


def _read_head(path, limit=HEAD):
    try:
        with fswalk.open_regular(path) as f:
            return f.read(limit).decode("utf-8", "replace")
    except OSError:
        return None


def version(tree):
    """(VERSION, PATCHLEVEL, SUBLEVEL, EXTRAVERSION) of a tree's top
    Makefile as strings, or of a configured tree's kernel.release; None
    when neither says."""
    if not tree:
        return None
    text = _read_head(os.path.join(tree, "Makefile"))
    v = {}
    for line in (text or "").split("\n"):
        m = re.match(r"^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)\s*=[ \t]*"
                     r"([\w.-]*)\s*$", line)
        if m and m.group(1) not in v:
            v[m.group(1)] = m.group(2)
    if v.get("VERSION", "").isdigit() and \
            v.get("PATCHLEVEL", "").isdigit():
        return (v["VERSION"], v["PATCHLEVEL"], v.get("SUBLEVEL") or "0",
                v.get("EXTRAVERSION", ""))
    rel = _read_head(os.path.join(tree, "include", "config",
                                  "kernel.release"), 256)
    m = re.match(r"^(\d+)\.(\d+)(?:\.(\d+))?(\S*)", rel or "")
    if m:
        return (m.group(1), m.group(2), m.group(3) or "0", m.group(4))
    return None


def release(tree):
    """"6.12" for a tree, or None."""
    v = version(tree)
    return "%s.%s" % v[:2] if v else None


def is_source_tree(tree):
    """A kernel source tree: a versioned top Makefile and include/linux/
    (a configured headers tree of a distribution has both too, and
    arch/*/include: it parses the same way)."""
    if not tree or not os.path.isdir(os.path.join(tree, "include", "linux")):
        return False
    text = _read_head(os.path.join(tree, "Makefile"))
    return bool(text) and re.search(r"^VERSION\s*=\s*\d", text, re.M) is \
        not None and re.search(r"^PATCHLEVEL\s*=\s*\d", text, re.M) is \
        not None


def has_headers(tree, arch="x86"):
    """The tree has the headers a parse needs: include/linux/kconfig.h
    and module.h, and the architecture's asm/ headers."""
    return all(os.path.isfile(os.path.join(tree, "include", "linux", h))
               for h in ("kconfig.h", "module.h")) and os.path.isdir(
        os.path.join(tree, "arch", arch, "include", "asm"))


def same_release(a, b):
    """Both trees are the same VERSION.PATCHLEVEL."""
    ra, rb = release(a), release(b)
    return ra is not None and ra == rb
