# SPDX-License-Identifier: GPL-2.0-only
"""modlife fix --format-patch DIR: one patch per module, in the layout of
git format-patch (git am applies it; patch -p1 too), written as the
subsystem's maintainer expects it:
- the subject's prefix as the subsystem writes it (subjects.py: the
  file's history, its directory's, MAINTAINERS and kb/subject-prefixes.tsv;
  never a raw path), at most 72 characters, distinct within a run;
  [PATCH net] and the like where MAINTAINERS names such a tree;
- the author is the user (--from, else GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL,
  else user.name/user.email of the user's own git configuration; never the
  scanned tree's), as git format-patch makes the committer the author;
- the body says, for the objects changed, what the core does with them,
  what a user does to hit the bug and what the change does (bodies.py),
  lists what the patch leaves in the module, and credits the checker;
- Fixes: the commit that added each object, when the tree has history,
  and Cc: stable when such a commit is in a release; nothing is guessed
  without history. No Signed-off-by unless asked (--signoff): that is
  the sender's to give."""
import os
import re
import tempfile
import time

from ..ci import diffbase
from ..ci.report import display
from . import bodies, history, subjects

MAX_SUBJECT = 72

# shorter words for a subject that would be too long
_SHORT = {
    "missing-owner": "set the owner of the file operations",
    "cdev-owner": "set the owner of the cdev",
    "static-object": "allocate the device in the core",
    "empty-release": "free the device in its release",
    "exit-no-rcu-barrier": "wait for RCU callbacks on unload",
}


class IdentityError(Exception):
    pass


def _global_config(key):
    """A key of the user's own git configuration (~/.gitconfig,
    $XDG_CONFIG_HOME/git/config), never a repository's."""
    try:
        return diffbase.git_read(tempfile.gettempdir(),
                                 ["config", "--global", "--get", key]).strip()
    except diffbase.DiffError:
        return ""


def identity(given=None):
    """"Name <mail>" of the patches' author: given (--from), else
    GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL, else the user's global git
    configuration. IdentityError when there is none or it is not one
    line of that form."""
    if given:
        ident = given.strip()
    else:
        name = os.environ.get("GIT_AUTHOR_NAME") or \
            _global_config("user.name")
        mail = os.environ.get("GIT_AUTHOR_EMAIL") or \
            _global_config("user.email") or os.environ.get("EMAIL", "")
        if not name or not mail:
            raise IdentityError(
                "no author for the patches: pass --from 'Name <mail>', or "
                "set user.name and user.email with git config --global")
        ident = "%s <%s>" % (name.strip(), mail.strip())
    if not re.fullmatch(r"[^<>\n\r\x00]+ <[^<>\s@]+@[^<>\s@]+>", ident):
        raise IdentityError("not an author of the form 'Name <mail>': %r"
                            % ident)
    return ident


def _wrap(text, width=72, indent=""):
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width - len(indent):
            out.append(line)
            line = word
        else:
            line = (line + " " + word) if line else word
    if line:
        out.append(line)
    return "\n".join(indent + ln for ln in out)


def _lead_rule(rules):
    """The rule whose words name a patch of several rules' fixes."""
    if "static-object" in rules:
        # the conversion removes the static object's empty release too
        return "static-object"
    if set(rules) <= {"missing-owner", "cdev-owner"}:
        return "missing-owner"      # both pin the module while files open
    return rules[0] if len(rules) == 1 else None


def _hang(text):
    """An item: its first line indented by two, the others by four."""
    lines = _wrap(text, 73).split("\n")
    return "\n".join(["  " + lines[0]] + ["    " + ln for ln in lines[1:]])


def _phrase(rules, subject_of):
    if _lead_rule(rules):
        return subject_of[_lead_rule(rules)]
    return "fix module unload lifetime bugs"


def subject(prefix, rules, subject_of, capital=False):
    """"prefix: what changes", at most MAX_SUBJECT characters when the
    words allow; its first word capitalized where the subsystem's
    subjects write it so."""
    long = _phrase(rules, subject_of)
    short = _SHORT.get(_lead_rule(rules), "fix unload lifetime bugs")
    if capital:
        long, short = long[:1].upper() + long[1:], short[:1].upper() + \
            short[1:]
    parts = prefix.split(" ")
    trimmed = " ".join(parts[:1] + parts[-1:]) if len(parts) > 2 else prefix
    for p, w in ((prefix, long), (prefix, short), (trimmed, short)):
        s = "%s %s" % (p, w)
        if len(s) <= MAX_SUBJECT:
            return s
    return "%s %s" % (trimmed, short)


