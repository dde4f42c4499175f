# SPDX-License-Identifier: GPL-2.0-only
"""A cache directory is data, not trusted code; huge inputs are not read
into memory; a cache that cannot take the overlay headers does not stop
the scan (docs/reliability.md)."""
import errno
import glob
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import unittest
from unittest import mock

from util import (cold, CORPUS, MODLIFE, ROOT, TempDir, git, read_entry, run,
                  scan, write, write_entry)

sys.path.insert(0, ROOT)

MCHAR = os.path.join(CORPUS, "misc-char-bug", "mchar.c")
GIB = 1 << 30


WARM = None     # a cache directory holding the kernel flags


def setUpModule():
    """The kernel flags are probed once for all the tests (kbuild takes
    seconds; the test runner sets up this module once per class); each
    test's cache starts with them."""
    global WARM
    from util import cold_cache
    WARM = cold_cache()


def tearDownModule():
    shutil.rmtree(WARM, ignore_errors=True)


def new_cache(tmp, name="cache"):
    """A cache directory of ours that already has the kernel flags."""
    d = os.path.join(tmp, name)
    os.makedirs(d, 0o755)
    for p in glob.glob(os.path.join(WARM, "kflags-*.json")):
        shutil.copy(p, d)
    return d


def module(tmp, name="m"):
    """A directory holding mchar.c (one missing-owner finding)."""
    d = os.path.join(tmp, name)
    os.makedirs(d)
    shutil.copy(MCHAR, d)
    return d


def entries(cache):
    """The facts entries (sha256 + ".json") in cache."""
    return sorted(p for p in glob.glob(os.path.join(cache, "??", "*.json"))
                  if len(os.path.basename(p)) == 69)


def put_entry(path, deps, facts):
    write_entry(path, {"deps": deps, "facts": facts, "error": None})


def poison(cache, modules, changes):
    """Scans the modules (one file each) into cache, then rewrites the
    entry of modules[i] with changes[i](deps, facts) -> (deps, facts)."""
    rc, _, err = scan(modules, "--cache-dir", cache)
    assert rc == 1, err
    for e in entries(cache):
        entry = read_entry(e)
        tu = json.loads(next(x for x in entry["facts"] if '"k":"tu"' in x))
        i = modules.index(os.path.dirname(tu["file"]))
        put_entry(e, *changes[i](entry["deps"], entry["facts"]))


def _mkentry(c, key):
    os.makedirs(os.path.dirname(c._path(key)))
    return c._path(key)


def file_hash_of(path):
    from frontend.scanning.cache import file_hash
    return file_hash(path)


def limited(cmd, memory=None, cwd=None, timeout=120):
    """cmd with an address-space limit (bytes): what `ulimit -v` does."""
    def limit():
        if memory:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True,
                          preexec_fn=limit, timeout=timeout)


class CachedFlagsTest(unittest.TestCase):
    def test_flags_of_other_shapes_are_not_taken_from_the_cache(self):
        """kflags-*.json is a list of flags for the checker: one that
        names a file to write (--modlife-facts=) makes the list a miss,
        computed again; the file is not touched and the finding stays."""
        with TempDir() as tmp:
            m = module(tmp)
            cache = new_cache(tmp)
            [kf] = glob.glob(os.path.join(cache, "kflags-*.json"))
            victim = os.path.join(tmp, "victim.txt")
            write(victim, "victim data\n")
            flags = read_entry(kf)
            write_entry(kf, flags + ["--modlife-facts=" + victim])
            rc, result, err = scan([m], "--cache-dir", cache)
            self.assertEqual(rc, 1, err)
            self.assertEqual(len(result["findings"]), 1)
            with open(victim) as f:
                self.assertEqual(f.read(), "victim data\n")
            self.assertEqual(read_entry(kf), flags)     # written again

    def test_the_probes_flags_have_the_allowed_shapes(self):
        from frontend.tree import kflags
        [path] = glob.glob(os.path.join(WARM, "kflags-*.json"))
        flags = read_entry(path)
        self.assertTrue(kflags.valid_flags(flags))
        for bad in (["--modlife-facts=/x"], ["-o", "/x"], ["-MF", "/x"],
                    ["-Wp,-MD,/x"], ["-E"], ["-fdump-ir"], ["-include"],
                    ["-I", "--modlife-facts=/x"], ["/x.c"], [1]):
            self.assertFalse(kflags.valid_flags(flags + bad), bad)
        self.assertFalse(kflags.valid_flags([]))
        self.assertFalse(kflags.valid_flags("-DX"))


