# SPDX-License-Identifier: GPL-2.0-only
"""Every corpus module: modlife scan finds exactly its EXPECTED findings
(file, line, rule) and lists what it skips, and exits 1 exactly when
there are findings."""
import os
import unittest

from util import CORPUS, expected, finding_keys, scan, skipped


def _modules():
    return sorted(d for d in os.listdir(CORPUS)
                  if os.path.isfile(os.path.join(CORPUS, d, "EXPECTED")))


class CorpusTest(unittest.TestCase):
    """One scan of the whole corpus, read per module (a scan of one
    module alone is a process start of its own: some 35 s of CPU over
    the corpus); exit statuses of modules scanned alone below."""

    @classmethod
    def setUpClass(cls):
        cls.rc, cls.result, cls.err = scan([CORPUS])

    def test_exit_status_of_a_module_scanned_alone(self):
        for name, want in (("misc-char-bug", 1), ("misc-char-fixed", 0),
                           ("trap-cdev-fops-owner", 0)):
            d = os.path.join(CORPUS, name)
            rc, result, err = scan([d])
            self.assertEqual(rc, want, (name, err))
            self.assertEqual(finding_keys(result, d), expected(d), name)


def _under(items, d):
    return [x for x in items
            if os.path.abspath(x["file"]).startswith(d + os.sep)]


def _make(name):
    def test(self):
        d = os.path.join(CORPUS, name)
        self.assertIsNotNone(self.result, self.err)
        self.assertEqual(_under(self.result["errors"], d), [])
        found = dict(self.result, findings=_under(self.result["findings"],
                                                  d))
        self.assertEqual(finding_keys(found, d), expected(d))
        # what is not module code is listed, with the reason
        self.assertEqual(sorted("%s:%s" % (os.path.relpath(s["file"], d),
                                           s["reason"])
                                for s in _under(self.result["skipped"], d)),
                         skipped(d))
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
