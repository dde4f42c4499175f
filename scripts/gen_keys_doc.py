#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The key table of docs/design.md, generated from kb/keys.tsv
(make keys-doc).

The table sits between two marker comments; everything between them is
this script's output, text outside them is kept:

    <!-- keys: begin (make keys-doc) -->
    | key | provided by | consumed by | what it says |
    ...
    <!-- keys: end -->

    scripts/gen_keys_doc.py            rewrite docs/design.md if it differs
    scripts/gen_keys_doc.py --check    change nothing; print a diff and exit 1
                                       when the table differs from its output

Python 3 standard library only.
"""
import argparse
import difflib
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- keys: begin (make keys-doc) -->"
END = "<!-- keys: end -->"


class GenError(Exception):
    pass


def rows(root=ROOT):
    """kb/keys.tsv's rows: (prefix, argument, [providers], [consumers],
    description); "-" is an empty list."""
    out = []
    path = os.path.join(root, "kb", "keys.tsv")
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) != 5 or not all(c.strip() for c in cols):
                raise GenError("%s:%d: not 5 columns" % (path, n))
            prefix, arg, prov, cons, text = cols
            out.append((prefix, arg, [p for p in prov.split() if p != "-"],
                        [c for c in cons.split() if c != "-"], text))
    return out


def cell(s):
    return s.replace("|", "\\|")


def provider(p):
    return "the decision (`link.c`)" if p == "link" else "`%s.c`" % p


def consumer(c):
    return "implies `%s`" % c[2:] if c.startswith("=>") else c


def table(root=ROOT):
    lines = ["| key | provided by | consumed by | what it says |",
             "|---|---|---|---|"]
    for prefix, arg, prov, cons, text in rows(root):
        key = prefix + (arg if arg != "-" else "")
        lines.append("| `%s` | %s | %s | %s |" % (
            cell(key), ", ".join(map(provider, prov)),
            ", ".join(map(consumer, cons)), cell(text)))
    return lines


def generate(text, lines):
    """text with the lines between the markers replaced."""
    old = text.split("\n")
    try:
        b = old.index(BEGIN)
        e = old.index(END, b)
    except ValueError:
        raise GenError("docs/design.md has no %s ... %s" % (BEGIN, END))
    return "\n".join(old[:b + 1] + lines + old[e:])


def run(root, check, stream=sys.stdout):
    """Rewrite (or check) docs/design.md; 1 when it differs."""
    path = os.path.join(root, "docs", "design.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    new = generate(text, table(root))
    if new == text:
        return 0
    if check:
        stream.writelines(difflib.unified_diff(
            text.splitlines(True), new.splitlines(True),
            "docs/design.md", "docs/design.md (make keys-doc)"))
    else:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
    return 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="change nothing; exit 1 with a diff if it differs")
    ap.add_argument("--root", default=ROOT, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    try:
        differ = run(args.root, args.check)
    except (GenError, OSError) as e:
        sys.stderr.write("gen_keys_doc: %s\n" % e)
        return 2
    return 1 if args.check and differ else 0


if __name__ == "__main__":
    sys.exit(main())
