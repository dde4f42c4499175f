# SPDX-License-Identifier: GPL-2.0-only
"""Files a tree's build makes that nothing here can make, and their
empty stand-ins.

speakup's main.c includes "speakupmap.h", which a host program of the
tree makes from a keymap; genheaders.py has no maker for it. When the
kbuild Makefile of the including file's directory (or of one of the two
above it) names the file as something it makes - a rule's target
("$(obj)/speakupmap.h: ..."), a pattern rule's ("$(obj)/generated/%.xml.h:")
or a word of targets, clean-files or always-y - the file is parsed once
more with an empty stand-in in its place. A parse that then succeeds is
reported with a note naming the stand-in: its findings may miss what
the real file declares. The Makefiles are read as data.
"""
import os
import re

from .kconfig import logical_lines

# the overlay directory a stand-in lies in starts so (overlay.py)
PREFIX = "stand-in-"
TEXT = "/* modlife: empty stand-in for a file the build makes */\n"
# Makefiles above the including file's directory that may make it
# (msm/adreno/ files include what msm/Makefile makes)
LEVELS = 3
LISTS = re.compile(r"^(targets|clean-files|always-y|always-m|extra-y)\s*"
                   r"(?:\+=|:=|=)\s*(.*)$")
RULE = re.compile(r"^([^\s:=#][^:=#]*?)\s*::?(?!=)")


def safe_name(header):
    """A relative path with no '..', '.' or empty part: where a stand-in
    or a made header may be written under the overlay."""
    parts = header.split("/")
    return not header.startswith("/") and all(
        p not in ("", ".", "..") and re.fullmatch(r"[\w.+-]{1,255}", p)
        for p in parts)


def _words(path):
    """The names a Makefile says its build makes (with %), or ()."""
    out = []
    for ln in logical_lines(path):
        if ln.startswith("\t"):
            continue        # a recipe
        m = LISTS.match(ln.strip())
        if m:
            out += m.group(2).split()
            continue
        m = RULE.match(ln)
        if m:
            out += m.group(1).split()
    return out


def dirs_up(tree, d, levels):
    """d and the directories above it, at most levels of them, while
    they lie inside tree (not tree's top itself)."""
    tree, d = os.path.abspath(tree), os.path.abspath(d)
    for _ in range(levels):
        if not (d + os.sep).startswith(tree + os.sep) or d == tree:
            return
        yield d
        d = os.path.dirname(d)


def _matches(word, name):
    """word (a target, perhaps $(obj)/generated/%.xml.h) names the file
    name is (by its last part: it is found through -I)."""
    word = word.rsplit("/", 1)[-1]
    base = name.rsplit("/", 1)[-1]
    if "$" in word or not word:
        return False
    if "%" not in word:
        return word == base
    head, _, tail = word.partition("%")
    return len(base) > len(head) + len(tail) and \
        base.startswith(head) and base.endswith(tail)


def made_by_build(tree, source, name):
    """The build makes the file name (an include's path) that source
    includes: a Makefile of source's directory or of one above it, in
    tree, names it as a target."""
    if not tree or not safe_name(name):
        return False
    return any(_matches(w, name)
               for d in dirs_up(tree, os.path.dirname(source), LEVELS)
               for mk in ("Kbuild", "Makefile")
               for w in _words(os.path.join(d, mk)))


def stand_ins(paths):
    """The files (as included) that paths (headers a parse read) show
    were stand-ins."""
    out = []
    for p in paths:
        parts = p.split(os.sep)
        for i, part in enumerate(parts[:-1]):
            if part.startswith(PREFIX):
                out.append("/".join(parts[i + 1:]))
                break
    return sorted(set(out))
