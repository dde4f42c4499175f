# SPDX-License-Identifier: GPL-2.0-only
"""Output formats: gcc-style text, JSON and SARIF 2.1.0."""
import json
import os
import re
import urllib.parse

from . import VERSION, paths
from .modules import REASONS
from .rules import RULES, doc_page
from .staging import display


def text(result, out, err):
    # one report line per finding, whatever a file name holds
    d = display
    # a skipped file is named when the user named it; --stats counts all
    for s in result.get("skipped", []):
        if s.get("named"):
            err.write("%s: note: not checked: %s (%s)\n" % (
                d(s["file"]), s["reason"], REASONS.get(s["reason"], "")))
    for f in result["findings"]:
        finding_text(f, out)
        if "proof" in f:
            proof_text(f, out)
    for f in result.get("fixed", []):
        # REV's line: the finding a change took away
        out.write("%s:%d:%d: note: fixed: %s [modlife-%s]\n" % (
            d(f["file"]), f["line"], f["column"], d(f["message"]),
            f["rule"]))
    for e in result["errors"]:
        msg = d(e["message"])
        if re.match(r"^\d+:\d+: ", msg):   # sparse's "line:col: error: ..."
            err.write("%s:%s\n" % (d(e["file"]), msg))
        elif re.match(r"^\S+:\d+:\d+: error: ", msg):     # in a header
            err.write("%s: %s\n" % (d(e["file"]), msg))
        else:
            err.write("%s: error: %s\n" % (d(e["file"]), msg))


def finding_text(f, out):
    out.write("%s:%d:%d: %s: %s [modlife-%s]\n" % (
        display(f["file"]), f["line"], f["column"], f["severity"],
        display(f["message"]), f["rule"]))


def proof_text(f, out):
    """modlife prove's verdict under its finding, with the console's
    first report lines."""
    p = f["proof"]
    out.write("%s:%d:%d: note: %s%s: %s\n" % (
        display(f["file"]), f["line"], f["column"], p["verdict"],
        " (the module's %s scenario)" % p["scenario"]
        if p.get("scope") == "module" else "", display(p["why"])))
    for ln in p.get("report", []):
        out.write("    | %s\n" % display(ln))


def _skipped(result):
    return [{"file": s["file"], "reason": s["reason"]}
            for s in result.get("skipped", [])]


def as_json(result, out, err):
    doc = {"findings": result["findings"], "errors": result["errors"]}
    if "skipped" in result:
        doc["skipped"] = _skipped(result)
    if "fixed" in result:
        doc["fixed"] = result["fixed"]
    json.dump(doc, out, indent=2, sort_keys=True)
    out.write("\n")


def _help_text(rule):
    d = paths.docs_dir()
    if d:
        try:
            with open(os.path.join(d, "rules", rule + ".md")) as f:
                return f.read()
        except OSError:
            pass
    return RULES[rule]["summary"]


def _file_uri(path):
    """An absolute file: URI, percent-encoded from the path's bytes."""
    return "file://" + urllib.parse.quote(os.fsencode(os.path.abspath(path)))


def _location(path):
    """SARIF artifactLocation: relative to %SRCROOT% (the directory of
    the run) when inside it, percent-encoded."""
    rel = os.path.relpath(os.path.abspath(path))
    if rel.startswith(".."):
        return {"uri": _file_uri(path)}
    return {"uri": urllib.parse.quote(os.fsencode(rel)),
            "uriBaseId": "%SRCROOT%"}


def _help_uri(rule):
    return _file_uri(os.path.join(paths.ROOT, doc_page(rule)))


def sarif(result, out, err):
    rules = sorted(RULES)
    index = {r: i for i, r in enumerate(rules)}
    doc = {
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "originalUriBaseIds": {"%SRCROOT%": {
                "uri": _file_uri(os.getcwd()) + "/"}},
            "tool": {"driver": {
                "name": "modlife",
                "version": VERSION,
                "rules": [{
                    "id": r,
                    "name": r,
                    "shortDescription": {"text": RULES[r]["summary"]},
                    "fullDescription": {"text": RULES[r]["summary"]},
                    "help": {"text": _help_text(r),
                             "markdown": _help_text(r)},
                    "helpUri": _help_uri(r),
                    "defaultConfiguration": {"level": "warning"},
                } for r in rules],
            }},
            "results": [{
                "ruleId": f["rule"],
                "ruleIndex": index[f["rule"]],
                "level": "warning",
                "message": {"text": display(f["message"])},
                "locations": [{"physicalLocation": {
                    "artifactLocation": _location(f["file"]),
                    "region": {"startLine": f["line"],
                               "startColumn": f["column"]}}}],
                "properties": dict({"engine": f["engine"]}, **(
                    {"proof": f["proof"]} if "proof" in f else {})),
                **({"baselineState": f["baseline"]} if "baseline" in f
                   else {}),
            } for f in result["findings"]],
            "invocations": [{
                "executionSuccessful": True,
                "toolExecutionNotifications": [{
                    "level": "error",
                    "message": {"text": display(e["message"])},
                    "locations": [{"physicalLocation": {
                        "artifactLocation": _location(e["file"])}}],
                } for e in result["errors"]] + [{
                    "level": "note",
                    "message": {"text": "not checked: %s (%s)" % (
                        s["reason"], REASONS.get(s["reason"], ""))},
                    "locations": [{"physicalLocation": {
                        "artifactLocation": _location(s["file"])}}],
                    "properties": {"reason": s["reason"]},
                } for s in _skipped(result)],
            }],
        }],
    }
    json.dump(doc, out, indent=2)
    out.write("\n")


def codequality(result, out, err):
    """GitLab's code quality report (a subset of Code Climate's issue
    format): paths relative to the directory of the run, as GitLab
    reads them from the repository's top; the fingerprint is the
    baseline's, stable across line shifts."""
    from .baseline import fingerprints
    doc = []
    for f, fp in fingerprints(result["findings"]):
        doc.append({
            "type": "issue",
            "check_name": "modlife-" + f["rule"],
            "description": display(f["message"]),
            "categories": ["Bug Risk"],
            "severity": "major",
            "fingerprint": fp,
            "location": {"path": os.path.relpath(os.path.abspath(f["file"])),
                         "lines": {"begin": f["line"]}},
        })
    json.dump(doc, out, indent=2)
    out.write("\n")


FORMATS = {"text": text, "json": as_json, "sarif": sarif,
           "codequality": codequality}