class CachedFactsTest(unittest.TestCase):
    def test_facts_of_the_wrong_types_or_cut_are_misses(self):
        """An entry's facts are whole flat objects with the types the
        checker writes: a "file" that is no string, a cut line, a line
        with a newline in it, a nested object are misses (the file is
        parsed again), never a crash or a link that fails."""
        bad = ('{"k":"tu","file":[1]}', '{"k":"tu" x}',
               '{"k":"tu",\n"file":"a.c"}')
        with TempDir() as tmp:
            ms = [module(tmp, "m%d" % i) for i in range(len(bad))]
            cache = new_cache(tmp)
            poison(cache, ms, [(lambda deps, facts, b=b: ({}, [b]))
                               for b in bad])
            rc, result, err = scan(ms, "--cache-dir", cache)
            self.assertEqual(rc, 1, err)
            self.assertEqual(len(result["findings"]), len(bad), err)
            self.assertNotIn("Traceback", err)
            self.assertNotIn("link step failed", err)

    def test_valid_fact(self):
        from frontend.scanning.cache import valid_fact
        self.assertTrue(valid_fact('{"k":"tu","file":"/a.c","module":1,'
                                   '"modname":"a"}'))
        self.assertTrue(valid_fact('{"k":"finding","file":"/a.c","line":3,'
                                   '"col":1,"object":null,"unless":["x"]}'))
        # as the checker writes them: no module name, an error of no file
        self.assertTrue(valid_fact('{"k":"tu","file":"/a.c","modname":null}'))
        self.assertTrue(valid_fact('{"k":"error","file":null,'
                                   '"message":"out of memory"}'))
        for bad in ('{"k":"tu","file":1}', '{"k":"tu"', '{"k":"x","k2":[1]}',
                    '{"k":"tu","line":true}', '["k"]', '{"k":"tu"} x', 1,
                    '{"k":"tu",\n"file":"a.c"}', '{"k":"tu","a":{}}',
                    '{"k":"tu","line":"1"}', '{"k":"fn","file":[]}',
                    '{"k":"tu","file":"\ud800"}', '{"k":"fn","k":"tu"}'):
            self.assertFalse(valid_fact(bad), bad)

    def test_dependencies_the_scan_would_not_record_are_misses(self):
        """deps name the headers a file included: /dev/zero, a FIFO in
        the module, or a file outside the module's directories (even one
        whose hash is right) make the entry a miss, quickly."""
        with TempDir() as tmp:
            other = os.path.join(tmp, "other", "x.h")
            write(other, "#define X 1\n")
            with open(other, "rb") as f:
                right = hashlib.sha256(f.read()).hexdigest()
            ms = [module(tmp, "m%d" % i) for i in range(3)]
            fifo = os.path.join(ms[1], "f.h")
            os.mkfifo(fifo)
            cases = ({"/dev/zero": "x"}, {fifo: "x"}, {other: right})
            cache = new_cache(tmp)
            # no facts of a finding: a hit would hide it
            poison(cache, ms, [
                (lambda deps, facts, c=c: (c, [x for x in facts
                                               if '"k":"tu"' in x]))
                for c in cases])
            res = limited([MODLIFE, "scan", "--format", "json",
                           "--cache-dir", cache] + ms, 2 * GIB, timeout=60)
            self.assertEqual(res.returncode, 1, res.stderr)
            self.assertEqual(len(json.loads(res.stdout)["findings"]), 3,
                             res.stderr)

    def test_where_dependencies_may_be(self):
        """In-process: the entry is used with the headers the scan
        records (beside the file, in its -I directories, in the cache's
        overlays, up to the top of its tree) and no others."""
        from frontend.scanning.cache import FactCache
        with TempDir() as tmp:
            m = os.path.join(tmp, "tree", "drv", "m")
            src = os.path.join(m, "a.c")
            inc = os.path.join(tmp, "inc")
            write(src, "int x;\n")
            os.makedirs(os.path.join(tmp, "tree", ".git"))
            c = FactCache(os.path.join(tmp, "cache"), [], print)
            ok = [os.path.join(m, "a.h"), os.path.join(m, "..", "b.h"),
                  os.path.join(inc, "c.h"),
                  os.path.join(tmp, "cache", "overlays", "d.h")]
            no = ["rel.h", os.path.join(tmp, "e.h"), "/proc/self/environ",
                  "/dev/zero"]
            for p in ok + no[1:2]:
                write(p, "#define P\n")
            key = "ab" + "0" * 62
            entry = _mkentry(c, key)
            flags = ["--modlife-local-dir=" + inc]
            for dep in ok + no:
                put_entry(entry, {dep: file_hash_of(dep)},
                          [json.dumps({"k": "tu", "file": src},
                                      separators=(",", ":"))])
                got = c.get(key, src, flags)
                self.assertEqual(got is not None, dep in ok, dep)

    def test_a_failed_link_step_is_an_error(self):
        """A link step that dies (the checker aborts) leaves the module
        undecided: listed, and exit 2, not a clean 0."""
        with TempDir() as tmp:
            m = module(tmp)
            real = os.path.join(ROOT, "sparse-plugin", "modlife-sparse")
            fake = os.path.join(tmp, "checker")
            write(fake, '#!/bin/sh\n[ "$1" = --modlife-link ] && '
                  'kill -ABRT $$\nexec %s "$@"\n' % real)
            os.chmod(fake, 0o755)
            res = run([MODLIFE, "scan", "--cache-dir", new_cache(tmp),
                       "--cocci", "off", m],
                      env=dict(os.environ, MODLIFE_SPARSE=fake))
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn("link step failed", res.stdout + res.stderr)


