# SPDX-License-Identifier: GPL-2.0-only
"""kb/rules.tsv is the one rule table: the README's rules table, each rule
page's family, engines and "Automatic fix" lines, and the corpus agree
with it (read through frontend/rules.py, the front end's only reader)."""
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from frontend import rules  # noqa: E402

RULES = rules.load(os.path.join(ROOT, "kb", "rules.tsv"))
CORPUS = os.path.join(ROOT, "corpus")
PAGES = os.path.join(ROOT, "docs", "rules")

README_HEAD = "| rule | family | by default | finds |"
# a corpus module named in backquotes on a rule page
MODULE_REF = re.compile(r"`((?:[a-z0-9]+-)+(?:bug|fixed)|trap-[a-z0-9-]+)`")
SAFE_FIX = ("**Automatic fix:** yes: `modlife fix` %s; the result is "
            "checked (no code after a return, no barrier after the cache "
            "it protects is destroyed, no dereference of an `ERR_PTR()` on "
            "an error path) and re-scanned before it is written.")
NO_FIX = "**Automatic fix:** no (`modlife fix` lists it): %s."


def readme_rows(text):
    """The README's rules table: [[cell, ...]] below its header."""
    lines = text.splitlines()
    if README_HEAD not in lines:
        return None
    rows = []
    for line in lines[lines.index(README_HEAD) + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def page(rule):
    with open(os.path.join(PAGES, rule + ".md"), encoding="utf-8") as f:
        return f.read()


def lines_starting(text, prefix):
    return [ln for ln in text.splitlines() if ln.startswith(prefix)]


def expected_rules(module):
    with open(os.path.join(CORPUS, module, "EXPECTED"),
              encoding="utf-8") as f:
        return {ln.strip().rsplit(":", 1)[1] for ln in f if ln.strip()}


def corpus_modules():
    return sorted(d for d in os.listdir(CORPUS)
                  if os.path.isfile(os.path.join(CORPUS, d, "EXPECTED")))


class RuleTableTest(unittest.TestCase):
    def test_reader_is_the_table(self):
        """The front end's RULES is the table, in its order; the scripts
        it names exist."""
        self.assertEqual(list(rules.RULES), list(RULES))
        self.assertTrue(RULES)
        for name, r in RULES.items():
            self.assertEqual(r.name, name)
            if r.cocci:
                self.assertTrue(os.path.isfile(os.path.join(
                    ROOT, "cocci", r.cocci)), name)
            self.assertEqual(r.fix_subject is not None, r.safe_fix, name)
            self.assertEqual(r.proven_by is not None, r.scenario is not None,
                             name)

    def test_no_other_rule_table(self):
        for old in ("fixes.tsv", "prove.tsv"):
            self.assertFalse(os.path.exists(os.path.join(ROOT, "kb", old)),
                             old)

    def test_readme_table(self):
        """One row a rule, in the table's order: name, family, on or off
        by default, and what it finds."""
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            rows = readme_rows(f.read())
        self.assertIsNotNone(rows, "README.md: no line " + README_HEAD)
        self.assertEqual([row[0] for row in rows],
                         ["`%s`" % n for n in RULES], "README.md rules")
        for row, r in zip(rows, RULES.values()):
            self.assertEqual(len(row), 4, row)
            want = [r.family, "off (experimental)" if r.experimental
                    else "on"]
            self.assertEqual(row[1:3], want, "README.md row of " + r.name)
            self.assertTrue(row[3], r.name)

    def test_a_page_for_each_rule(self):
        pages = sorted(p[:-len(".md")] for p in os.listdir(PAGES)
                       if p.endswith(".md"))
        self.assertEqual(pages, sorted(RULES))

    def test_page_family_and_engines(self):
        """**Family:** FAMILY[ (gloss)] · **Engine(s):** ..., naming the
        rule's semantic patch when it has one; experimental rules say so
        first."""
        for name, r in RULES.items():
            text = page(name)
            got = lines_starting(text, "**Family:**")
            self.assertEqual(len(got), 1, name + ": one **Family:** line")
            m = re.match(r"\*\*Family:\*\* (.+?) · \*\*Engines?:\*\* (.+)$",
                         got[0])
            self.assertIsNotNone(m, name + ": " + got[0])
            family, engines = m.groups()
            self.assertTrue(family == r.family or
                            (family.startswith(r.family + " (") and
                             family.endswith(")")),
                            "%s: family %r, kb/rules.tsv says %r"
                            % (name, family, r.family))
            self.assertEqual("`cocci/%s`" % r.cocci in engines,
                             bool(r.cocci), name + ": " + engines)
            self.assertEqual("Coccinelle" in engines, bool(r.cocci), name)
            head = text[:text.index(got[0])]
            self.assertEqual("**Experimental, off by default**" in head,
                             r.experimental, name)

    def test_page_automatic_fix(self):
        """The page's "Automatic fix" line is the table's: yes with what
        the fix does, or no with why."""
        for name, r in RULES.items():
            got = lines_starting(page(name), "**Automatic fix:**")
            want = (SAFE_FIX if r.safe_fix else NO_FIX) % r.fix_why
            self.assertEqual(got, [want], name)

    def test_corpus_modules_for_each_rule(self):
        """Each rule has a *-bug module whose EXPECTED names it and that
        bug's *-fixed twin; every module a rule page names exists; every
        rule EXPECTED names is in the table."""
        mods = corpus_modules()
        seen = set()
        for m in mods:
            seen |= expected_rules(m)
        self.assertLessEqual(seen, set(RULES))
        for name in RULES:
            bugs = [m for m in mods if m.endswith("-bug") and
                    name in expected_rules(m)]
            self.assertTrue(bugs, name + ": no *-bug module expects it")
            fixed = [b[:-len("-bug")] + "-fixed" for b in bugs]
            self.assertTrue(set(fixed) & set(mods),
                            name + ": no *-fixed twin of " + ", ".join(bugs))
            named = set(MODULE_REF.findall(page(name)))
            self.assertTrue(named & set(bugs),
                            name + ": its page names none of " +
                            ", ".join(bugs))
            self.assertLessEqual(named, set(mods),
                                 name + ": page names modules not in "
                                 "corpus/")


if __name__ == "__main__":
    unittest.main()
