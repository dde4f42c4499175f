# SPDX-License-Identifier: GPL-2.0-only
"""Output formats: gcc-style text, JSON, SARIF 2.1.0 and GitLab code
quality."""
import json
import os
import re
import urllib.parse

from .. import VERSION, paths
from ..scanning import staging
from ..tree.modules import REASONS
from ..rules import RULES, doc_page

# one escaping of names and messages for every output (staging.py)
display = staging.display
lead = staging.lead


def text(result, out, err):
    # one report line per finding, whatever a file name holds
    d = display
    # a skipped file is named when the user named it; --stats counts all
    for s in result.get("skipped", []):
        if s.get("named"):
            err.write("%s: note: not checked: %s (%s)\n" % (
                lead(s["file"]), s["reason"], REASONS.get(s["reason"], "")))
    for f in result["findings"]:
        finding_text(f, out)
        if "proof" in f:
            proof_text(f, out)
    for f in result.get("fixed", []):
        # REV's line: the finding a change took away
        out.write("%s:%d:%d: note: fixed: %s [modlife-%s]\n" % (
            lead(f["file"]), f["line"], f["column"], d(f["message"]),
            f["rule"]))
    for x in result.get("stand_ins", []):
        err.write("%s: note: %s\n" % (lead(x["file"]), d(stand_in_text(x))))
    for e in result["errors"]:
        msg = d(e["message"])
        if re.match(r"^\d+:\d+: ", msg):   # sparse's "line:col: error: ..."
            err.write("%s:%s\n" % (lead(e["file"]), msg))
        elif re.match(r"^\S+:\d+:\d+: error: ", msg):     # in a header
            err.write("%s: %s\n" % (lead(e["file"]), msg))
        else:
            err.write("%s: error: %s\n" % (lead(e["file"]), msg))


def stand_in_text(x):
    return ("parsed with an empty stand-in for '%s', which the build "
            "makes: findings may miss what it declares" % x["header"])


def finding_text(f, out):
    out.write("%s:%d:%d: %s: %s [modlife-%s]\n" % (
        lead(f["file"]), f["line"], f["column"], f["severity"],
        display(f["message"]), f["rule"]))


def proof_text(f, out):
    """modlife prove's verdict under its finding, with the console's
    first report lines."""
    p = f["proof"]
    out.write("%s:%d:%d: note: %s%s: %s\n" % (
        lead(f["file"]), f["line"], f["column"], p["verdict"],
        " (the module's %s scenario)" % p["scenario"]
        if p.get("scope") == "module" else "", display(p["why"])))
    for ln in p.get("report", []):
        out.write("    | %s\n" % display(ln))


def dump_json(doc, out, **kw):
    """JSON, ASCII whatever a name holds (so valid UTF-8 too), with '##['
    written '##\\u005b': the same string to a JSON reader, and no
    workflow command when the report is shown in a job's log."""
    out.write(json.dumps(doc, ensure_ascii=True, **kw)
              .replace("##[", "##\\u005b") + "\n")


_SURROGATE = re.compile("[\ud800-\udfff]")


def _strict(obj):
    """obj with the surrogates of its strings (os.fsdecode()'s bytes that
    are not UTF-8) written as display() writes them: SARIF and GitLab's
    readers want Unicode scalar values only."""
    if isinstance(obj, str):
        return _SURROGATE.sub(lambda m: staging.display(m.group(0))
                              if 0xdc80 <= ord(m.group(0)) <= 0xdcff
                              else "\\u%04x" % ord(m.group(0)), obj)
    if isinstance(obj, dict):
        return {_strict(k): _strict(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_strict(v) for v in obj]
    return obj


def _skipped(result):
    return [{"file": s["file"], "reason": s["reason"]}
            for s in result.get("skipped", [])]


def as_json(result, out, err):
    doc = {"findings": result["findings"], "errors": result["errors"]}
    if "skipped" in result:
        doc["skipped"] = _skipped(result)
    if result.get("stand_ins"):
        doc["stand_ins"] = result["stand_ins"]
    if "fixed" in result:
        doc["fixed"] = result["fixed"]
    # names exact: a byte that is not UTF-8 is the \udcNN escape of
    # os.fsdecode(), which os.fsencode() turns back into the byte
    dump_json(doc, out, indent=2, sort_keys=True)


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


def _dir_uri(path):
    """A directory's file: URI, ending in one '/' (file:/// for /)."""
    uri = _file_uri(path)
    return uri if uri.endswith("/") else uri + "/"


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
                "uri": _dir_uri(os.getcwd())}},
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
                } for s in _skipped(result)] + [{
                    "level": "note",
                    "message": {"text": display(stand_in_text(x))},
                    "locations": [{"physicalLocation": {
                        "artifactLocation": _location(x["file"])}}],
                    "properties": {"standIn": x["header"]},
                } for x in result.get("stand_ins", [])],
            }],
        }],
    }
    dump_json(_strict(doc), out, indent=2)


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
    dump_json(_strict(doc), out, indent=2)


FORMATS = {"text": text, "json": as_json, "sarif": sarif,
           "codequality": codequality}
