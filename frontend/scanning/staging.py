# SPDX-License-Identifier: GPL-2.0-only
"""Names that spatch sees.

spatch builds /bin/sh command lines from the paths it is given, so a file
or directory called '$(cmd)' in a scanned tree would run cmd. spatch only
ever sees paths made of names chosen here: each input is linked (or
copied) into its own numbered directory of a private temporary directory,
under its own name when that is plain, else as "file.c" / "file.h".
Paths in spatch's output are mapped back to the inputs' own.
"""
import os
import re
import unicodedata
import shutil
import sys

PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*\Z")


def staged_name(path):
    """The name a file gets in the private directory."""
    base = os.path.basename(path)
    if PLAIN.match(base):
        return base
    return "file.h" if base.endswith(".h") else "file.c"


class Staged:
    """The inputs, linked (copy=False) or copied into tmp/in/N/."""

    def __init__(self, tmp, paths, copy=False):
        self.paths = []         # the staged paths, in input order
        self.original = {}      # staged path -> input path
        top = os.path.join(tmp, "in")
        os.mkdir(top)
        for i, p in enumerate(paths):
            d = os.path.join(top, str(i))
            os.mkdir(d)
            staged = os.path.join(d, staged_name(p))
            if copy:
                shutil.copyfile(p, staged)
            else:
                os.symlink(os.path.abspath(p), staged)
            self.paths.append(staged)
            self.original[staged] = p
        # longest first: "in/1/a.c" must not eat into "in/12/a.c"
        self._order = sorted(self.original, key=len, reverse=True)
        self._re = re.compile("|".join(re.escape(s) for s in self._order)) \
            if self._order else None

    def unstage(self, text, show=lambda p: p):
        """text with every staged path replaced by show(input path)."""
        if not self._re:
            return text
        return self._re.sub(lambda m: show(self.original[m.group(0)]), text)


# Characters a terminal or a log view acts on, or shows out of order or
# not at all: C1 controls (U+009B is a CSI), bidi overrides, isolates and
# marks, the other invisible format characters, line and paragraph
# separators, and surrogates a string may still hold.
_HIDDEN = ("Cc", "Cf", "Zl", "Zp", "Cs")


def _escape(ch):
    o = ord(ch)
    if 0xdc80 <= o <= 0xdcff:           # os.fsdecode() of a stray byte
        return "\\x%02x" % (o - 0xdc00)
    if o < 0x80:
        return "\\x%02x" % o if o < 0x20 and ch != "\t" or o == 0x7f \
            else ch
    if unicodedata.category(ch) not in _HIDDEN:
        return ch
    return "\\u%04x" % o if o <= 0xffff else "\\U%08x" % o


def display(text):
    """text with control characters (a newline in a file name) and bytes
    that were not UTF-8 written as \\xNN escapes, and the other
    characters of _HIDDEN as \\uNNNN: one report line stays one line,
    shows what it holds, and the output stays valid UTF-8.  A GitHub
    Actions runner reads '##[' anywhere in a line as a workflow command
    (its older form): the '[' is written as \\x5b."""
    return "".join(_escape(ch) for ch in text).replace("##[", "##\\x5b")


def say(text):
    """One line on stderr, "modlife: TEXT", with display(): a warning
    often names a file of the tree (a header that changed, a Makefile
    cut short), whose name may hold terminal escapes."""
    sys.stderr.write("modlife: %s\n" % display(str(text)))


def lead(path):
    """display(path) at the start of a report line. A line that begins
    with '::' (after blanks) is a GitHub Actions workflow command in a
    job's log ('::error file=...::', '::add-mask::', '::stop-commands::'):
    such a name (a relative one: an absolute name begins with '/') is
    written as ./NAME."""
    shown = display(path)
    return "./" + shown if shown.lstrip().startswith("::") else shown


def shown_path(path, cwd=None):
    """path as reports name it: relative to the directory of the run
    when inside it, else absolute."""
    path = os.path.abspath(path)
    rel = os.path.relpath(path, cwd or os.getcwd())
    return path if rel == ".." or rel.startswith(".." + os.sep) else rel
