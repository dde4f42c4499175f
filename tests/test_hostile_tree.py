# SPDX-License-Identifier: GPL-2.0-only
"""A scanned tree and its git repository are not trusted: links in them
lead nowhere outside, outputs planted in them are replaced rather than
written through, the repository's configuration runs nothing, FIFOs
block nothing, and a crash is exit 2, never 'findings'
(docs/reliability.md)."""
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import time
import unittest

from util import CORPUS, MODLIFE, ROOT, TempDir, git, run, shared_cache, \
    write

sys.path.insert(0, ROOT)

MCHAR = os.path.join(CORPUS, "misc-char-bug", "mchar.c")
CACHE = shared_cache()


def text_of(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def env_with(tmp, **kw):
    # the user's own cache key, as the shared cache was sealed with
    key_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(
        os.path.expanduser("~"), ".config")
    env = dict(os.environ, HOME=tmp, XDG_CACHE_HOME=os.path.join(tmp, "xdg"),
               XDG_CONFIG_HOME=key_home)
    env.update(kw)
    return env


class LinksOutOfTheTreeTest(unittest.TestCase):
    def test_fix_does_not_write_through_links_out_of_the_tree(self):
        with TempDir() as tmp:
            out, tree = os.path.join(tmp, "outside"), os.path.join(tmp, "t")
            shutil.copy(MCHAR, os.path.join(tmp, "victim.c"))
            os.makedirs(out)
            shutil.copy(MCHAR, os.path.join(out, "v.c"))
            os.makedirs(os.path.join(tree, "drv"))
            shutil.copy(MCHAR, os.path.join(tree, "drv", "own.c"))
            os.symlink(os.path.join(tmp, "victim.c"),
                       os.path.join(tree, "drv", "evil.c"))
            os.symlink(out, os.path.join(tree, "sub"))
            before = text_of(MCHAR)
            res = run([MODLIFE, "fix", "--cache-dir", CACHE, "--jobs", "1",
                       tree],
                      env=env_with(tmp))
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertEqual(text_of(os.path.join(tmp, "victim.c")), before)
            self.assertEqual(text_of(os.path.join(out, "v.c")), before)
            # the tree's own file is fixed
            self.assertIn("THIS_MODULE",
                          text_of(os.path.join(tree, "drv", "own.c")))
            # and a scan says what it did not follow
            res = run([MODLIFE, "scan", "--cache-dir", CACHE, "--format",
                       "json", tree], env=env_with(tmp))
            data = json.loads(res.stdout)
            self.assertEqual(sorted((os.path.relpath(s["file"], tree),
                                     s["reason"]) for s in data["skipped"]),
                             [("drv/evil.c", "link-outside"),
                              ("sub", "link-outside")])
            self.assertIn("evil.c: note: not checked: link-outside (a link "
                          "out of the scanned directory: not followed)",
                          run([MODLIFE, "scan", "--cache-dir", CACHE, tree],
                              env=env_with(tmp)).stderr)

    def test_a_link_to_the_root_brings_nothing_into_scope(self):
        from frontend.scanning.scan import collect
        with TempDir() as tmp:
            shutil.copy(MCHAR, os.path.join(tmp, "a.c"))
            os.symlink("/", os.path.join(tmp, "root"))
            errors, outside = [], []
            t0 = time.time()
            files = collect([tmp], errors, outside)
            self.assertLess(time.time() - t0, 5)
            self.assertEqual(files, [os.path.join(tmp, "a.c")])
            self.assertEqual(outside, [os.path.join(tmp, "root")])

    def test_a_deeply_nested_tree_is_scanned(self):
        with TempDir() as tmp:
            shutil.copy(MCHAR, os.path.join(tmp, "a.c"))
            fd = os.open(tmp, os.O_RDONLY)
            for _ in range(1200):   # os.makedirs() itself recurses
                os.mkdir("d", dir_fd=fd)
                fd, old = os.open("d", os.O_RDONLY, dir_fd=fd), fd
                os.close(old)
            os.close(fd)
            res = run([MODLIFE, "scan", "--cache-dir", CACHE, "--no-cocci",
                       tmp],
                      env=env_with(tmp))
            self.assertEqual(res.returncode, 1, res.stderr)
            self.assertNotIn("Traceback", res.stderr)
            self.assertIn("a.c:73:37: warning:", res.stdout)
            # shutil.rmtree() recurses too
            subprocess.run(["rm", "-rf", os.path.join(tmp, "d")])


    def test_a_name_that_is_not_utf8_is_the_one_its_makefile_names(self):
        with TempDir() as tmp:
            d = os.path.join(os.fsencode(tmp), b"u")
            os.makedirs(d)
            shutil.copy(MCHAR, os.path.join(d, b"b\xff.c"))
            with open(os.path.join(d, b"Makefile"), "wb") as f:
                f.write(b"obj-m := b\xff.o\n")
            res = run([MODLIFE, "scan", "--cache-dir", CACHE, "--format",
                       "json", os.fsdecode(d)], env=env_with(tmp))
            self.assertEqual(res.returncode, 1, res.stderr)
            data = json.loads(res.stdout)
            self.assertEqual(data["skipped"], [])
            self.assertEqual([os.path.basename(f["file"])
                              for f in data["findings"]], ["b\udcff.c"])


class OutputsTest(unittest.TestCase):
    def test_outputs_replace_links_planted_in_the_tree(self):
        with TempDir() as tmp:
            tree = os.path.join(tmp, "tree")
            os.makedirs(os.path.join(tree, "patches"))
            shutil.copy(MCHAR, os.path.join(tree, "m.c"))
            for n in ("p1", "p2", "p3"):
                write(os.path.join(tmp, n), "precious\n")
            os.symlink(os.path.join(tmp, "p1"),
                       os.path.join(tree, "modlife.sarif"))
            res = run([MODLIFE, "fix", "--cache-dir", CACHE,
                       "--dry-run", "--format-patch",
                       os.path.join(tmp, "probe"), tree],
                      env=env_with(tmp))
            name = os.path.basename(res.stdout.split()[0])
            os.symlink(os.path.join(tmp, "p2"),
                       os.path.join(tree, "patches", name))
            res = run([MODLIFE, "scan", "--cache-dir", CACHE, "--format",
                       "sarif", "-o", "modlife.sarif", "."], cwd=tree,
                      env=env_with(tmp))
            self.assertEqual(res.returncode, 1, res.stderr)
            res = run([MODLIFE, "fix", "--cache-dir", CACHE,
                       "--format-patch",
                       "patches", "."], cwd=tree, env=env_with(tmp))
            self.assertEqual(res.returncode, 0, res.stderr)
            for n in ("p1", "p2"):
                self.assertEqual(text_of(os.path.join(tmp, n)), "precious\n")
            self.assertFalse(os.path.islink(os.path.join(tree,
                                                         "modlife.sarif")))
            self.assertIn('"version": "2.1.0"',
                          text_of(os.path.join(tree, "modlife.sarif")))
            self.assertIn("Subject: [PATCH]", text_of(
                os.path.join(tree, "patches", name)))
            # a relative path through a planted directory link is refused
            os.symlink(tmp, os.path.join(tree, "out"))
            for args in (["scan", "-o", "out/p3"],
                         ["fix", "--format-patch", "out"]):
                res = run([MODLIFE] + args + ["--cache-dir", CACHE, "m.c"],
                          cwd=tree, env=env_with(tmp))
                self.assertEqual(res.returncode, 2, args)
                self.assertIn("is a link to a directory", res.stderr)
            self.assertEqual(text_of(os.path.join(tmp, "p3")), "precious\n")
            self.assertEqual(sorted(n for n in os.listdir(tmp)
                                    if n != "xdg"),
                             ["p1", "p2", "p3", "probe", "tree"])

    def test_targets_that_cannot_be_written_or_are_inputs(self):
        with TempDir() as tmp:
            src = os.path.join(tmp, "a.c")
            shutil.copy(MCHAR, src)
            write(os.path.join(tmp, "file"), "x\n")
            write(os.path.join(tmp, "Makefile"), "obj-m := a.o\n")
            write(os.path.join(tmp, "Makefile.x"), "not read by a scan\n")
            for args, why in (
                    (["scan", "-o", src, src], "being scanned"),
                    (["scan", "-o", os.path.join(tmp, "Makefile"), tmp],
                     "being scanned"),
                    (["scan", "-o", os.path.join(tmp, "Makefile.x"), tmp],
                     None),
                    (["scan", "-o", "/proc/version", src], "cannot write"),
                    (["scan", "--write-baseline", "/proc/version", src],
                     "cannot write"),
                    (["fix", "--format-patch", os.path.join(tmp, "file"),
                      src], "not a directory"),
                    (["fix", "--format-patch", "/proc/x", src],
                     "cannot write patches")):
                res = run([MODLIFE] + args[:1] + ["--cache-dir", CACHE] +
                          args[1:],
                          env=env_with(tmp))
                self.assertNotIn("Traceback", res.stderr)
                if why is None:
                    self.assertEqual(res.returncode, 1, res.stderr)
                    continue
                self.assertEqual(res.returncode, 2, (args, res.stderr))
                self.assertIn(why, res.stderr)
            self.assertEqual(text_of(src), text_of(MCHAR))
            self.assertEqual(text_of(os.path.join(tmp, "file")), "x\n")
            self.assertEqual([n for n in os.listdir(tmp)
                              if n.startswith(".modlife")], [])


class RepositoryTest(unittest.TestCase):
    def partial_clone(self, tmp):
        """A repository whose REV blob is gone and whose configuration
        would have git fetch it by running a command."""
        r = os.path.join(tmp, "r")
        os.makedirs(r)
        git(r, "init", "-q")
        text = text_of(MCHAR)
        write(os.path.join(r, "drv", "m.c"), text.replace(
            "\t.open", "\t.owner = THIS_MODULE,\n\t.open", 1))
        git(r, "add", "-A")
        git(r, "commit", "-q", "-m", "drv: one")
        blob = git(r, "rev-parse", "HEAD:drv/m.c")
        write(os.path.join(r, "drv", "m.c"), text)
        git(r, "commit", "-q", "-a", "-m", "drv: two")
        os.unlink(os.path.join(r, ".git", "objects", blob[:2], blob[2:]))
        for k, v in (("core.repositoryformatversion", "1"),
                     ("extensions.partialClone", "origin"),
                     ("remote.origin.url", "/nonexistent"),
                     ("remote.origin.promisor", "true"),
                     ("remote.origin.uploadpack",
                      "touch %s/PWNED" % tmp)):
            git(r, "config", k, v)
        return r

    def test_a_partial_clone_runs_nothing(self):
        with TempDir() as tmp:
            r = self.partial_clone(tmp)
            res = run([MODLIFE, "scan", "--cache-dir", CACHE, "--diff-base",
                       "HEAD~1", "drv"], cwd=r, env=env_with(tmp))
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn("partial clone", res.stderr)
            res = run([MODLIFE, "fix", "--cache-dir", CACHE,
                       "--format-patch",
                       os.path.join(tmp, "out"), "drv"], cwd=r,
                      env=env_with(tmp))
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertEqual(len(os.listdir(os.path.join(tmp, "out"))), 1)
            self.assertFalse(os.path.exists(os.path.join(tmp, "PWNED")))

    def test_fifos_in_the_work_tree_block_nothing(self):
        with TempDir() as tmp:
            r = os.path.join(tmp, "r")
            os.makedirs(os.path.join(r, "drv"))
            git(r, "init", "-q")
            text = text_of(MCHAR)
            write(os.path.join(r, "drv", "m.c"),
                  '#include "loc.h"\n' + text)
            write(os.path.join(r, "drv", "loc.h"), "/* loc */\n")
            write(os.path.join(r, "drv", "Kbuild"), "obj-m := m.o\n")
            git(r, "add", "-A")
            git(r, "commit", "-q", "-m", "one")
            with open(os.path.join(r, "drv", "m.c"), "a") as f:
                f.write("/* c */\n")
            os.mkfifo(os.path.join(r, "drv", ".gitignore"))
            args = [MODLIFE, "scan", "--cache-dir", CACHE, "--diff-base",
                    "HEAD", "drv"]
            res = subprocess.run(args, cwd=r, env=env_with(tmp),
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True,
                                 timeout=60)
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn(".gitignore is not a regular file", res.stderr)
            os.unlink(os.path.join(r, "drv", ".gitignore"))
            git(r, "checkout", "-q", "drv/m.c")
            with open(os.path.join(r, "drv", "loc.h"), "a") as f:
                f.write("/* changed */\n")
            os.mkfifo(os.path.join(r, "drv", "zz.h"))
            os.mkfifo(os.path.join(r, "drv", "zz.c"))
            res = subprocess.run(args, cwd=r, env=env_with(tmp),
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True,
                                 timeout=60)
            self.assertEqual(res.returncode, 0, res.stderr)


class ExitStatusTest(unittest.TestCase):
    def test_a_crash_or_a_closed_pipe_is_exit_2(self):
        from frontend import cli

        def crash(argv):
            raise TypeError("a fact of the wrong type")
        err = io.StringIO()
        saved = cli._main
        cli._main = crash
        try:
            with contextlib.redirect_stderr(err):
                rc = cli.main(["scan", "x.c"])
        finally:
            cli._main = saved
        self.assertEqual(rc, 2)
        self.assertEqual(err.getvalue(), "modlife: internal error: "
                         "TypeError: a fact of the wrong type "
                         "(MODLIFE_DEBUG=1 shows where)\n")
        # a reader that is gone before the report (| head -c 0)
        with TempDir() as tmp:
            p = subprocess.Popen(
                [MODLIFE, "scan", "--cache-dir", CACHE, "--format", "sarif",
                 os.path.join(CORPUS, "misc-char-bug")],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env=env_with(tmp))
            p.stdout.close()
            err = p.stderr.read().decode()
            self.assertEqual(p.wait(), 2)
            self.assertEqual(err, "modlife: broken pipe\n")

    def test_knowledge_and_checker_settings(self):
        m = os.path.join(CORPUS, "misc-char-bug")
        with TempDir() as tmp:
            write(os.path.join(tmp, "tab.tsv"), "a\tb\n")
            os.mkfifo(os.path.join(tmp, "fifo.tsv"))
            for k, v, why in (
                    ("MODLIFE_KB", os.path.join(tmp, "tab.tsv"),
                     "tab.tsv:1: not a row of a knowledge file"),
                    ("MODLIFE_KB", os.path.join(tmp, "fifo.tsv"),
                     "not a regular file"),
                    ("MODLIFE_KB", os.path.join(tmp, "gone.tsv"),
                     "MODLIFE_KB=%s: no such file"
                     % os.path.join(tmp, "gone.tsv")),
                    ("MODLIFE_SPARSE", os.path.join(tmp, "gone"),
                     "no such file")):
                t0 = time.time()
                res = run([MODLIFE, "scan", "--cache-dir", CACHE, m],
                          env=env_with(tmp, **{k: v}))
                self.assertLess(time.time() - t0, 30)
                self.assertEqual(res.returncode, 2, (v, res.stderr))
                self.assertIn(why, res.stderr)
            # the shipped knowledge file passes the same check
            from frontend.scanning.scan import _kb_rows_problem
            self.assertIsNone(_kb_rows_problem(
                os.path.join(ROOT, "kb", "owner-reads.tsv")))


if __name__ == "__main__":
    unittest.main()
