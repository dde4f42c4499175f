# SPDX-License-Identifier: GPL-2.0-only
"""The decision, pinned down on facts: tests/golden/NAME.facts through
modlife-sparse --modlife-link must print exactly NAME.expected
("file:line:col: rule: message", one finding a line)."""
import glob
import json
import os
import subprocess
import unittest

from util import SPARSE, TempDir

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")


def link(*args, stdin=None):
    res = subprocess.run([SPARSE, "--modlife-link"] + list(args),
                         input=stdin, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    return res.returncode, res.stdout.decode("utf-8"), \
        res.stderr.decode("utf-8")


def lines(out):
    got = []
    for ln in out.splitlines():
        d = json.loads(ln)
        if d["k"] == "finding":
            got.append("%s:%d:%d: %s: %s" % (d["file"], d["line"], d["col"],
                                             d["rule"], d["message"]))
    return got


class GoldenTest(unittest.TestCase):
    def test_every_golden_file(self):
        cases = sorted(glob.glob(os.path.join(GOLDEN, "*.facts")))
        self.assertGreaterEqual(len(cases), 7)
        for facts in cases:
            with open(facts[:-len(".facts")] + ".expected",
                      encoding="utf-8") as f:
                want = [ln.rstrip("\n") for ln in f if ln.strip()]
            rc, out, err = link(facts)
            self.assertEqual(lines(out), want, facts + "\n" + err)
            bad = os.path.basename(facts) == "malformed.facts"
            self.assertEqual(rc, 2 if bad else 0, facts + "\n" + err)

    def test_malformed_lines_are_named_and_skipped(self):
        path = os.path.join(GOLDEN, "malformed.facts")
        rc, out, err = link(path)
        self.assertIn("malformed.facts:3: malformed fact", err)
        self.assertIn("malformed.facts:4: malformed fact", err)
        self.assertEqual(len(lines(out)), 1)

    def test_an_export_in_another_file_decides(self):
        """Without main.c's EXPORT_SYMBOL(lib_make), nothing exported
        reaches lib_add_dev(): the module registered lib_dev itself."""
        with open(os.path.join(GOLDEN, "exports.facts")) as f:
            facts = [ln for ln in f if '"k":"export"' not in ln]
        self.assertEqual(len(facts), 13)
        with TempDir() as tmp:
            p = os.path.join(tmp, "x.facts")
            with open(p, "w") as f:
                f.writelines(facts)
            rc, out, err = link(p)
        self.assertEqual(lines(out), [
            "core.c:1:1: static-object: registered on behalf of dependents",
            "core.c:2:1: static-object: registered by the module itself"])

    def test_modules_on_stdin_one_after_another(self):
        """One process links a whole scan: each module ends with an end
        line, and nothing of one module leaks into the next."""
        def read(name):
            with open(os.path.join(GOLDEN, name), "rb") as f:
                return f.read()
        end = b'{"k":"end"}\n'
        stdin = read("keys.facts") + end + read("unload.facts") + end + \
            end + read("reach.facts") + end
        rc, out, err = link(stdin=stdin)
        self.assertEqual(rc, 0, err)
        parts = out.split('{"k":"end"}\n')
        self.assertEqual(len(parts), 5)
        self.assertEqual(parts[4], "")
        self.assertEqual([len(lines(p)) for p in parts[:4]], [2, 1, 0, 3])
        # the keys of the first module are gone in the second
        self.assertNotIn("missing-owner", parts[1])

    def test_explain_says_why_each_dropped_candidate_was(self):
        """--modlife-explain: the unless key that was provided, the
        required key that was not, the exit path or the unload a
        candidate needs; what stands is the same."""
        def path(name):
            return os.path.join(GOLDEN, name)
        for name, want in (
                ("keys.facts", [
                    "a.c:10:1: missing-owner: dropped: unless key "
                    "provided 'pinned:a'",
                    "a.c:30:3: cdev-owner: dropped: required key not "
                    "provided 'call:cdev_device_add'"]),
                ("reach.facts", [
                    "a.c:12:2: unregister-wait-in-exit: dropped: no exit "
                    "path reaches 'm_never'",
                    "a.c:14:2: unregister-wait-in-exit: dropped: unless "
                    "key provided 'exit-reaches:m_teardown'"]),
                ("unload.facts", [
                    "a.c:1:1: static-object: dropped: needs an unload; "
                    "the module has no exit"]),
                # b.c's key still counts; its own findings (and those
                # of the headers it includes) that would stand are
                # withheld; one its keys discharge is dropped for that
                ("unparsed.facts", [
                    "a.c:9:1: missing-owner: dropped: unless key "
                    "provided 'owner:obj:c_fops'",
                    "b.c:7:1: missing-owner: dropped: its file did not "
                    "parse wholly (b.c:3:9: error: expression expected)",
                    "b.c:8:1: missing-owner: dropped: unless key "
                    "provided 'owner:obj:c_fops'",
                    "inc.h:2:1: missing-owner: dropped: its file did not "
                    "parse wholly (b.c:3:9: error: expression expected)"]),
                # one timer's arms: stopped again in its function, then
                # the first of the file's that stands
                ("once.facts", [
                    "a.c:10:2: exit-pending-timer: dropped: unless key "
                    "provided 'stopped-after:m_poll@10:2'",
                    "a.c:30:2: exit-pending-timer: dropped: an earlier "
                    "one of the file stands 'obj:t'"])):
            rc, out, err = link("--modlife-explain", path(name))
            self.assertEqual(rc, 0, err)
            self.assertEqual(err.splitlines(), want)
            self.assertEqual(out, link(path(name))[1])
        # modules on stdin alike
        with open(path("keys.facts"), "rb") as f:
            rc, out, err = link("--modlife-explain",
                                stdin=f.read() + b'{"k":"end"}\n')
        self.assertEqual(len(err.splitlines()), 2, err)
        self.assertEqual(len(lines(out)), 2)

    def test_a_missing_facts_file(self):
        rc, out, err = link("/nonexistent/facts")
        self.assertEqual(rc, 2)
        self.assertIn("cannot read facts file /nonexistent/facts", err)


if __name__ == "__main__":
    unittest.main()
