# SPDX-License-Identifier: GPL-2.0-only
"""The rules modlife knows, one record each: kb/rules.tsv, which the
checker is built with too (sparse-plugin/rules.c: column 3), so both
engines agree on which rules report by default. This module is the front
end's only reader of the table: scan, rules, fix and prove take what
they need from the records (Rule) in RULES."""
import os

from . import paths

TABLE = os.path.join("kb", "rules.tsv")


class Rule:
    """One row of kb/rules.tsv ("-" in the table is None here):
      name, family, summary
      experimental    column 3 is "experimental"
      cocci           the semantic patch in cocci/
      safe_fix        `modlife fix` fixes it (column 5 is "safe")
      fix_subject     the patch subject of a safe fix
      fix_why         what the fix does, or why there is none
      scenario        owner, hold or pending (`modlife prove`)
      proven_by       "fault" or "hang"
      scenario_shows  what the scenario shows, or why there is none
    RULES[r]["summary"] and RULES[r].get("cocci") read them too."""
    __slots__ = ("name", "family", "experimental", "cocci", "safe_fix",
                 "fix_subject", "fix_why", "scenario", "proven_by",
                 "scenario_shows", "summary")

    def __init__(self, **kw):
        for k in self.__slots__:
            object.__setattr__(self, k, kw.pop(k))
        if kw:
            raise TypeError("unknown fields: %s" % ", ".join(sorted(kw)))

    def __setattr__(self, key, value):
        raise AttributeError("a rule is read-only")

    def __repr__(self):
        return "Rule(%s)" % ", ".join("%s=%r" % (k, getattr(self, k))
                                      for k in self.__slots__)

    def __getitem__(self, key):
        if key not in self.__slots__:
            raise KeyError(key)
        return getattr(self, key)

    def get(self, key, default=None):
        value = getattr(self, key) if key in self.__slots__ else None
        return default if value is None else value


_KINDS = {"default": False, "experimental": True}
_FIXES = {"safe": True, "none": False}
_PROOFS = ("fault", "hang")


def _row(cols, where):
    if len(cols) != 11:
        raise ValueError("%s: %d columns, not 11" % (where, len(cols)))
    (name, family, kind, cocci, fix, subject, why, scenario, proof,
     shows, summary) = cols
    opt = (lambda v: None if v == "-" else v)
    if kind not in _KINDS or fix not in _FIXES or \
            (proof not in _PROOFS if scenario != "-" else proof != "-") or \
            (subject == "-") == _FIXES[fix]:
        raise ValueError("%s: not a row of the rule table" % where)
    return Rule(name=name, family=family, experimental=_KINDS[kind],
                cocci=opt(cocci), safe_fix=_FIXES[fix],
                fix_subject=opt(subject), fix_why=why,
                scenario=opt(scenario), proven_by=opt(proof),
                scenario_shows=shows, summary=summary)


def load(path=None):
    """{name: Rule} in the table's order."""
    path = path or os.path.join(paths.ROOT, TABLE)
    rules = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            r = _row(line.rstrip("\n").split("\t"), "%s:%d" % (path, n))
            rules[r.name] = r
    return rules


RULES = load()

# Off unless asked for (--rules NAME or --rules all): on Debian's 6.1
# drivers/{platform,misc,char} most of their findings were false (see
# docs/scan-results.md) - cancels reached through other modules' callbacks.
EXPERIMENTAL = sorted(r for r, v in RULES.items() if v.experimental)
DEFAULT = sorted(r for r in RULES if r not in EXPERIMENTAL)


def select(rules=None, disable=()):
    """The rules a command reports: --rules (or the default set) minus
    --disable. scan, link, fix and cocci all choose this way."""
    return [r for r in (rules or DEFAULT) if r not in disable]


def doc_page(rule):
    return "docs/rules/%s.md" % rule


def family(rule):
    return RULES[rule].family


def rule_for_script(script):
    for name, r in RULES.items():
        if r.cocci == script:
            return name
    return None
