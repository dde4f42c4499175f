# SPDX-License-Identifier: GPL-2.0-only
"""The body of a fix patch, written for the objects it changes: which
core function pins or reads what (kb/owner-effects.tsv for a missing
.owner, the finding's words otherwise), what a user does to hit the bug,
what the change does (read from the diff: the constructor a static
object now comes from, the release that went), and one line for each
finding of the module the patch leaves."""
import os
import re

from .. import paths
from ..rules import RULES

EFFECTS = os.path.join("kb", "owner-effects.tsv")


def _effects(path=None):
    out = {}
    path = path or os.path.join(paths.ROOT, EFFECTS)
    for n, cols in paths.kb_table(path):
        if len(cols) != 4:
            raise ValueError("%s:%d: %d columns, not 4"
                             % (path, n, len(cols)))
        out[cols[0]] = tuple(cols[1:])
    return out


EFFECT = _effects()

_OWNER = re.compile(r"^'(\w+)' \(([^)]+)\) is exposed without \.owner = "
                    r"THIS_MODULE: (\w+)\(\)")
# the checker knows no particular reader: "core code (such as ...)"
_OWNER_ANY = re.compile(r"^'(\w+)' \(([^)]+)\) is exposed without "
                        r"\.owner = THIS_MODULE: core code")
_STATIC = re.compile(r"^'(\w+)' \(([^)]+)\) lives in module data")
_EMPTY = re.compile(r"^(\w+)\(\), the ([\w .]+?) callback, does nothing")
_RCU = re.compile(r"^(call_s?rcu)\(\) queues (\w+)\(\)")
_CDEV = re.compile(r"^cdev '([^']+)' is cdev_init\(\)ed in (\w+)\(\)")


def object_name(f):
    """The name of the object or function a finding is about (for
    Fixes:), or None."""
    for pat in (_OWNER, _STATIC, _EMPTY, _RCU, _CDEV):
        m = pat.match(f["message"])
        if m:
            name = m.group(2) if pat is _RCU else m.group(1)
            return name.split(".")[-1] if pat is _CDEV else name
    return None


def _names(items):
    items = sorted(set(items))
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _added(diff, word):
    return any(ln.startswith("+") and not ln.startswith("+++") and
               re.search(r"\b%s\b" % re.escape(word), ln)
               for ln in diff.splitlines())


def _gone(diff, word):
    """Whether the diff removes every line with word and adds none."""
    lines = diff.splitlines()
    removed = any(ln.startswith("-") and not ln.startswith("---") and
                  re.search(r"\b%s\b" % re.escape(word), ln) for ln in lines)
    return removed and not _added(diff, word)


def _module_release(name, sources):
    """The .release of the table name when the module's file defines it
    (not a core helper such as single_release()), else None."""
    for path in sources:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read(4 << 20)
        except OSError:
            continue
        m = re.search(r"\b%s\s*=\s*\{([^{}]{0,8192})\}" % re.escape(name),
                      text)
        if not m:
            continue
        r = re.search(r"\.release\s*=\s*(\w+)", m.group(1))
        # "static int\nfoo_release(struct inode *i, ...)\n{" too
        if r and re.search(r"^(?:\w[^;=\n]*[\s*])?%s\s*\([^;{]*\)\s*\{"
                           % re.escape(r.group(1)), text, re.M):
            return r.group(1)
        return None
    return None


def _owner(findings, sources=()):
    """Paragraphs for missing-owner findings, one per reader; the tables
    whose reader the checker did not name get a paragraph of their own
    that claims no more than any reader does."""
    by_reader, unknown = {}, []
    for f in findings:
        m = _OWNER.match(f["message"])
        if m:
            by_reader.setdefault(m.group(3), []).append(m.group(1))
        elif _OWNER_ANY.match(f["message"]):
            unknown.append(_OWNER_ANY.match(f["message"]).group(1))
    out = []
    for reader, names in sorted(by_reader.items()):
        what, pins, hit = EFFECT.get(reader, EFFECT["*"])
        many = len(set(names)) > 1
        if reader == "full_proxy_open":
            # only a .release of the module's own runs freed text there
            own = sorted({r for r in (_module_release(n, sources)
                                      for n in set(names)) if r})
            if own:
                hit += " and call %s in freed module text" % _names(
                    ["%s()" % r for r in own])
        out.append("%s %s the operations of %s. %s. Without .owner nothing "
                   "keeps the module loaded while one is open: %s." % (
                       _names(names), "are" if many else "is", what,
                       pins, hit))
        out.append("Set .owner = THIS_MODULE in %s, so that %s() pins the "
                   "module: rmmod then says it is in use while one is open."
                   % ("each" if many else "it", reader))
    if unknown:
        many = len(set(unknown)) > 1
        out.append("%s %s of file operations without .owner%s. The core "
                   "code that opens a file with such a table (chrdev_open(), "
                   "debugfs's full_proxy_open(), misc_open()) takes a "
                   "reference on the table's owner for as long as the file "
                   "is open; without .owner nothing keeps the module loaded "
                   "while one is open, and a call or the close after rmmod "
                   "reaches freed module memory." % (
                       _names(unknown), "are tables" if many else
                       "is a table", " too" if by_reader else ""))
        out.append("Set .owner = THIS_MODULE in %s, so that an open file "
                   "pins the module." % ("each" if many else "it"))
    return out