class CacheOwnerTest(unittest.TestCase):
    """A cache directory owned by another user or writable by group or
    others is not read or written, said once; the scan goes on. So is
    an entry in our cache that another user owns."""

    def test_a_cache_others_can_write_is_not_used(self):
        with TempDir() as tmp:
            m = module(tmp)
            cache = new_cache(tmp)
            poison(cache, [m], [lambda deps, facts: ({}, [])])
            os.chmod(cache, 0o777)
            rc, result, err = scan([m], "--cache-dir", cache)
            self.assertEqual(rc, 1, err)
            self.assertEqual(len(result["findings"]), 1, err)
            self.assertEqual(err.count("writable by group or others"), 1,
                             err)
            self.assertNotIn("Traceback", err)

    def test_a_cache_or_entry_of_another_user_is_not_used(self):
        from frontend.scanning.cache import FactCache
        with TempDir() as tmp:
            src = os.path.join(tmp, "a.c")
            write(src, "int x;\n")
            cache = os.path.join(tmp, "cache")
            key = "ab" + "0" * 62
            warned = []
            c = FactCache(cache, [], warned.append)
            put_entry(_mkentry(c, key), {}, ['{"k":"tu"}'])
            self.assertIsNotNone(c.get(key, src))
            os.chown(c._path(key), 12345, -1)
            self.assertIsNone(c.get(key, src))
            self.assertIsNone(c.get(key, src))
            self.assertEqual(len(warned), 1, warned)
            self.assertIn("owned by another user (uid 12345)", warned[0])
            os.chown(c._path(key), os.geteuid(), -1)
            os.chmod(os.path.dirname(c._path(key)), 0o775)
            self.assertIsNone(FactCache(cache, [], print).get(key, src))
            os.chown(cache, 12345, -1)
            warned = []
            c = FactCache(cache, [], warned.append)
            self.assertIsNone(c.dir)
            self.assertIn("owned by another user", warned[0])


