# SPDX-License-Identifier: GPL-2.0-only
"""Baselines: known findings to leave out of a report.

A finding's fingerprint is its rule, its file and the text of its line
(white space folded), with an occurrence number among findings that share
all three: it survives code moving up or down the file.
"""
import hashlib
import json
import os


def _line_text(path, line, cache):
    if path not in cache:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                cache[path] = f.read().split("\n")
        except OSError:
            cache[path] = []
    lines = cache[path]
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return " ".join(text.split())


def fingerprints(findings):
    """[(finding, fingerprint)] in the findings' order."""
    cache, seen, out = {}, {}, []
    for f in findings:
        text = _line_text(f["file"], f["line"], cache)
        base = "%s\0%s\0%s" % (f["rule"], f["file"], text)
        n = seen.get(base, 0)
        seen[base] = n + 1
        fp = hashlib.sha1(("%s\0%d" % (base, n)).encode()).hexdigest()
        out.append((f, fp))
    return out


def write(path, findings):
    data = {"version": 1, "findings": [
        {"rule": f["rule"], "file": f["file"], "fingerprint": fp}
        for f, fp in fingerprints(findings)]}
    tmp = path + ".tmp"
    with open(tmp, "w") as out:
        json.dump(data, out, indent=1, sort_keys=True)
        out.write("\n")
    os.replace(tmp, path)


def load(path):
    with open(path) as f:
        data = json.load(f)
    if not isinstance(data, dict) or data.get("version") != 1:
        raise ValueError("not a modlife baseline (version 1)")
    return {(e["rule"], e["file"], e["fingerprint"])
            for e in data["findings"]}


def subtract(findings, known):
    return [f for f, fp in fingerprints(findings)
            if (f["rule"], f["file"], fp) not in known]
