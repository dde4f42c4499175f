# SPDX-License-Identifier: GPL-2.0-only
"""docs/ci.md's recipes, run as written on a small git repository made
from corpus modules: the shell recipe fails on a change that adds a bug
and names it, and passes a change elsewhere; the GitHub Actions and
GitLab CI scan lines write a valid SARIF / code quality report of the
new finding only."""
import json
import os
import re
import shutil
import subprocess
import unittest

from util import (CORPUS, MODLIFE, ROOT, TempDir, edit, git,
                  seeded_user_cache)

CI_MD = os.path.join(ROOT, "docs", "ci.md")


def blocks():
    """[(marker comment before it or "", language, text)] of ci.md."""
    with open(CI_MD) as f:
        text = f.read()
    return [(m.group(1) or "", m.group(2), m.group(3)) for m in re.finditer(
        r"(?:<!-- (tested:[^>]*) -->\n)?```(\w*)\n(.*?)```", text, re.S)]


def tested(lang):
    return [b for mark, lng, b in blocks() if mark and lng == lang]


class Fixture:
    """origin (main: three corpus modules) and a clone to change."""

    def __init__(self, tmp):
        base = os.path.join(tmp, "origin")
        os.makedirs(base)
        for m in ("misc-char-fixed", "misc-char-bug", "timer-fixed"):
            shutil.copytree(os.path.join(CORPUS, m), os.path.join(base, m))
        git(base, "init", "-q")
        git(base, "add", "-A")
        git(base, "commit", "-q", "-m", "base")
        self.work = os.path.join(tmp, "work")
        git(tmp, "clone", "-q", base, self.work)
        self.bin = os.path.join(tmp, "bin")
        os.makedirs(self.bin)
        os.symlink(MODLIFE, os.path.join(self.bin, "modlife"))
        self.env = dict(os.environ, PATH=self.bin + os.pathsep +
                        os.environ["PATH"],
                        XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        seeded_user_cache(self.env)

    def commit(self, branch, path, old, new):
        git(self.work, "checkout", "-q", "-b", branch, "origin/main")
        edit(os.path.join(self.work, path), old, new)
        git(self.work, "commit", "-q", "-am", branch)

    def sh(self, script, *args, env=None):
        return subprocess.run(["sh", "-c", script, "recipe"] + list(args),
                              cwd=self.work, env=dict(self.env, **(env or {})),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)


OWNER = ("misc-char-fixed/mchar.c", "\t.owner\t\t= THIS_MODULE,\n", "")


class ShellRecipeTest(unittest.TestCase):
    def test_a_bug_fails_and_is_named_a_change_elsewhere_passes(self):
        (script,) = tested("sh")
        with TempDir() as tmp:
            fx = Fixture(tmp)
            fx.commit("adds-bug", *OWNER)
            res = fx.sh(script, "origin/main")
            self.assertEqual(res.returncode, 1, res.stderr)
            self.assertEqual(
                [ln.split(": warning: ")[0] for ln in
                 res.stdout.splitlines()], ["misc-char-fixed/mchar.c:73:37"])
            self.assertIn("adds the findings", res.stderr)
            # misc-char-bug has a finding already; the change is a comment
            fx.commit("elsewhere", "misc-char-bug/mchar.c", "#include",
                      "/* reworded */\n#include")
            res = fx.sh(script, "origin/main")
            self.assertEqual((res.returncode, res.stdout.strip()),
                             (0, "modlife: no new finding since "
                              "origin/main"), res.stderr)
            res = fx.sh(script, "no-such-branch")
            self.assertEqual(res.returncode, 2)


def scan_line(yaml):
    (line,) = [ln.strip().lstrip("- ") for ln in yaml.splitlines()
               if "modlife scan" in ln]
    return line


class HostedRecipesTest(unittest.TestCase):
    def test_github_actions_sarif(self):
        import sarif_schema
        (yaml,) = [b for b in tested("yaml") if "upload-sarif" in b]
        with TempDir() as tmp:
            fx = Fixture(tmp)
            fx.commit("adds-bug", *OWNER)
            out = os.path.join(tmp, "github_output")
            open(out, "w").close()
            res = fx.sh(scan_line(yaml), env={"GITHUB_BASE_REF": "main",
                                              "GITHUB_OUTPUT": out})
            self.assertEqual(res.returncode, 0, res.stderr)
            with open(out) as f:
                self.assertEqual(f.read(), "status=1\n")
            with open(os.path.join(fx.work, "modlife.sarif")) as f:
                doc = json.load(f)
            if os.path.isfile(sarif_schema.SCHEMA):
                self.assertEqual(sarif_schema.validate(doc), [])
            (r,) = doc["runs"][0]["results"]
            loc = r["locations"][0]["physicalLocation"]
            self.assertEqual((r["ruleId"], r["baselineState"],
                              loc["artifactLocation"]["uri"],
                              loc["region"]["startLine"]),
                             ("missing-owner", "new",
                              "misc-char-fixed/mchar.c", 73))

    def test_gitlab_code_quality(self):
        (yaml,) = [b for b in tested("yaml") if "codequality" in b]
        with TempDir() as tmp:
            fx = Fixture(tmp)
            fx.commit("adds-bug", *OWNER)
            sha = git(fx.work, "merge-base", "origin/main", "HEAD")
            res = fx.sh(scan_line(yaml),
                        env={"CI_MERGE_REQUEST_DIFF_BASE_SHA": sha})
            self.assertEqual(res.returncode, 1, res.stderr)
            with open(os.path.join(fx.work,
                                   "gl-code-quality-report.json")) as f:
                (issue,) = json.load(f)
            self.assertEqual((issue["check_name"], issue["location"]),
                             ("modlife-missing-owner",
                              {"path": "misc-char-fixed/mchar.c",
                               "lines": {"begin": 73}}))
            self.assertRegex(issue["fingerprint"], "^[0-9a-f]{40}$")
            self.assertIn("description", issue)


TREE = os.path.join(ROOT, "build", "linux", "linux-source-6.1")


class CoccicheckRecipeTest(unittest.TestCase):
    def test_git_ceiling_directories_in_an_outer_work_tree(self):
        """The tree lies in this repository's ignored build/, as in
        ci.md: without the variable git grep asks this repository and
        spatch matches nothing; the recipe's line reports."""
        self.assertTrue(os.path.isfile(os.path.join(TREE, "Makefile")),
                        "make linux-source unpacks it (make test does)")
        outer = subprocess.run(["git", "-C", TREE, "rev-parse",
                                "--show-toplevel"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        if outer.returncode != 0:
            self.skipTest("the kernel tree is not inside a git work tree")
        (plain,) = [b.strip() for mark, lng, b in blocks()
                    if lng == "sh" and b.startswith("make coccicheck")]
        (ceiling,) = [b.strip() for mark, lng, b in blocks()
                      if lng == "sh" and "GIT_CEILING" in b]
        env = dict(os.environ)
        env.pop("GIT_CEILING_DIRECTORIES", None)
        for line, want in ((plain, []), (ceiling, ["drivers/misc/fastrpc.c:"
                                                   "1984"])):
            line = line.replace("/opt/modlife", ROOT)
            res = subprocess.run(["sh", "-c", line], cwd=TREE, env=env,
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            self.assertEqual(res.returncode, 0, res.stderr[-1000:])
            got = re.findall(r"^(\S+?:\d+):\d+-\d+: WARNING", res.stdout,
                             re.M)
            self.assertEqual(got, want, line)
            if not want:
                self.assertIn("0 files match", res.stdout + res.stderr)


if __name__ == "__main__":
    unittest.main()