class HugeInputTest(unittest.TestCase):
    def test_a_huge_source_is_an_error_of_its_file(self):
        """A sparse 8 GiB file beside a module file: named as not read
        (exit 2, as an input not checked), the other file's finding kept,
        under a 2 GiB address-space limit."""
        with TempDir() as tmp:
            m = module(tmp)
            big = os.path.join(m, "big.c")
            with open(big, "wb") as f:
                f.truncate(8 * GIB)
            res = limited([MODLIFE, "scan", "--format", "json",
                           "--cache-dir", new_cache(tmp), m], 2 * GIB)
            self.assertEqual(res.returncode, 2, res.stderr)
            data = json.loads(res.stdout)
            self.assertEqual([os.path.basename(f["file"])
                              for f in data["findings"]], ["mchar.c"])
            [e] = data["errors"]
            self.assertTrue(e["file"].endswith("big.c"), e)
            self.assertIn("larger than 64 MiB", e["message"])

    def test_readers_of_sources_stop_at_the_cap(self):
        """The cache key (computed with --no-cache too), fix's snapshot,
        a baseline's line text and the cocci candidates do not read a
        huge file whole."""
        with TempDir() as tmp:
            big = os.path.join(tmp, "big.c")
            with open(big, "wb") as f:
                f.truncate(8 * GIB)
            code = (
                "import sys; sys.path.insert(0, %r)\n"
                "from frontend.ci import baseline\n"
                "from frontend.fixing import fix\n"
                "from frontend.scanning import cache, cocci_run\n"
                "print('hash:', cache.file_hash(%r))\n"
                "try:\n"
                "    fix.snapshot(%r)\n"
                "except fix.Unchanged as e:\n"
                "    print('snapshot:', e)\n"
                "print('line:', repr(baseline._line_text(%r, 1, {})))\n"
                "errors = []\n"
                "cocci_run.candidates([], [%r], errors)\n"
                "print('cocci:', errors[0][1])\n" % (ROOT, big, big, big, big))
            res = limited([sys.executable, "-c", code], GIB)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertIn("hash: None", res.stdout)
            self.assertIn("snapshot: is larger than 64 MiB", res.stdout)
            self.assertIn("line: ''", res.stdout)
            self.assertIn("cocci: larger than 64 MiB", res.stdout)

    def test_a_huge_blob_at_the_base_is_not_read(self):
        """--diff-base: REV's text of a file larger than any source is
        refused by name (exit 2), never read into memory."""
        with TempDir() as tmp:
            r = os.path.join(tmp, "r")
            d = module(r, "drv")
            b = os.path.join(d, "b.c")
            with open(b, "wb") as f:
                f.truncate(100 << 20)
            git(r, "init", "-q")
            git(r, "add", "drv")
            git(r, "commit", "-qm", "big")
            shutil.copy(MCHAR, b)
            res = run([MODLIFE, "scan", *cold(), "--diff-base", "HEAD",
                       "drv"], cwd=r)
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertIn("drv/b.c at HEAD: larger than 64 MiB",
                          res.stderr)

    def test_blobs_are_read_one_at_a_time_under_the_cap(self):
        from frontend.ci import diffbase
        with TempDir() as tmp:
            git(tmp, "init", "-q")
            ids = {}
            for name, size in (("small", 10), ("large", 5000), ("empty", 0)):
                write(os.path.join(tmp, name), "x" * size)
                ids[name] = git(tmp, "hash-object", "-w", name)
            missing = "0" * 40
            with mock.patch.object(diffbase.fswalk, "MAX_SOURCE", 1000):
                got, big = diffbase._read_blobs(tmp, sorted(ids.values()) +
                                                [missing])
            self.assertEqual(got, {ids["small"]: b"x" * 10,
                                   ids["empty"]: b""})
            self.assertEqual(big, {ids["large"]: 5000})


