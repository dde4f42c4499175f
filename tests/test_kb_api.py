# SPDX-License-Identifier: GPL-2.0-only
"""kb/api.tsv is the one list of the kernel API the rules know: the
checker is built from it, and every list of a semantic patch that a
"// kb: CLASS" (or "# kb: CLASS") comment names is covered by it."""
import fnmatch
import glob
import os
import re
import sys
import unittest

from util import ROOT, SPARSE, TempDir, run, write

sys.path.insert(0, ROOT)
from frontend import paths  # noqa: E402


def api():
    rows = {}
    for cls, name in paths.kb_api():
        rows.setdefault(cls, []).append(name)
    return rows


def covered(name, patterns):
    """A literal name matches a row; a regex part ("[A-Za-z0-9_]+_x")
    is one of the rows' globs ("?*_x")."""
    if re.search(r"[\[\]+*\\]", name):
        glob_ = re.sub(r"\[A-Za-z0-9_\]\+|\\w\+", "?*", name)
        return glob_ in patterns
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def annotated_lists(text):
    """(classes, [names per class]) after each kb comment."""
    lines = text.splitlines()
    out = []
    for i, ln in enumerate(lines):
        m = re.match(r"\s*(?://|#) kb: ([\w -]+)$", ln)
        if not m:
            continue
        classes = m.group(1).split()
        nxt = lines[i + 1]
        if nxt.strip() == "(":                  # SmPL ( a(...) | b(...) )
            names = []
            for ln2 in lines[i + 2:]:
                if ln2.strip() == ")":
                    break
                m2 = re.match(r"\s*(\w+)\(\.\.\.\)$", ln2)
                if m2:
                    names.append(m2.group(1))
                elif ln2.strip() != "|":
                    raise AssertionError("unreadable list line: " + ln2)
            out.append((classes, [names]))
        elif "\\(" in nxt:                      # SmPL \(a\|b\)
            names = re.search(r"\\\((.*?)\\\)", nxt).group(1).split("\\|")
            out.append((classes, [names]))
        elif "=~" in nxt:                       # identifier X =~ "^(a|b)$"
            body = re.search(r'"\^\((.*)\)\$"', nxt).group(1)
            out.append((classes, [body.split("|")]))
        elif nxt.rstrip().endswith("{"):        # python {"k": "v", ...}
            keys, values = [], []
            for ln2 in lines[i + 2:]:
                m2 = re.match(r'\s*"(\w+)":\s*"(\w+)",?$', ln2)
                if not m2:
                    break
                keys.append(m2.group(1))
                values.append(m2.group(2))
            out.append((classes, [keys, values]))
        else:
            raise AssertionError("unreadable list after: " + ln)
    return out


class ApiListsTest(unittest.TestCase):
    def test_semantic_patch_lists_are_in_the_kb(self):
        rows = api()
        seen = 0
        for path in sorted(glob.glob(os.path.join(ROOT, "cocci", "*.cocci"))):
            with open(path) as f:
                for classes, lists in annotated_lists(f.read()):
                    self.assertEqual(len(classes), len(lists), path)
                    for cls, names in zip(classes, lists):
                        self.assertIn(cls, rows, path)
                        self.assertTrue(names, path)
                        for n in names:
                            seen += 1
                            self.assertTrue(covered(n, rows[cls]),
                                            "%s: %s not in kb/api.tsv %s"
                                            % (os.path.basename(path), n,
                                               cls))
        self.assertGreaterEqual(seen, 15)

    def test_an_uncovered_name_is_caught(self):
        rows = api()
        self.assertFalse(covered("device_create", rows["register"]))
        self.assertTrue(covered("device_unregister", rows["put"]))
        self.assertTrue(covered("[A-Za-z0-9_]+_unregister", rows["put"]))
        self.assertFalse(covered("[A-Za-z0-9_]+_put", rows["put"]))

    def test_the_checker_is_built_from_the_kb(self):
        """A static device handed to a call that kb/api.tsv lists as a
        registration is registered; handed to a name it does not list,
        it is not (the checker's list is the kb's, not a copy)."""
        src = ("struct kobject { int x; };\n"
               "struct device { struct kobject kobj;\n"
               "\tvoid (*release)(struct device *); };\n"
               "int %s(struct device *d);\n"
               "static void r(struct device *d) { }\n"
               "static struct device dv = { .release = r };\n"
               "int f(void) { return %s(&dv); }\n")
        for call, want in (("device_register", True),
                           ("device_registe", False),
                           ("kset_register", True)):
            with TempDir() as tmp:
                p = os.path.join(tmp, "x.c")
                write(p, src % (call, call))
                res = run([SPARSE, "--modlife-facts=-", "-DMODULE", p])
                self.assertEqual(res.returncode, 0, res.stderr)
                self.assertEqual('"key":"registered:obj:dv"' in res.stdout,
                                 want, call + res.stdout[-800:])


if __name__ == "__main__":
    unittest.main()
