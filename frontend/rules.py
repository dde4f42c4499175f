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
    "module-release": {
        "family": "release in module",
        "summary": "A release callback of a registered kobject-bearing "
                   "object is module code that can run after unload.",
    },
    "empty-release": {
        "family": "release in module",
        "summary": "A release callback of a registered object does nothing "
                   "(empty or only logging).",
        "cocci": "empty_release.cocci",
    },
    "release-returns-into-module": {
        "family": "release in module",
        "summary": "A release callback ends with module_put(THIS_MODULE) or "
                   "complete(): the module may be freed before it returns.",
    },
    "static-object": {
        "family": "release in module",
        "summary": "A registered struct device/platform_device/kobject (or "
                   "a struct embedding one) lives in module data.",
        "cocci": "static_object.cocci",
    },
    "unregister-wait-in-exit": {
        "family": "exit wait",
        "summary": "The exit path waits for a release (*_unregister_wait(), "
                   "or put then wait_for_completion()): rmmod deadlocks "
                   "while a reference is held.",
        "cocci": "unregister_wait_in_exit.cocci",
    },
    "exit-no-rcu-barrier": {
        "family": "pending callbacks",
        "summary": "call_rcu()/call_srcu() with a module callback and no "
                   "rcu_barrier()/srcu_barrier() on the exit path.",
        "cocci": "exit_no_rcu_barrier.cocci",
    },
    "exit-pending-work": {
        "family": "pending callbacks",
        "experimental": True,
        "summary": "A work item with a module function is queued and no "
                   "exit path cancels or flushes it.",
    },
    "exit-pending-timer": {
        "family": "pending callbacks",
        "experimental": True,
        "summary": "A timer, hrtimer or kthread running module code is not "
                   "stopped synchronously on the exit path.",
        "cocci": "exit_pending_timer.cocci",
    },
    "self-pin": {
        "family": "pending callbacks",
        "summary": "__module_get(THIS_MODULE) in a callback nothing pinned "
                   "the module for.",
    },
}


# Off unless asked for (--rules NAME or --rules all): on Debian's 6.1
# drivers/{platform,misc,char} most of their findings were false (see
# docs/scan-results.md) - cancels reached through other modules' callbacks.
EXPERIMENTAL = sorted(r for r, v in RULES.items() if v.get("experimental"))
DEFAULT = sorted(r for r in RULES if r not in EXPERIMENTAL)


def doc_page(rule):
    return "docs/rules/%s.md" % rule


def family(rule):
    return RULES[rule]["family"]


def rule_for_script(script):
    for name, r in RULES.items():
        if r.get("cocci") == script:
            return name
    return None
