# SPDX-License-Identifier: GPL-2.0-only
"""Hostile trees, interrupted runs and concurrent edits: nothing in a
scanned tree runs a command or passes an option, no edit is lost, every
input that was not checked says so (docs/reliability.md)."""
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
import unittest

from util import (cold, seeded, seeded_user_cache, CORPUS, MODLIFE, ROOT,
                  TempDir, git, needs_fetched, run, scan, write)
import sarif_schema

sys.path.insert(0, ROOT)

MCHAR = os.path.join(CORPUS, "misc-char-bug", "mchar.c")
# a name that runs a command wherever it reaches /bin/sh
EVIL = "$(touch PWNED)"


def pwned(*dirs):
    return [os.path.join(d, n) for d in dirs for n in os.listdir(d)
            if n == "PWNED"]


def env_with(tmp, seed=True, **kw):
    """An environment whose home, user cache and TMPDIR are in tmp; the
    user cache knows the kernel's flags unless seed is False."""
    env = dict(os.environ, HOME=tmp, XDG_CACHE_HOME=os.path.join(tmp, "xdg"),
               TMPDIR=os.path.join(tmp, "tmp"))
    os.makedirs(env["TMPDIR"], exist_ok=True)
    env.update(kw)
    if seed:
        seeded_user_cache(env)
    return env


def fake_spatch(tmp, before):
    """A 'spatch' first in PATH that runs the shell snippet before, then
    the real one."""
    d = os.path.join(tmp, "bin")
    real = shutil.which("spatch")
    write(os.path.join(d, "spatch"),
          "#!/bin/sh\n%s\nexec %s \"$@\"\n" % (before, real))
    os.chmod(os.path.join(d, "spatch"), 0o755)
    return d


