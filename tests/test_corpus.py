# SPDX-License-Identifier: GPL-2.0-only
"""Every corpus module: modlife scan finds exactly its EXPECTED findings
(file, line, rule), and exits 1 exactly when there are findings."""
import os
import unittest

from util import CORPUS, expected, finding_keys, scan, skipped


def _modules():
    return sorted(d for d in os.listdir(CORPUS)
                  if os.path.isfile(os.path.join(CORPUS, d, "EXPECTED")))


class CorpusTest(unittest.TestCase):
    pass


def _make(name):
    def test(self):
        d = os.path.join(CORPUS, name)
        rc, result, err = scan([d])
        self.assertIsNotNone(result, err)
        self.assertEqual(result["errors"], [])
        want = expected(d)
        self.assertEqual(finding_keys(result, d), want)
        self.assertEqual(rc, 1 if want else 0)
        # what is not module code is listed, with the reason
        self.assertEqual(sorted("%s:%s" % (os.path.relpath(s["file"], d),
                                           s["reason"])
                                for s in result["skipped"]), skipped(d))
    return test


for _name in _modules():
    setattr(CorpusTest, "test_" + _name.replace("-", "_"), _make(_name))


class CorpusShapeTest(unittest.TestCase):
    def test_corpus_has_bugs_fixes_and_traps(self):
        mods = _modules()
        self.assertTrue(any(m.endswith("-bug") for m in mods))
        self.assertTrue(any(m.endswith("-fixed") for m in mods))
        self.assertTrue(any(m.startswith("trap-") for m in mods))
        for m in mods:
            if m.endswith("-bug"):
                self.assertNotEqual(expected(os.path.join(CORPUS, m)), [],
                                    m + " must expect a finding")
            if m.endswith("-fixed"):
                # the fixed form has none of its bug's findings (a fix
                # toward the cdev pattern may leave a weaker rule)
                bug = m[:-len("-fixed")] + "-bug"
                rule = lambda k: k.rsplit(":", 1)[1]
                bug_rules = {rule(k) for k in
                             expected(os.path.join(CORPUS, bug))}
                fixed_rules = {rule(k) for k in
                               expected(os.path.join(CORPUS, m))}
                self.assertFalse(bug_rules & fixed_rules, m)

    def test_whole_corpus_in_one_scan(self):
        """Modules scanned together link per module, not per scan; every
        key their facts provide or name is declared (kb/keys.tsv)."""
        rc, result, err = scan([CORPUS])
        self.assertNotIn("kb/keys.tsv", err)
        want = []
        for m in _modules():
            want += [m + "/" + k for k in expected(os.path.join(CORPUS, m))]
        self.assertEqual(finding_keys(result, CORPUS), sorted(want))
        self.assertEqual(rc, 1)