class OverlayWriteTest(unittest.TestCase):
    def test_an_overlay_that_cannot_be_written_goes_to_a_private_dir(self):
        """ENOSPC (or EACCES) while an overlay header is written in the
        cache: no temporary file left, one "cache not usable" line, and
        the header is written in a private directory instead."""
        from frontend.tree import overlay
        real_replace = os.replace
        with TempDir() as tmp:
            cache = os.path.join(tmp, "cache")

            def full(src, dst):
                if dst.startswith(cache + os.sep):
                    raise OSError(errno.ENOSPC, "No space left on device")
                real_replace(src, dst)
            warned = []
            ov = overlay.Overlays(cache, warned.append)
            with mock.patch("os.replace", side_effect=full):
                fl = ov.flags([("CONFIG_FOO", "m")])
                fl2 = ov.flags([("CONFIG_BAR", "y")])
                gen = ov.generated("x/y.h", "#define Y 1\n")
            try:
                self.assertEqual(fl[0], "-include")
                self.assertFalse(fl[1].startswith(cache), fl)
                with open(fl[1]) as f:
                    self.assertIn("#define CONFIG_FOO_MODULE 1", f.read())
                self.assertTrue(os.path.isfile(fl2[1]))
                self.assertTrue(os.path.isfile(os.path.join(gen, "x",
                                                            "y.h")))
                self.assertEqual(len(warned), 1, warned)
                self.assertIn("cache not usable", warned[0])
                self.assertIn("No space left", warned[0])
                self.assertEqual([n for _, _, ns in os.walk(cache)
                                  for n in ns], [])
            finally:
                ov.close()
            self.assertFalse(os.path.exists(os.path.dirname(fl[1])))

    def test_a_scan_goes_on_when_the_overlays_cannot_be_written(self):
        """Through a scan: a module with a Kconfig option, its overlay
        header's name in the cache taken by a directory (the rename
        fails as on a read-only or full cache): same finding, one
        line, no temporary file left."""
        with TempDir() as tmp:
            m = module(tmp)
            write(os.path.join(m, "Makefile"), "obj-$(CONFIG_FOO) += "
                  "mchar.o\n")
            write(os.path.join(m, "Kconfig"), 'config FOO\n\ttristate "x"\n')
            cache = new_cache(tmp)
            rc, first, err = scan([m], "--cache-dir", cache)
            self.assertEqual(rc, 1, err)
            headers = glob.glob(os.path.join(cache, "overlays", "*.h"))
            self.assertTrue(headers)
            for h in headers:
                os.unlink(h)
                os.mkdir(h)
            for e in entries(cache):
                os.unlink(e)
            rc, result, err = scan([m], "--cache-dir", cache)
            self.assertEqual(rc, 1, err)
            self.assertEqual(result["findings"], first["findings"])
            self.assertEqual(err.count("cache not usable"), 1, err)
            self.assertNotIn("Traceback", err)
            self.assertEqual(glob.glob(os.path.join(cache, "overlays",
                                                    "*.tmp")), [])


class ArchWalkTest(unittest.TestCase):
    def test_a_deep_arch_tree_is_indexed(self):
        from frontend.tree.archheaders import ArchHeaders
        with TempDir() as tmp:
            d = os.path.join(tmp, "arch", "ppc", "include", "asm")
            os.makedirs(d)
            write(os.path.join(d, "vio.h"), "\n")
            deep = os.path.join(tmp, "arch", "deep")
            os.makedirs(deep)
            cwd = os.getcwd()
            try:
                os.chdir(deep)
                for _ in range(1200):
                    os.mkdir("a")
                    os.chdir("a")
            finally:
                os.chdir(cwd)
            try:
                ah = ArchHeaders(tmp)
                self.assertEqual(ah.dirs("asm/vio.h"),
                                 [os.path.join(tmp, "arch", "ppc",
                                               "include")])
            finally:
                # shutil.rmtree recurses too
                subprocess.run(["rm", "-rf", deep])


if __name__ == "__main__":
    unittest.main()