class NamesTest(unittest.TestCase):
    def test_file_and_directory_names_run_nothing(self):
        """spatch builds shell commands from the paths it gets: it only
        ever sees names modlife chose, in every command and mode, and the
        output still names the real files."""
        with TempDir() as tmp:
            d = os.path.join(tmp, "tree")
            os.makedirs(os.path.join(d, EVIL))
            shutil.copy(MCHAR, os.path.join(d, EVIL + ".c"))
            shutil.copy(MCHAR, os.path.join(d, EVIL, "m.c"))
            env = env_with(tmp)
            runs = [["fix", "--dry-run", d], ["cocci", "--mode", "patch", d],
                    ["cocci", "--mode", "context", d],
                    ["cocci", "--mode", "report", d],
                    ["scan", *cold(), "--cocci", "all", d]]
            for args in runs:
                res = subprocess.run([MODLIFE] + args, cwd=tmp, env=env,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
                self.assertEqual(pwned(tmp, d, os.path.join(d, EVIL),
                                       env["TMPDIR"]), [], args)
                self.assertIn(EVIL + ".c", res.stdout, (args, res.stderr))
                self.assertIn(os.path.join(EVIL, "m.c"), res.stdout, args)
            res = subprocess.run([MODLIFE, "fix", d], cwd=tmp, env=env,
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertEqual(pwned(tmp, d, env["TMPDIR"]), [])
            with open(os.path.join(d, EVIL + ".c")) as f:
                self.assertIn("THIS_MODULE", f.read())

    def test_newlines_quotes_and_bytes_in_names(self):
        """A newline or a quote in a name cannot break the checker's
        command line or the one-finding-a-line text output; a name that
        is not UTF-8 is checked (and cached) like any other."""
        with TempDir() as tmp:
            d = os.path.join(tmp, "t")
            odd = os.path.join(os.fsencode(d), b"dir\xff")
            os.makedirs(odd)
            for name in ('a"b\nc.c', "-n.c"):
                shutil.copy(MCHAR, os.path.join(d, name))
            shutil.copy(MCHAR, os.path.join(odd, b"caf\xe9.c"))
            c = seeded(os.path.join(tmp, "c"))
            for extra in (["--no-cache"], ["--cache-dir", c],
                          ["--cache-dir", c]):
                res = run([MODLIFE, "scan"] + extra + [d], cwd=tmp)
                self.assertEqual(res.returncode, 1, res.stderr)
                lines = res.stdout.splitlines()
                self.assertEqual(sorted(ln.split(":")[0] for ln in lines), [
                    "t/-n.c", 't/a"b\\x0ac.c', "t/dir\\xff/caf\\xe9.c"])
                self.assertTrue(all(":73:37: warning:" in ln for ln in lines))
            rc, result, err = scan([d])
            self.assertEqual(len(result["findings"]), 3, err)
            # a report line; a diff's two header lines
            for args, n in ((["cocci"], 1), (["fix", "--dry-run"], 2)):
                res = run([MODLIFE] + args + [d], cwd=tmp)
                self.assertNotIn("Traceback", res.stderr, args)
                self.assertEqual(len([ln for ln in res.stdout.splitlines()
                                      if "caf\\xe9.c" in ln]), n, args)
            res = run([MODLIFE, "scan", *cold(), "--format", "sarif",
                       d], cwd=tmp)
            uris = sorted(r["locations"][0]["physicalLocation"][
                "artifactLocation"]["uri"] for r in json.loads(
                    res.stdout)["runs"][0]["results"])
            self.assertEqual(uris, ["t/-n.c", "t/a%22b%0Ac.c",
                                    "t/dir%FF/caf%E9.c"])

    def test_kbuild_names_are_c_identifiers(self):
        from frontend.tree import kflags
        flags = kflags.file_flags([], '/x/a"b\n-c.c', True, 'm"od')
        self.assertIn('-DKBUILD_BASENAME="a_b__c"', flags)
        self.assertIn('-DKBUILD_MODNAME="m_od"', flags)


class FixFilesTest(unittest.TestCase):
    def module(self, tmp):
        d = os.path.join(tmp, "m")
        os.makedirs(d)
        shutil.copy(MCHAR, os.path.join(d, "mchar.c"))
        return d, os.path.join(d, "mchar.c")

    def fix(self, tmp, *paths, env=None, **kw):
        return subprocess.run([MODLIFE, "fix"] + list(paths), cwd=tmp,
                              env=env or env_with(tmp),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, **kw)

    def test_an_edit_made_while_fix_runs_is_kept(self):
        with TempDir() as tmp:
            d, src = self.module(tmp)
            bindir = fake_spatch(tmp, "echo '/* edit */' >> '%s'" % src)
            env = env_with(tmp, PATH=bindir + os.pathsep + os.environ["PATH"])
            res = self.fix(tmp, src, env=env)
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn("changed while it was being fixed", res.stderr)
            self.assertEqual(res.stdout, "")    # no diff of what was not

            with open(src) as f:
                text = f.read()
            self.assertTrue(text.endswith("/* edit */\n"))
            self.assertNotIn("THIS_MODULE,", text.split("mchar_fops")[1])
            self.assertEqual([n for n in os.listdir(d)
                              if n.startswith(".modlife")], [])

    def test_links_modes_owners_attributes_and_line_ends(self):
        with TempDir() as tmp:
            d, src = self.module(tmp)
            # a symbolic link: the target is fixed, the link stays
            os.rename(src, os.path.join(tmp, "real.c"))
            os.symlink(os.path.join(tmp, "real.c"), src)
            # CRLF line ends stay CRLF
            with open(os.path.join(tmp, "real.c"), "rb") as f:
                data = f.read().replace(b"\n", b"\r\n")
            with open(os.path.join(tmp, "real.c"), "wb") as f:
                f.write(data)
            os.chmod(os.path.join(tmp, "real.c"), 0o640)
            xattr = True
            try:
                os.setxattr(os.path.join(tmp, "real.c"), "user.modlife",
                            b"kept")
            except OSError:
                xattr = False
            owner = None
            if os.geteuid() == 0:
                owner = (1234, 2345)
                os.chown(os.path.join(tmp, "real.c"), *owner)
            res = self.fix(tmp, src)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertTrue(os.path.islink(src))
            st = os.stat(os.path.join(tmp, "real.c"))
            self.assertEqual(stat.S_IMODE(st.st_mode), 0o640)
            if owner:
                self.assertEqual((st.st_uid, st.st_gid), owner)
            if xattr:
                self.assertEqual(os.getxattr(os.path.join(tmp, "real.c"),
                                             "user.modlife"), b"kept")
            with open(src, "rb") as f:
                new = f.read()
            self.assertIn(b".owner", new)
            self.assertEqual(new.count(b"\n"), new.count(b"\r\n"))

    def test_hard_links_and_read_only_files_are_left(self):
        with TempDir() as tmp:
            d, src = self.module(tmp)
            other = os.path.join(d, "other.c")
            shutil.copy(MCHAR, other)
            os.link(src, os.path.join(tmp, "twin.c"))
            os.chmod(other, 0o444)
            res = self.fix(tmp, src, other)
            self.assertEqual(res.returncode, 2)
            self.assertIn("has 2 hard links", res.stderr)
            self.assertIn("is read-only", res.stderr)
            for p in (src, other):
                with open(p, "rb") as f, open(MCHAR, "rb") as g:
                    self.assertEqual(f.read(), g.read())

    def test_an_unwritable_directory_is_reported_and_the_run_goes_on(self):
        """In-process, so that it also holds for root: the temporary file
        cannot be made beside the first file; the second is fixed."""
        from frontend.fixing import fix
        from unittest import mock
        with TempDir() as tmp:
            d, src = self.module(tmp)
            d2 = os.path.join(tmp, "n")
            os.makedirs(d2)
            src2 = os.path.join(d2, "n.c")
            shutil.copy(MCHAR, src2)
            real_open = os.open

            def deny(path, flags, *a, **kw):
                if os.path.dirname(os.fsdecode(path)) == d or \
                        os.fsdecode(path) == d:
                    raise PermissionError(13, "Permission denied", path)
                return real_open(path, flags, *a, **kw)

            import io
            out, err = io.StringIO(), io.StringIO()
            with mock.patch("os.open", deny):
                changed, errors = fix.run({src: ["missing-owner"],
                                           src2: ["missing-owner"]},
                                          False, out, err)
            self.assertEqual((changed, errors), (1, 1), err.getvalue())
            self.assertIn("mchar.c: error: Permission denied",
                          err.getvalue())
            with open(src2) as f:
                self.assertIn("THIS_MODULE", f.read())

    def test_sigterm_and_sigint_clean_up(self):
        for sig, code, word in ((signal.SIGTERM, 143, "terminated"),
                                (signal.SIGINT, 130, "interrupted")):
            with TempDir() as tmp:
                d, src = self.module(tmp)
                flag = os.path.join(tmp, "started")
                bindir = fake_spatch(tmp, "touch '%s'; sleep 30" % flag)
                env = env_with(tmp, PATH=bindir + os.pathsep +
                               os.environ["PATH"])
                # a test run in the background has SIGINT ignored, and
                # children inherit that: as from a terminal here
                p = subprocess.Popen([MODLIFE, "fix", src], cwd=tmp, env=env,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True,
                                     start_new_session=True,
                                     preexec_fn=_default_sigint)
                for _ in range(300):
                    if os.path.exists(flag):
                        break
                    time.sleep(0.1)
                p.send_signal(sig)
                out, err = p.communicate(timeout=60)
                self.assertEqual(p.returncode, code, err)
                self.assertEqual(err.strip(), "modlife: " + word)
                self.assertEqual(os.listdir(env["TMPDIR"]), [])
                self.assertEqual(sorted(os.listdir(d)), ["mchar.c"])
                os.killpg(p.pid, signal.SIGKILL) if _alive(p.pid) else None

    def test_a_temporary_file_of_a_killed_fix_is_removed(self):
        with TempDir() as tmp:
            d, src = self.module(tmp)
            # a pid that is not running
            stale = os.path.join(d, ".modlife-fix-%d-0011aabb" % _dead_pid())
            write(stale, "half written")
            res = self.fix(tmp, src)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertEqual(sorted(os.listdir(d)), ["mchar.c"])


def _default_sigint():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def _dead_pid():
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


class ScanInputsTest(unittest.TestCase):
    def test_exit_2_when_an_input_is_not_checked(self):
        with TempDir() as tmp:
            write(os.path.join(tmp, "h", "only.h"), "int x;\n")
            rc, result, err = scan([os.path.join(tmp, "h")])
            self.assertEqual(rc, 2)
            self.assertIn("no C source file", result["errors"][0]["message"])
            # every file failed both engines
            write(os.path.join(tmp, "b", "b.c"), "int f( {\n")
            rc, result, err = scan([os.path.join(tmp, "b")], "--cocci", "off")
            self.assertEqual(rc, 2)

    def test_an_unreadable_directory_is_an_error(self):
        from frontend.scanning import scan as scanmod
        from unittest import mock
        with TempDir() as tmp:
            shutil.copy(MCHAR, os.path.join(tmp, "a.c"))
            os.makedirs(os.path.join(tmp, "locked"))
            real = os.scandir

            def deny(path="."):
                if os.fsdecode(path).endswith("locked"):
                    raise PermissionError(13, "Permission denied", path)
                return real(path)
            errors = []
            with mock.patch("os.scandir", deny):
                files = scanmod.collect([tmp], errors)
            self.assertEqual([os.path.basename(f) for f in files], ["a.c"])
            self.assertEqual(len(errors), 1)
            self.assertIn("cannot read the directory", errors[0]["message"])

    def test_targets_are_checked_before_the_scan(self):
        with TempDir() as tmp:
            for args, why in ((["-o", os.path.join(tmp, "no", "x.json")],
                               "no such directory"),
                              (["--write-baseline", tmp], "is a directory")):
                res = run([MODLIFE, "scan", *cold()] + args +
                          [os.path.join(CORPUS, "misc-char-bug")])
                self.assertEqual(res.returncode, 2)
                self.assertIn(why, res.stderr)
                self.assertNotIn("Traceback", res.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, "no")))

    def test_bad_knowledge_files_and_settings(self):
        with TempDir() as tmp:
            write(os.path.join(tmp, "kb.tsv"), "not a knowledge file\n")
            m = os.path.join(CORPUS, "misc-char-bug")
            for kb in (tmp, os.path.join(tmp, "kb.tsv")):
                res = run([MODLIFE, "scan", *cold(), m],
                          env=dict(os.environ, MODLIFE_KB=kb))
                self.assertEqual(res.returncode, 2)
                self.assertIn("knowledge file", res.stderr)
            res = run([MODLIFE, "scan", *cold(), m],
                      env=dict(os.environ, MODLIFE_SPATCH_TIMEOUT="abc"))
            self.assertEqual(res.returncode, 1)
            self.assertIn("MODLIFE_SPATCH_TIMEOUT='abc'", res.stderr)
            self.assertNotIn("Traceback", res.stderr)
            # the checker itself refuses too
            res = run([os.path.join(ROOT, "sparse-plugin", "modlife-sparse"),
                       "--modlife-kb=" + tmp, MCHAR])
            self.assertNotEqual(res.returncode, 0)
            self.assertIn("is not a knowledge file", res.stderr)

    def test_link_reports_bad_facts_and_missing_directories(self):
        with TempDir() as tmp:
            res = run([MODLIFE, "link", os.path.join(tmp, "gone")])
            self.assertEqual(res.returncode, 2)
            write(os.path.join(tmp, "x.o"), "")
            time.sleep(0.05)
            write(os.path.join(tmp, ".x.o.modlife"),
                  '{"k":"tu",garbage\n[1,2]\n{"k":"finding","rule":5}\n')
            res = run([MODLIFE, "link", tmp])
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn("unreadable facts", res.stderr)
            self.assertNotIn("Traceback", res.stderr)

    def test_an_include_of_a_huge_file_runs_into_the_memory_cap(self):
        """A device include is refused before the checker runs
        (test_hostile_parsing); a huge regular header meets the cap."""
        with TempDir() as tmp:
            write(os.path.join(tmp, "z.c"), '#include "big.h"\n')
            with open(os.path.join(tmp, "big.h"), "w") as f:
                f.truncate(1 << 30)     # sparse: costs no disk
            # a lower cap than the default 4 GiB: CI machines are small
            res = run([MODLIFE, "scan", *cold(), "--cocci", "off",
                       os.path.join(tmp, "z.c")],
                      env=dict(os.environ, MODLIFE_MAX_MEMORY="512"))
            self.assertEqual(res.returncode, 2)
            self.assertIn("z.c: error: out of memory", res.stderr)