def fixes(findings):
    """[(id, subject)] of the commits that added the patch's objects,
    oldest first, and whether one is in a release."""
    seen = {}
    for f in findings:
        name = bodies.object_name(f)
        found = history.introduced(f["file"], name) if name else None
        if found and found[0] not in seen:
            seen[found[0]] = (found, f["file"])
    tags = [v[0] for v in seen.values()][:3]
    stable = any(history.released(path, c[0]) for c, path in seen.values())
    return tags, stable


def _diffstat(changes):
    rows, plus, minus = [], 0, 0
    width = max(len(c[0]) for c in changes)
    for label, diff, _ in changes:
        lines = diff.splitlines()
        a = sum(1 for ln in lines if ln.startswith("+") and
                not ln.startswith("+++"))
        r = sum(1 for ln in lines if ln.startswith("-") and
                not ln.startswith("---"))
        plus, minus = plus + a, minus + r
        rows.append(" %-*s | %d %s" % (width, label, a + r,
                                       "+" * a + "-" * r))
    n = len(changes)
    total = " %d file%s changed" % (n, "" if n == 1 else "s")
    if plus:
        total += ", %d insertion%s(+)" % (plus, "" if plus == 1 else "s")
    if minus:
        total += ", %d deletion%s(-)" % (minus, "" if minus == 1 else "s")
    return "\n".join(rows + [total])


def compose(p):
    """The text of one patch. p: {author, subject, tag, changes [(label,
    diff, path)], findings, others, fixes, stable, module, rules,
    signoff}."""
    diff = "".join(c[1] for c in p["changes"])
    paras = [_wrap(display(t)) for t in bodies.describe(
        p["findings"], diff, [c[2] for c in p["changes"]])]
    left = bodies.left(p["others"])
    if left:
        # indented: git am ends the message at a line that begins with
        # "diff -", "---" or "Index: ", and a name can begin so
        paras.append("Left as they are, in the same module:\n" + "\n".join(
            _hang(display(ln)) for ln in left))
    paras.append(_wrap("Found by the modlife static checker (%s)."
                       % ", ".join(p["rules"])))
    tags = ["Fixes: %s (\"%s\")" % (c, display(s)) for c, s in p["fixes"]]
    if p["stable"]:
        tags.append("Cc: stable@vger.kernel.org")
    if p.get("signoff"):
        tags.append("Signed-off-by: %s" % p["author"])
    if tags:
        paras.append("\n".join(tags))
    date = time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime())
    return ("From 0000000000000000000000000000000000000000 Mon Sep 17 "
            "00:00:00 2001\nFrom: %s\nDate: %s\nSubject: [PATCH%s] %s\n\n"
            "%s\n---\n%s\n\n%s-- \nmodlife\n\n"
            % (p["author"], date, " " + p["tag"] if p["tag"] else "",
               display(p["subject"]), "\n\n".join(paras),
               _diffstat(p["changes"]), diff))


def prefix(changes, module):
    """The subject prefix of a patch of changes in module."""
    return subjects.common_prefix(sorted(
        {subjects.prefix(c[2], module) for c in changes}))


def capitalized(changes):
    """Whether the subject's first word is capitalized: as the history
    of the patch's first file writes it."""
    return history.capitalized(sorted(changes)[0][2])


def tree_tag(changes):
    tags = {subjects.tree_tag(c[2]) for c in changes}
    return tags.pop() if len(tags) == 1 and None not in tags else None


def distinct(plans):
    """Makes the subjects of one run distinct: a repeated one gets the
    lead file's name (or the module's) in its prefix."""
    seen = {}
    for p in plans:
        seen.setdefault(p["subject"].lower(), []).append(p)
    for same in seen.values():
        if len(same) < 2:
            continue
        for p in same:
            stem = os.path.splitext(os.path.basename(p["changes"][0][0]))[0]
            name = stem if stem.lower() not in p["prefix"].lower() else \
                p["module"]
            p["prefix"] = "%s %s:" % (p["prefix"].rstrip(" -"), name) \
                if p["prefix"].endswith(":") else \
                "%s %s:" % (p["prefix"], name)
            p["subject"] = subject(p["prefix"], p["rules"], p["subject_of"],
                                   p.get("capital", False))


def slug(subject, n):
    s = re.sub(r"[^A-Za-z0-9]+", "-", subject).strip("-")[:52]
    return "%04d-%s.patch" % (n, s)
