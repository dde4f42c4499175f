# SPDX-License-Identifier: GPL-2.0-only
"""modlife fix --format-patch DIR: one patch per module, in the layout of
git format-patch (git am applies it; patch -p1 too), with a subject in
the kernel's style and a body from the rule pages. No Signed-off-by:
that is the sender's to give.

The subject's prefix is the one the file's history uses most ("misc:
mchar:" from "misc: mchar: fix ..."), read with git log under the same
distrust as --diff-base (no hook, signature program or pager runs), or
the file's directory in its tree when there is no history."""
import collections
import os
import re
import subprocess
import time

from .. import paths
from ..ci import diffbase
from ..ci.baseline import tree_path
from ..ci.report import display

_GIT = diffbase.GIT + ["-c", "log.showSignature=false",
                       "-c", "gpg.program=false"]


def _history_prefix(path):
    d = os.path.dirname(os.path.abspath(path))
    if diffbase.lazy_fetch(d):
        return None     # git log could fetch, running what the repo names
    try:
        res = subprocess.run(
            _GIT + ["-C", d, "log", "--no-show-signature", "--format=%s",
                    "-n", "200", "--", os.path.basename(path)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, timeout=60,
            env=diffbase.git_env())
    except (OSError, subprocess.TimeoutExpired):
        return None
    if res.returncode:
        return None
    count = collections.Counter()
    for subj in res.stdout.decode("utf-8", "replace").splitlines():
        m = re.match(r"^((?:[\w./+-]+: )+)", subj.strip())
        if m and not subj.lower().startswith(("merge", "revert")):
            count[m.group(1).rstrip(": ").strip()] += 1
    return count.most_common(1)[0][0] if count else None


def prefix(path):
    """The subject prefix for a change of path."""
    found = _history_prefix(path)
    if found:
        return found
    return os.path.dirname(tree_path(path)) or \
        os.path.splitext(os.path.basename(path))[0]


def _section(rule, title):
    """The first paragraph of a section of the rule's docs page."""
    page = os.path.join(paths.ROOT, "docs", "rules", rule + ".md")
    try:
        with open(page, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return ""
    m = re.search(r"^## %s[^\n]*\n+(.*?)(?:\n\n|\n## |\Z)" % title,
                  text, re.S | re.M)
    return " ".join(m.group(1).split()) if m else ""


def _wrap(text, width=72, indent=""):
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = (line + " " + word) if line else word
    if line:
        out.append(line)
    return "\n".join(indent + ln for ln in out)


def _identity():
    name = os.environ.get("GIT_AUTHOR_NAME") or "modlife"
    mail = os.environ.get("GIT_AUTHOR_EMAIL") or "modlife@invalid"
    return "%s <%s>" % (name, mail)


def FIX_WHY(rule):
    from .fixscan import FIXES
    return FIXES.get(rule, (False, ""))[1]


def compose(module, changes, findings, subjects):
    """One patch: changes [(label, diff text, path)], the module's findings
    (with rule, message, file, line) and the rules' subject phrases."""
    rules = sorted({f["rule"] for f in findings})
    lead = changes[0][2]
    what = subjects[rules[0]] if len(rules) == 1 else \
        "fix unload lifetime bugs (%s)" % ", ".join(rules)
    # one line whatever a directory name holds (a newline would start a
    # mail header)
    subject = display("%s: %s" % (prefix(lead), what))
    body = []
    for f in findings:
        # indented: git am ends the message at a line that begins with
        # "diff -", "---" or "Index: ", and a name can begin so
        body.append(_wrap("%s:%d: %s" % (
            display(os.path.basename(f["file"])), f["line"],
            display(f["message"])), 70, "  "))
    for r in rules:
        why = _section(r, "Why")
        if why and "```" not in why:
            body.append(_wrap(why.replace("`", "")))
        why = FIX_WHY(r)
        body.append(_wrap("The change %s. Found and changed by modlife "
                          "(the safe pattern of rule %s)." % (
                              why[:1].lower() + why[1:], r)))
    date = time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime())
    files = sorted({c[0] for c in changes})
    stat = "\n".join(" %s" % f for f in files)
    return ("From 0000000000000000000000000000000000000000 Mon Sep 17 "
            "00:00:00 2001\nFrom: %s\nDate: %s\nSubject: [PATCH] %s\n\n%s\n"
            "---\n%s\n %d file(s) changed (module %s)\n\n%s-- \nmodlife\n\n"
            % (_identity(), date, subject, "\n\n".join(body), stat,
               len(files), module, "".join(c[1] for c in changes)))


def slug(subject, n):
    s = re.sub(r"[^A-Za-z0-9]+", "-", subject).strip("-")[:52]
    return "%04d-%s.patch" % (n, s)
