# SPDX-License-Identifier: GPL-2.0-only
"""make prove: every bug/fixed pair of the corpus under Debian's kernel.

Each case: the module, what prove is given (the scenario is forced, so
that a fixed twin without findings runs the same steps), and the verdict
with a word of its reason. Bugs whose window is a race on another CPU
(del_timer() without _sync, a thread told to stop but not waited for) or
that need hardware to probe are listed with what a run shows: prove says
"not reproduced" or "no scenario", never "proven", for them."""
import unittest

from test_prove import prove

TAGS = ["--trigger", "echo +a > /dev/tagdir", "--trigger",
        "echo +b > /dev/tagdir"]

CASES = [
    # owner pinning
    ("misc-char-bug", "owner", [], "proven", "closing a file"),
    ("misc-char-fixed", "owner", [], "not reproduced", "pinned"),
    ("cdev-bug", "owner", [], "proven", "closing a file"),
    ("cdev-fixed", "owner", [], "not reproduced", "pinned"),
    ("blk-bug", "owner", [], "proven", "closing a file"),
    ("blk-fixed", "owner", [], "not reproduced", "pinned"),
    ("debugfs-fops-bug", "owner", [], "proven", "closing a file"),
    ("debugfs-fops-fixed", "owner", [], "not reproduced", "pinned"),
    # release in module text or data
    ("release-bug", "hold", [], "proven", "dropping the reference"),
    ("release-fixed", "hold", [], "not reproduced", "did not fault"),
    ("static-kobj-bug", "hold", [], "proven", "dropping the reference"),
    ("static-kobj-fixed", "hold", [], "not reproduced", "did not fault"),
    ("static-pdev-bug", "hold", [], "proven", "dropping the reference"),
    ("static-pdev-fixed", "hold", [], "not reproduced", "did not fault"),
    ("empty-release-bug", "hold", [], "proven", "dropping the reference"),
    # still a release in module text (module-release): faults too
    ("empty-release-fixed", "hold", [], "proven", "dropping the reference"),
    # exit waits: the bug hangs; the fixed twin does not (its release is
    # still module text, which the drop proves)
    ("exit-wait-bug", "hold", [], "proven", "rmmod hung"),
    ("exit-wait-fixed", "hold", [], "proven", "dropping the reference"),
    # pending callbacks
    ("work-static-bug", "pending", [], "proven", "waiting after"),
    ("work-static-fixed", "pending", [], "not reproduced", "nothing"),
    ("work-restart-bug", "pending", [], "proven", "waiting after"),
    ("work-restart-fixed", "pending", [], "not reproduced", "nothing"),
    ("timer-restart-bug", "pending", ["--param", "timeout_s=1"], "proven",
     "waiting after"),
    ("timer-restart-fixed", "pending", ["--param", "timeout_s=1"],
     "not reproduced", "nothing"),
    ("rcu-fixed", "pending", TAGS, "not reproduced", "nothing"),
]


class CorpusProofs(unittest.TestCase):
    pass


def _case(module, scenario, extra, verdict, word):
    def test(self):
        rc, data, err = prove("corpus/" + module, "--rules", "all",
                              "--scenario", scenario, *extra)
        self.assertIsNotNone(data, err)
        run = data["runs"][0]
        self.assertEqual(run["verdict"], verdict, run)
        self.assertIn(word, run["why"])
        self.assertEqual(rc, 1 if verdict == "proven" else 0, err)
    return test


for _c in CASES:
    setattr(CorpusProofs, "test_" + _c[0].replace("-", "_"), _case(*_c))

if __name__ == "__main__":
    unittest.main()