def _cdev(findings):
    out = []
    for f in findings:
        m = _CDEV.match(f["message"])
        if not m:
            continue
        out.append("The cdev %s is set up by cdev_init() in %s() without "
                   "an owner. chrdev_open() pins a character device's "
                   "module through cdev_get(), which takes a reference on "
                   "the cdev's owner: with none, a device file opened "
                   "before rmmod and still open after it runs freed module "
                   "text on its next read, ioctl or close." % m.groups())
        out.append("Set its owner to THIS_MODULE after cdev_init(), so an "
                   "open device file keeps the module loaded.")
    return out


def _constructor(diff):
    for ln in diff.splitlines():
        if ln.startswith("+") and not ln.startswith("+++"):
            m = re.search(r"\b(\w+_(?:register_simple|register_data|"
                          r"register_full|register_resndata|alloc|"
                          r"allocate_device|create_and_add|create|new))\(",
                          ln)
            if m:
                return m.group(1)
    return None


def _static(findings, empties, diff):
    out = []
    ctor = _constructor(diff)
    for f in findings:
        m = _STATIC.match(f["message"])
        if not m:
            continue
        name, typ = m.groups()
        kobj = "kobject" in typ or "kset" in typ
        out.append("%s is a %s in module data that is %s. Its memory "
                   "belongs to the module, but when it is freed is the "
                   "core's reference count's to decide: a reference still "
                   "held at rmmod (%s, a delayed put) makes the last put "
                   "touch freed module data." % (
                       name, typ, "added to sysfs as a kobject" if kobj
                       else "registered with the driver core",
                       "a child kobject, a kobject_get() elsewhere" if kobj
                       else "a get_device() of another subsystem, a child "
                       "device"))
        released = [e for e in empties if _gone(diff, e)]
        change = "Let the core allocate it%s, so the core owns its memory " \
            "and release" % (" with %s()" % ctor if ctor else "")
        if released:
            change += "; the empty release %s() that only silenced the " \
                "core's warning goes with it" % _names(released)
        out.append(change + ".")
    return out


def _empty(findings, diff):
    out = []
    for f in findings:
        m = _EMPTY.match(f["message"])
        if not m or _gone(diff, m.group(1)):
            continue
        out.append("%s(), the %s callback, does nothing: it silences the "
                   "driver core's warning about a missing release, and as "
                   "module text it runs when the last reference is dropped, "
                   "which can be after rmmod (a reference held by another "
                   "subsystem)." % m.groups())
        out.append("Free the containing object in %s() and drop the frees "
                   "that followed unregistering, so the memory goes with "
                   "the last reference." % m.group(1))
    return out


def _rcu(findings):
    out = []
    for f in findings:
        m = _RCU.match(f["message"])
        if not m:
            continue
        barrier = "srcu_barrier()" if m.group(1) == "call_srcu" else \
            "rcu_barrier()"
        out.append("%s() queues %s(), module code, and nothing on the exit "
                   "path waits for the callbacks still pending: removing "
                   "the module right after its last use frees that code "
                   "before they run." % m.groups())
        out.append("Call %s at the end of the exit path, after the last "
                   "%s() can happen." % (barrier, m.group(1)))
    return out


def _generic(rule, findings):
    r = RULES.get(rule)
    why = r.fix_why if r else ""
    out = [" ".join(f["message"].split(": ")[0] for f in findings[:1])]
    if why:
        out.append(why[:1].upper() + why[1:] + ".")
    return out


def describe(findings, diff, sources=()):
    """The paragraphs that say what is wrong and what the change does;
    sources: the files the patch changes, as they are before it."""
    by_rule = {}
    for f in findings:
        by_rule.setdefault(f["rule"], []).append(f)
    empties = [m.group(1) for f in by_rule.get("empty-release", [])
               for m in [_EMPTY.match(f["message"])] if m]
    out = []
    for rule in sorted(by_rule):
        fs = by_rule[rule]
        if rule == "missing-owner":
            out += _owner(fs, sources)
        elif rule == "cdev-owner":
            out += _cdev(fs)
        elif rule == "static-object":
            out += _static(fs, empties, diff)
        elif rule == "empty-release":
            out += _empty(fs, diff)
        elif rule == "exit-no-rcu-barrier":
            out += _rcu(fs)
        else:
            out += _generic(rule, fs)
    return out


def _short(f):
    """A finding in a few words: the object and what is wrong with it."""
    msg = f["message"]
    m = _OWNER.match(msg)
    if m:
        return "%s (%s) has no .owner" % m.group(1, 2)
    m = _STATIC.match(msg)
    if m:
        return "%s (%s) lives in module data" % m.groups()
    m = _EMPTY.match(msg)
    if m:
        return "%s(), a %s, does nothing" % m.groups()
    m = re.match(r"^(\w+)\(\), the ([\w .]+?) callback of", msg)
    if m:
        return "%s(), a %s, is module text" % m.groups()
    return msg.split(": ")[0]


def left(others):
    """One item per finding of the module the patch does not fix."""
    out = []
    for f in sorted(others, key=lambda f: (f["file"], f["line"])):
        r = RULES.get(f["rule"])
        why = "" if r is None or r.safe_fix else " (no automatic fix)"
        out.append("%s:%d: %s [%s]%s" % (os.path.basename(f["file"]),
                                         f["line"], _short(f), f["rule"],
                                         why))
    return out
