# SPDX-License-Identifier: GPL-2.0-only
"""The link step: decide each candidate finding with the facts of every
file of its module.

A finding fact carries keys: "unless" (dropped when any file of the module
provides one), "requires" (kept only when some file provides one) and
"unload" (kept only when the module has an exit function). "implies"
facts derive keys from keys (a cdev's owner also pins its fops).
"""


def provided_keys(facts):
    keys = set()
    implications = []
    for f in facts:
        k = f.get("k")
        if k == "provide":
            keys.add(f["key"])
        elif k == "implies":
            implications.append((f["if"], f["then"]))
    changed = True
    while changed:
        changed = False
        for a, b in implications:
            if a in keys and b not in keys:
                keys.add(b)
                changed = True
    return keys


def link_module(facts):
    """facts: every fact of one module's files. Returns the findings that
    stand, as fact dicts."""
    keys = provided_keys(facts)
    has_exit = "module-exit" in keys
    out = []
    for f in facts:
        if f.get("k") != "finding":
            continue
        if any(k in keys for k in f.get("unless", [])):
            continue
        req = f.get("requires", [])
        if req and not any(k in keys for k in req):
            continue
        if f.get("unload") and not has_exit:
            continue
        out.append(f)
    return out
