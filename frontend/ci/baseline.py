# SPDX-License-Identifier: GPL-2.0-only
"""Baselines: known findings to leave out of a report.

A finding's fingerprint is its rule, its file and the text of its line
(white space folded), with an occurrence number among findings that share
all three: it survives code moving up or down the file. The file is named
relative to the top of its tree (a kernel tree, or a git work tree), so
that a baseline written in one directory holds in another.
"""
import hashlib
import json
import os
import tempfile

from ..tree.fswalk import MAX_SOURCE, open_regular

VERSION = 2


def _line_text(path, line, cache):
    if path not in cache:
        try:
            # a source is never this large: no text (not all of it)
            with open_regular(path) as f:
                data = f.read(MAX_SOURCE + 1)
            text = "" if len(data) > MAX_SOURCE else \
                data.decode("utf-8", "replace")
            # as open() in text mode reads lines
            cache[path] = text.replace("\r\n", "\n").replace(
                "\r", "\n").split("\n") if text else []
        except OSError:
            cache[path] = []
    lines = cache[path]
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return " ".join(text.split())


def tree_path(path):
    """path relative to the top of its tree: the nearest directory above
    that is a kernel tree (arch/, scripts/) or holds .git; else its
    directory's name and its own."""
    path = os.path.realpath(path)
    d = os.path.dirname(path)
    while True:
        if os.path.exists(os.path.join(d, ".git")) or (
                os.path.isdir(os.path.join(d, "arch")) and
                os.path.isdir(os.path.join(d, "scripts"))):
            return os.path.relpath(path, d)
        up = os.path.dirname(d)
        if up == d:
            break
        d = up
    return os.path.join(os.path.basename(os.path.dirname(path)),
                        os.path.basename(path))


def fingerprints(findings, version=VERSION, sources=None):
    """[(finding, fingerprint)] in the findings' order; version 1 named
    files as displayed (relative to the directory of the run). sources:
    {real path: the file to read its lines from} (another revision's
    text)."""
    cache, seen, out, where = {}, {}, [], {}
    for f in findings:
        src = f["file"]
        if sources:
            src = sources.get(os.path.realpath(src), src)
        text = _line_text(src, f["line"], cache)
        if version == 1:
            name = f["file"]
        else:
            if f["file"] not in where:
                where[f["file"]] = tree_path(f["file"])
            name = where[f["file"]]
        base = "%s\0%s\0%s" % (f["rule"], name, text)
        n = seen.get(base, 0)
        seen[base] = n + 1
        fp = hashlib.sha1(("%s\0%d" % (base, n)).encode(
            "utf-8", "surrogateescape")).hexdigest()
        out.append((f, fp))
    return out


def write(path, findings):
    data = {"version": VERSION, "findings": [
        {"rule": f["rule"], "file": tree_path(f["file"]), "fingerprint": fp}
        for f, fp in fingerprints(findings)]}
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".modlife-baseline-")
    try:
        with os.fdopen(fd, "w") as out:
            json.dump(data, out, indent=1, sort_keys=True)
            out.write("\n")
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def load(path):
    """The known findings: (version, {(rule, fingerprint)})."""
    with open(path) as f:
        data = json.load(f)
    if not isinstance(data, dict) or data.get("version") not in (1, 2):
        raise ValueError("not a modlife baseline (version 1 or 2)")
    return data["version"], {(e["rule"], e["fingerprint"])
                             for e in data["findings"]}


def subtract(findings, known):
    version, keys = known
    return [f for f, fp in fingerprints(findings, version)
            if (f["rule"], fp) not in keys]
