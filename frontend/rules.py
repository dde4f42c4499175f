# SPDX-License-Identifier: GPL-2.0-only
"""The rules modlife knows: name, family, one-line summary, semantic patch,
and whether it is experimental. They live in kb/rules.tsv, which the
checker is built with too (sparse-plugin/rules.c), so both engines agree
on which rules report by default."""
import os

from . import paths


def _load():
    rules = {}
    path = os.path.join(paths.ROOT, "kb", "rules.tsv")
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            name, family, kind, cocci, summary = \
                line.rstrip("\n").split("\t")
            rules[name] = {"family": family, "summary": summary}
            if cocci != "-":
                rules[name]["cocci"] = cocci
            if kind == "experimental":
                rules[name]["experimental"] = True
    return rules


RULES = _load()

# Off unless asked for (--rules NAME or --rules all): on Debian's 6.1
# drivers/{platform,misc,char} most of their findings were false (see
# docs/scan-results.md) - cancels reached through other modules' callbacks.
EXPERIMENTAL = sorted(r for r, v in RULES.items() if v.get("experimental"))
DEFAULT = sorted(r for r in RULES if r not in EXPERIMENTAL)


def select(rules=None, disable=()):
    """The rules a command reports: --rules (or the default set) minus
    --disable. scan, link, fix and cocci all choose this way."""
    return [r for r in (rules or DEFAULT) if r not in disable]


def doc_page(rule):
    return "docs/rules/%s.md" % rule


def family(rule):
    return RULES[rule]["family"]


def rule_for_script(script):
    for name, r in RULES.items():
        if r.get("cocci") == script:
            return name
    return None
