# SPDX-License-Identifier: GPL-2.0-only
"""The rules modlife knows: name, family, one-line summary, docs page."""

RULES = {
    "missing-owner": {
        "family": "owner pinning",
        "summary": "An object whose type has an owner field that core code "
                   "reads is exposed without .owner = THIS_MODULE.",
        "cocci": "missing_owner.cocci",
    },
    "cdev-owner": {
        "family": "owner pinning",
        "summary": "A struct cdev is cdev_init()ed and added without "
                   "owner = THIS_MODULE.",
        "cocci": "cdev_owner.cocci",
    },
}


def doc_page(rule):
    return "docs/rules/%s.md" % rule


def rule_for_script(script):
    for name, r in RULES.items():
        if r.get("cocci") == script:
            return name
    return None