def fact_entries(cache):
    """The fact cache's own entries (sha256 + ".json" in a directory of
    two hex digits), not those of the steps kept beside them (cocci/,
    link/, plan/)."""
    return sorted(os.path.join(dp, n) for dp, _, ns in os.walk(cache)
                  for n in ns if len(n) == 69 and
                  re.fullmatch("[0-9a-f]{2}", os.path.relpath(dp, cache)))


class CacheTest(unittest.TestCase):
    def test_interrupted_runs_are_not_cached(self):
        """A checker killed from outside (Ctrl-C reaches the whole process
        group) or timed out gives no cache entry; a file that changes
        while it is parsed neither."""
        from frontend.scanning import sparse_engine
        with TempDir() as tmp:
            fake = os.path.join(tmp, "checker")
            # TERM: a background test run has SIGINT ignored, inherited
            for sig in ("TERM", "KILL"):
                write(fake, "#!/bin/sh\nkill -%s $$\n" % sig)
                os.chmod(fake, 0o755)
                facts, err = sparse_engine.run(fake, "kb", [], MCHAR)
                self.assertIsInstance(err, sparse_engine.Transient, sig)
            write(fake, "#!/bin/sh\nsleep 5\n")
            facts, err = sparse_engine.run(fake, "kb", [], MCHAR, timeout=1)
            self.assertIsInstance(err, sparse_engine.Transient)
            write(fake, "#!/bin/sh\necho 'x.c:1:1: error: bad' >&2\n"
                  "exit 1\n")
            facts, err = sparse_engine.run(fake, "kb", [], MCHAR)
            self.assertNotIsInstance(err, sparse_engine.Transient)
            # through a scan: nothing cached from a run killed by a signal
            write(fake, "#!/bin/sh\nkill -TERM $$\n")
            cache = seeded(os.path.join(tmp, "cache"))
            d = os.path.join(tmp, "m")
            os.makedirs(d)
            shutil.copy(MCHAR, d)
            res = run([MODLIFE, "scan", "--cache-dir", cache, d],
                      env=dict(os.environ, MODLIFE_SPARSE=fake))
            self.assertEqual(res.returncode, 1, res.stderr)  # by cocci
            # the facts' entries (the semantic patches' results of the
            # file, under cocci/, are whole and kept)
            self.assertEqual(fact_entries(cache), [])

    def test_a_file_that_changes_while_it_is_parsed_is_not_cached(self):
        with TempDir() as tmp:
            d = os.path.join(tmp, "m")
            os.makedirs(d)
            shutil.copy(MCHAR, d)
            src = os.path.join(d, "mchar.c")
            wrapper = os.path.join(tmp, "checker")
            write(wrapper, "#!/bin/sh\necho '/* edit */' >> '%s'\n"
                  "exec '%s' \"$@\"\n" % (src, os.path.join(
                      ROOT, "sparse-plugin", "modlife-sparse")))
            os.chmod(wrapper, 0o755)
            cache = seeded(os.path.join(tmp, "cache"))
            res = run([MODLIFE, "scan", "--cache-dir", cache, d],
                      env=dict(os.environ, MODLIFE_SPARSE=wrapper))
            self.assertEqual(res.returncode, 1, res.stderr)
            self.assertEqual(fact_entries(cache), [])

    def test_a_failed_cache_write_leaves_no_temporary_file(self):
        from frontend.scanning import cache as cachemod
        from unittest import mock
        with TempDir() as tmp:
            warned = []
            c = cachemod.FactCache(tmp, [], warned.append)
            with mock.patch.object(cachemod.cache_seal, "seal",
                                   side_effect=OSError(28, "No space left")):
                c.put("ab" + "0" * 62, ['{"k":"tu"}'], None)
            self.assertEqual([n for _, _, ns in os.walk(tmp) for n in ns],
                             [])
            self.assertIn("No space left", warned[0])

    def test_entries_of_the_wrong_shape_are_misses(self):
        with TempDir() as tmp:
            cache = seeded(os.path.join(tmp, "cache"))
            m = os.path.join(tmp, "m")
            os.makedirs(m)
            shutil.copy(MCHAR, m)
            rc, result, err = scan([m], "--cache-dir", cache)
            entries = fact_entries(cache)
            self.assertEqual(len(entries), 1, entries)
            for bad in ("[]", '{"deps": []}', '{"deps": {}, "facts": {},'
                        ' "error": null}', '{"deps": {}, "facts": ["x"], '
                        '"error": null}', '{"deps": {}, "facts": [], '
                        '"error": 1}', '"x"', "{"):
                with open(entries[0], "w") as f:
                    f.write(bad)
                rc, result, err = scan([m], "--cache-dir", cache)
                self.assertEqual(rc, 1, (bad, err))
                self.assertEqual(len(result["findings"]), 1, bad)
                self.assertNotIn("Traceback", err)

    def test_a_header_in_the_modules_include_directory_is_a_dependency(self):
        """ccflags-y += -I$(src)/inc: the fops table lives in inc/; the
        finding is reported at the header's line, and giving the table
        an owner there shows on the next cached scan."""
        with TempDir() as tmp:
            d = os.path.join(tmp, "m")
            with open(MCHAR) as f:
                text = f.read()
            start = text.index("static const struct file_operations")
            end = text.index("};", start) + 3
            write(os.path.join(d, "inc", "mchar_fops.h"),
                  "/* the table */\n" + text[start:end])
            write(os.path.join(d, "mchar.c"), text[:start] +
                  '#include "mchar_fops.h"\n' + text[end:])
            write(os.path.join(d, "Makefile"),
                  "obj-m += mchar.o\nccflags-y += -I$(src)/inc\n")
            cache = seeded(os.path.join(tmp, "cache"))
            rc, result, err = scan([d], "--cache-dir", cache)
            self.assertEqual([(os.path.relpath(f["file"], d), f["line"])
                              for f in result["findings"]],
                             [("inc/mchar_fops.h", 2)], err)
            hdr = os.path.join(d, "inc", "mchar_fops.h")
            with open(hdr) as f:
                h = f.read()
            write(hdr, h.replace(".open", ".owner = THIS_MODULE,\n\t.open"))
            rc, result, err = scan([d], "--cache-dir", cache)
            self.assertEqual(result["findings"], [], err)

    def test_kernel_flags_follow_the_cache_options(self):
        with TempDir() as tmp:
            env = env_with(tmp, seed=False)
            m = os.path.join(CORPUS, "misc-char-bug")
            subprocess.run([MODLIFE, "scan", "--no-cache", m], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            self.assertFalse(os.path.exists(env["XDG_CACHE_HOME"]))
            c = os.path.join(tmp, "c")
            subprocess.run([MODLIFE, "scan", "--cache-dir", c, m], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            self.assertFalse(os.path.exists(env["XDG_CACHE_HOME"]))
            self.assertTrue([n for n in os.listdir(c)
                             if n.startswith("kflags-")])

    def test_the_kdir_probe_does_not_wait_for_input(self):
        """A KDIR whose make reads standard input gets end of file, not a
        hang; the scan stops with one line."""
        with TempDir() as tmp:
            kd = os.path.join(tmp, "kdir")
            write(os.path.join(kd, "Makefile"),
                  "probe.o:\n\t@read answer; test -n \"$$answer\"\n")
            errf = os.path.join(tmp, "err")
            with open(errf, "w") as e:
                p = subprocess.Popen([MODLIFE, "scan", "--no-cache", "--kdir",
                                      kd, MCHAR], stdin=subprocess.PIPE,
                                     stdout=subprocess.DEVNULL, stderr=e)
                try:
                    rc = p.wait(timeout=60)     # stdin stays open
                finally:
                    p.kill()
                    p.stdin.close()
            self.assertEqual(rc, 2)
            with open(errf) as f:
                self.assertIn("did not run the checker", f.read())


class BaselineTest(unittest.TestCase):
    def test_a_baseline_holds_from_another_directory(self):
        with TempDir() as tmp:
            tree = os.path.join(tmp, "tree")
            shutil.copytree(os.path.join(CORPUS, "misc-char-bug"),
                            os.path.join(tree, "drivers", "m"))
            os.makedirs(os.path.join(tree, ".git"))
            base = os.path.join(tmp, "b.json")
            res = run([MODLIFE, "scan", *cold(), "--write-baseline",
                       base, "drivers/m"], cwd=tree)
            self.assertEqual(res.returncode, 1, res.stderr)
            for cwd, path in ((tmp, "tree/drivers/m"),
                              (os.path.join(tree, "drivers"), "m")):
                res = run([MODLIFE, "scan", *cold(), "--baseline", base,
                           path], cwd=cwd)
                self.assertEqual((res.returncode, res.stdout), (0, ""),
                                 (cwd, res.stderr))



class DiffBaseTest(unittest.TestCase):
    def repo(self, tmp, name="m.c"):
        """The fops table's first line (the finding's) changed since
        HEAD, and a file HEAD does not have."""
        r = os.path.join(tmp, "repo")
        os.makedirs(r)
        git(r, "init", "-q")
        with open(MCHAR) as f:
            text = f.read()
        write(os.path.join(r, name), text.replace(
            "static const struct file_operations mchar_fops",
            "static struct file_operations mchar_fops"))
        write(os.path.join(r, "other.c"), text.replace("mchar_fops",
                                                       "other_fops"))
        git(r, "add", "-A")
        git(r, "commit", "-q", "-m", "one")
        write(os.path.join(r, name), text)
        write(os.path.join(r, "new.c"), text.replace("mchar", "newc"))
        return r

    def test_revisions_are_not_options_and_config_runs_nothing(self):
        with TempDir() as tmp:
            r = self.repo(tmp)
            # commands the repository's configuration names
            with open(os.path.join(r, ".git", "config"), "a") as f:
                f.write("[core]\n\tfsmonitor = touch PWNED; echo\n"
                        "[diff \"x\"]\n\ttextconv = touch PWNED; cat\n"
                        "\tcommand = touch PWNED\n"
                        "[filter \"x\"]\n\tclean = touch PWNED; cat\n")
            write(os.path.join(r, ".gitattributes"),
                  "* diff=x filter=x\n")
            out = os.path.join(tmp, "out")
            for rev in ("--output=" + out, ""):
                res = run([MODLIFE, "scan", *cold(), "--diff-base", rev,
                           r], cwd=r)
                self.assertEqual(res.returncode, 2, (rev, res.stderr))
            self.assertFalse(os.path.exists(out))
            res = run([MODLIFE, "scan", *cold(), "--diff-base", "HEAD",
                       r], cwd=r)
            self.assertEqual(res.returncode, 1, res.stderr)
            # other.c did not change: its finding is not the change's;
            # m.c's line changed: its finding is new, REV's is fixed
            self.assertEqual(sorted(ln.split(":")[0] for ln in
                                    res.stdout.splitlines()
                                    if ": warning: " in ln),
                             ["m.c", "new.c"])
            self.assertEqual([ln.split(":")[0] for ln in
                              res.stdout.splitlines()
                              if ": note: fixed: " in ln], ["m.c"])
            self.assertEqual(pwned(r, tmp), [])

    def test_a_revision_naming_dot_dot_writes_nothing_outside(self):
        """REV's tree is crafted (git mktree takes ".."): its header
        "../escape.h", gone from the work tree, must not be copied out of
        the private directory REV's texts go to."""
        with TempDir() as tmp:
            r = self.repo(tmp)
            env = dict(os.environ, TMPDIR=os.path.join(tmp, "t", "u"))
            os.makedirs(env["TMPDIR"])

            blob = subprocess.run(["git", "hash-object", "-w", "--stdin"],
                                  cwd=r, input=b"int escaped;\n",
                                  stdout=subprocess.PIPE,
                                  check=True).stdout.decode().strip()
            sub = subprocess.run(["git", "mktree"], cwd=r, input=(
                "100644 blob %s\tescape.h\n" % blob).encode(),
                stdout=subprocess.PIPE, check=True).stdout.decode().strip()
            head = subprocess.run(["git", "ls-tree", "HEAD"], cwd=r,
                                  stdout=subprocess.PIPE,
                                  check=True).stdout.decode()
            tree = subprocess.run(["git", "mktree"], cwd=r, input=(
                head + "040000 tree %s\t..\n" % sub).encode(),
                stdout=subprocess.PIPE, check=True).stdout.decode().strip()
            commit = subprocess.run(
                ["git", "-c", "user.name=t", "-c", "user.email=t@t",
                 "commit-tree", tree, "-m", "crafted"], cwd=r,
                stdout=subprocess.PIPE, check=True).stdout.decode().strip()
            res = run([MODLIFE, "scan", *cold(), "--diff-base", commit,
                       r], cwd=r, env=env)
            self.assertIn(res.returncode, (0, 1), res.stderr)
            found = [os.path.join(d, f) for d, _, fs in os.walk(tmp)
                     for f in fs if f == "escape.h"]
            self.assertEqual(found, [])

    def test_non_ascii_names_and_paths_through_a_symlink(self):
        with TempDir() as tmp:
            r = self.repo(tmp, "\u00fc.c")
            link = os.path.join(tmp, "link")
            os.symlink(r, link)
            for path in (r, link):
                res = run([MODLIFE, "scan", *cold(), "--diff-base",
                           "HEAD", path], cwd=tmp)
                self.assertEqual(res.returncode, 1, (path, res.stderr))
                self.assertEqual(sorted(os.path.basename(ln.split(":")[0])
                                        for ln in res.stdout.splitlines()
                                        if ": warning: " in ln),
                                 ["new.c", "\u00fc.c"])
                # REV's finding of the non-ASCII file is named as fixed
                self.assertEqual([os.path.basename(ln.split(":")[0])
                                  for ln in res.stdout.splitlines()
                                  if ": note: fixed: " in ln], ["\u00fc.c"])


class UntrustedMakefilesTest(unittest.TestCase):
    def test_self_inclusion_and_exponential_variables_are_bounded(self):
        with TempDir() as tmp:
            d = os.path.join(tmp, "m")
            os.makedirs(d)
            shutil.copy(MCHAR, d)
            # each variable names the one before 20 times: 20^7 expansions
            lines = ["include $(src)/Makefile", "V0 := mchar.o"]
            lines += ["V%d = " % i + " ".join(["$(V%d)" % (i - 1)] * 20)
                      for i in range(1, 8)]
            lines += ["obj-m += $(V7)"]
            write(os.path.join(d, "Makefile"), "\n".join(lines) + "\n")
            res = subprocess.run([MODLIFE, "scan", *cold(), d],
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True,
                                 timeout=120)
            self.assertEqual(res.returncode, 1, res.stderr)

    def test_prefilter_patterns_do_not_backtrack(self):
        """Comment-heavy text that never closes made the patterns try
        every way of splitting it (in a process of its own: a timeout
        ends it)."""
        with TempDir() as tmp:
            body = ("\t/* one // two */ // three /* four\n" * 400)
            write(os.path.join(tmp, "a.c"),
                  "static const struct file_operations f = {\n" + body +
                  "void r(struct device *d)\n{\n" + body + "\t//" + "/*" * 30
                  + "\nmodule_exit(x);\nrelease = r;\n&f;\n")
            scripts = [os.path.join(ROOT, "cocci", s) for s in
                       sorted(os.listdir(os.path.join(ROOT, "cocci")))
                       if s.endswith(".cocci")]
            code = ("import sys; sys.path.insert(0, %r)\n"
                    "from frontend.scanning import cocci_run\n"
                    "cocci_run.candidates(%r, [%r], [])\n"
                    % (ROOT, scripts, os.path.join(tmp, "a.c")))
            subprocess.run([sys.executable, "-c", code], timeout=120,
                           check=True)

    def test_long_call_chains_are_linked_in_linear_time(self):
        with TempDir() as tmp:
            n = 40000
            lines = ["#include <linux/module.h>",
                     "#include <linux/completion.h>",
                     "static struct completion done;"]
            lines += ["static void f%d(void);" % i for i in range(n + 1)]
            lines += ["static noinline void f%d(void) { f%d(); }" % (i, i + 1)
                      for i in range(n)]
            lines += ["static noinline void f%d(void) "
                      "{ wait_for_completion(&done); }" % n,
                      "static void __exit e(void) { f0(); }",
                      "module_exit(e);", 'MODULE_LICENSE("GPL");']
            write(os.path.join(tmp, "chain.c"), "\n".join(lines) + "\n")
            res = subprocess.run([MODLIFE, "scan", *cold(), "--cocci",
                                  "off", os.path.join(tmp, "chain.c")],
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True,
                                 timeout=120)
            self.assertEqual(res.returncode, 0, res.stderr)


@needs_fetched(sarif_schema.SCHEMA, "sarif-schema")
class SarifTest(unittest.TestCase):
    def test_valid_against_the_sarif_schema(self):
        import sarif_schema
        self.assertTrue(os.path.isfile(sarif_schema.SCHEMA),
                        "make sarif-schema fetches it")
        with TempDir() as tmp:
            d = os.path.join(tmp, "a b")
            os.makedirs(d)
            shutil.copy(MCHAR, os.path.join(d, "m\u00e9.c"))
            write(os.path.join(d, "broken.c"), "int f( {\n")
            res = run([MODLIFE, "scan", *cold(), "--format", "sarif",
                       d, os.path.join(tmp, "gone.c")], cwd=tmp)
            doc = json.loads(res.stdout)
            self.assertEqual(sarif_schema.validate(doc), [])
            run0 = doc["runs"][0]
            loc = run0["results"][0]["locations"][0]["physicalLocation"]
            self.assertEqual(loc["artifactLocation"],
                             {"uri": "a%20b/m%C3%A9.c",
                              "uriBaseId": "%SRCROOT%"})
            self.assertTrue(run0["originalUriBaseIds"]["%SRCROOT%"][
                "uri"].startswith("file:///"))
            for r in run0["tool"]["driver"]["rules"]:
                self.assertTrue(r["helpUri"].startswith("file:///"))
                self.assertTrue(os.path.isfile(r["helpUri"][7:]))
        # and the validator does find what is wrong
        doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
            "artifactLocation"]["uri"] = "a b/m.c"
        doc["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] = "docs/x.md"
        self.assertEqual(len(sarif_schema.validate(doc)), 2)


if __name__ == "__main__":
    unittest.main()