class CacheSealTest(unittest.TestCase):
    """Owner and mode say who wrote a cache, not what: a cache committed
    in the change being scanned, or restored from another job, is the CI
    user's own. Entries are sealed with the user's key, kept outside the
    cache, and a cache inside the scanned checkout is not used."""

    def scan_json(self, paths, *extra, env=None):
        res = run([MODLIFE, "scan", "--format", "json", "--jobs", "1"] +
                  list(extra) + paths, env=env)
        return res.returncode, json.loads(res.stdout), res.stderr

    def test_a_cache_inside_the_scanned_checkout_is_not_used(self):
        with TempDir() as tmp:
            work = os.path.join(tmp, "work")
            m = module(work)
            git(work, "init", "-q")
            inside = os.path.join(work, ".mlcache")
            rc, result, err = self.scan_json([m], "--cache-dir", inside)
            self.assertEqual(rc, 1, err)
            self.assertEqual(len(result["findings"]), 1)
            self.assertEqual(err.count("lies inside the scanned tree %s"
                                       % work), 1, err)
            # nothing written there for a later scan to read
            self.assertEqual(glob.glob(os.path.join(inside, "*", "*")), [])
            # the same cache beside the checkout is used
            beside = new_cache(tmp)
            self.scan_json([m], "--cache-dir", beside)
            self.assertTrue(entries(beside))

    def test_an_entry_edited_by_someone_else_is_a_miss(self):
        """The owner's file, edited without the key (a module result with
        no standing finding: the CI user checked it out): refused."""
        with TempDir() as tmp:
            m = module(tmp)
            cache = new_cache(tmp)
            rc, _, err = self.scan_json([m], "--cache-dir", cache)
            self.assertEqual(rc, 1, err)
            [entry] = glob.glob(os.path.join(cache, "modules", "*", "*"))
            e = read_entry(entry)
            e["standing"] = []
            with open(entry, "w") as f:     # no seal: json as it was
                json.dump(e, f)
            rc, result, err = self.scan_json([m], "--cache-dir", cache)
            self.assertEqual(rc, 1, err)
            self.assertEqual(len(result["findings"]), 1)
            self.assertIn("not used: one is not sealed with this user's "
                          "key", err)
            # with the seal the owner could make, the entry is taken
            write_entry(entry, e)
            rc, result, err = self.scan_json([m], "--cache-dir", cache)
            self.assertEqual((rc, result["findings"]), (0, []), err)

    def test_an_entry_under_another_key_or_name_is_a_miss(self):
        """A restored cache written by a job with another secret is a
        miss; and a sealed entry copied under another name is refused."""
        from frontend.scanning import cache_seal
        with TempDir() as tmp:
            m = module(tmp)
            cache = new_cache(tmp)
            job1 = dict(os.environ, MODLIFE_CACHE_KEY="secret of job one")
            job2 = dict(os.environ, MODLIFE_CACHE_KEY="another secret")
            args = ["--stats", "--cache-dir", cache]
            self.scan_json([m], *args, env=job1)
            _, _, err = self.scan_json([m], *args, env=job1)
            self.assertIn("1 from cache", err)
            rc, result, err = self.scan_json([m], *args, env=job2)
            self.assertIn("0 from cache", err)
            self.assertEqual(len(result["findings"]), 1)
        sealed = cache_seal.seal("modules/" + "a" * 64, b"{}")
        self.assertEqual(cache_seal.unseal("modules/" + "a" * 64, sealed),
                         b"{}")
        for label in ("modules/" + "b" * 64, "plan/" + "a" * 64):
            with self.assertRaises(cache_seal.Unsealed):
                cache_seal.unseal(label, sealed)

    def test_the_key_is_the_users_alone(self):
        """Made on first use, readable by the user only; one others may
        read, or one inside the cache, leaves the cache unused."""
        with TempDir() as tmp:
            m = module(tmp)
            conf = os.path.join(tmp, "conf")
            env = dict(os.environ, XDG_CONFIG_HOME=conf)
            env.pop("MODLIFE_CACHE_KEY", None)
            cache = new_cache(tmp)
            rc, _, err = self.scan_json([m], "--cache-dir", cache, env=env)
            key = os.path.join(conf, "modlife", "cache-key")
            st = os.stat(key)
            self.assertEqual((st.st_size, st.st_mode & 0o777), (32, 0o600))
            os.chmod(key, 0o644)
            rc, result, err = self.scan_json([m], "--stats", "--cache-dir",
                                             cache, env=env)
            self.assertEqual(rc, 1, err)
            self.assertIn("has no key to seal its entries with", err)
            self.assertIn("0 from cache", err)
            os.chmod(key, 0o600)
            env["XDG_CONFIG_HOME"] = os.path.join(cache, "conf")
            rc, result, err = self.scan_json([m], "--cache-dir", cache,
                                             env=env)
            self.assertEqual(rc, 1, err)
            self.assertIn("holds the key that seals its entries", err)
