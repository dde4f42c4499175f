# SPDX-License-Identifier: GPL-2.0-only
"""Shared helpers of the tests: run modlife, copy corpus modules, kbuild."""
import hashlib
import json
import multiprocessing.util
import os
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "corpus")
MODLIFE = os.path.join(ROOT, "modlife")
SPARSE = os.path.join(ROOT, "sparse-plugin", "modlife-sparse")
KB = os.path.join(ROOT, "kb", "owner-reads.tsv")
# caches the tests keep from run to run: outside this checkout, since a
# cache inside a scanned tree is not used (corpus/ lies in it)
OUTSIDE = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(
    os.path.expanduser("~"), ".cache"), "modlife-tests")

# fix --format-patch writes the user as the author: the tests' user is
# this one, whatever the machine's git configuration holds (tests of the
# identity itself set their own environment)
AUTHOR = ("Ada Tester", "ada@example.org")
os.environ.setdefault("GIT_AUTHOR_NAME", AUTHOR[0])
os.environ.setdefault("GIT_AUTHOR_EMAIL", AUTHOR[1])


def kdir():
    from frontend.paths import default_kdir
    return default_kdir()


def run(args, cwd=None, check=None, env=None):
    res = subprocess.run(args, cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    return res


def scan(paths, *extra, cwd=None):
    """Runs modlife scan --format json; returns (rc, result, stderr)."""
    if not any(e.startswith("--cache-dir") or e == "--no-cache"
               for e in extra):
        # facts are keyed by content, flags and checker: a shared cache
        # changes no result, and the kernel's flags are learned once
        extra = ("--cache-dir", shared_cache()) + tuple(extra)
    if not any(e in ("--rules", "--disable") for e in extra):
        extra = ("--rules", "all") + tuple(extra)
    res = run([MODLIFE, "scan", "--format", "json"] + list(extra) +
              list(paths), cwd=cwd)
    try:
        data = json.loads(res.stdout)
    except ValueError:
        data = None
    return res.returncode, data, res.stderr


def finding_keys(result, base):
    """'file:line:rule' for each finding, file relative to base."""
    out = []
    for f in result["findings"]:
        path = os.path.relpath(os.path.abspath(f["file"]), base)
        out.append("%s:%d:%s" % (path, f["line"], f["rule"]))
    return sorted(out)


def expected(module_dir):
    with open(os.path.join(module_dir, "EXPECTED")) as f:
        return sorted(ln.strip() for ln in f if ln.strip())


def skipped(module_dir):
    """SKIPPED: 'file:reason' for each file a scan must not check."""
    try:
        with open(os.path.join(module_dir, "SKIPPED")) as f:
            return sorted(ln.strip() for ln in f if ln.strip())
    except FileNotFoundError:
        return []


def corpus_options():
    """The corpus's own Kconfig options, as a build that enables them as
    modules sets them: make variables and the macros autoconf.h would
    hold (an out-of-tree build has no autoconf.h of its own)."""
    from frontend.tree.kconfig import Kconfig
    kc = Kconfig()
    for m in sorted(os.listdir(CORPUS)):
        kc.add_local(os.path.join(CORPUS, m))
    syms = sorted(kc.tristate)
    return (["%s=m" % s for s in syms] +
            ["KCFLAGS=" + " ".join("-D%s_MODULE=1" % s for s in syms)])


class TempDir:
    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="modlife-test-")
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)


def copy_module(name, dest):
    target = os.path.join(dest, name)
    shutil.copytree(os.path.join(CORPUS, name), target)
    return target



def copy_module_headed(name, dest, source, head):
    """copy_module() with head put before the first line of its file
    source (a missing header, a line sparse rejects); (dir, path)."""
    d = copy_module(name, dest)
    src = os.path.join(d, source)
    with open(src) as f:
        text = f.read()
    with open(src, "w") as f:
        f.write(head + text)
    return d, src

def _tree_digest(path):
    """A digest of every file's name and bytes under path."""
    h = hashlib.sha256()
    for top, dirs, files in sorted(os.walk(path)):
        dirs.sort()
        for name in sorted(files):
            p = os.path.join(top, name)
            h.update(os.path.relpath(p, path).encode() + b"\0")
            with open(p, "rb") as f:
                h.update(f.read() + b"\0")
    return h.hexdigest()


def descending_kbuild(modules):
    """A Kbuild that builds each module of modules in its subdirectory."""
    return "".join("obj-y += %s/\n" % m for m in modules)


def tree_of_modules(dest, modules):
    """dest holding a copy of each corpus module of modules, as
    subdirectories one kbuild run builds; returns dest."""
    for m in modules:
        copy_module(m, dest)
    write(os.path.join(dest, "Kbuild"), descending_kbuild(modules))
    return dest


KEPT_BUILDS = os.path.join(ROOT, "build", "test-kbuild")


def kept_build_dir(name, modules):
    """build/test-kbuild/NAME, holding a copy of each corpus module of
    modules and a Kbuild that descends into them all, kept between runs
    as a developer's build tree is: a module whose files changed is
    copied afresh (kbuild then compiles it again), the others keep their
    objects, so gcc runs only for what changed; kbuild's own .cmd files
    rebuild what a changed header or flag touches. Facts files are
    removed: each run's checker writes its own. The caller holds
    lock_build_dir() while it builds."""
    base = os.path.join(KEPT_BUILDS, name)
    os.makedirs(base, exist_ok=True)
    for d in os.listdir(base):
        if d not in modules and d != "Kbuild" and \
                os.path.isdir(os.path.join(base, d)):
            shutil.rmtree(os.path.join(base, d))
    for m in modules:
        stamp = _tree_digest(os.path.join(CORPUS, m))
        target = os.path.join(base, m)
        mark = os.path.join(base, ".%s.src" % m)
        try:
            with open(mark) as f:
                same = f.read() == stamp and os.path.isdir(target)
        except OSError:
            same = False
        if not same:
            shutil.rmtree(target, ignore_errors=True)
            copy_module(m, base)
            write(mark, stamp)
    for top, _, files in os.walk(base):
        for f in files:
            if f.endswith(".o.modlife"):
                os.unlink(os.path.join(top, f))
    kb = descending_kbuild(modules)
    path = os.path.join(base, "Kbuild")
    try:
        with open(path) as f:
            same = f.read() == kb
    except OSError:
        same = False
    if not same:
        write(path, kb)
    return base


def lock_build_dir(name):
    """An exclusive lock on build/test-kbuild/NAME for two runs of the
    tests at once; closing the returned file releases it."""
    import fcntl
    os.makedirs(KEPT_BUILDS, exist_ok=True)
    f = open(os.path.join(KEPT_BUILDS, name + ".lock"), "w")
    fcntl.flock(f, fcntl.LOCK_EX)
    return f


def kbuild(module_dir, *extra):
    return run(["make", "-C", kdir(), "M=" + module_dir] + list(extra) +
               ["modules"])


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def git(cwd, *args):
    """git in cwd with a fixed identity and branch name; its output."""
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t",
                           "-c", "init.defaultBranch=main"] + list(args),
                          cwd=cwd, check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True).stdout.strip()


def edit(path, old, new):
    """Replaces the first old in the file with new (old must be there)."""
    with open(path) as f:
        text = f.read()
    assert old in text, (path, old)
    with open(path, "w") as f:
        f.write(text.replace(old, new, 1))


def shared_cache():
    """A fact cache the tests that are not about the cache share: the
    kernel's flags are learned once (seconds a run under --no-cache)."""
    path = os.path.join(OUTSIDE, "test-cache")
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path


_seeded = []


def seeded(path):
    """path made a fact cache (mode 0700) that holds no facts but knows
    the kernel's flags, copied from the shared cache: a test about
    something else would otherwise spend seconds relearning them (a
    kbuild run of some 35 compiler probes). Returns path."""
    shared = shared_cache()
    if not _seeded:
        _seeded.append(True)
        try:
            from frontend.tree import kflags
            kflags.kernel_flags(kdir(), shared)
        except Exception:
            pass    # no KDIR: the scan says so itself
    os.makedirs(path, mode=0o700, exist_ok=True)
    for name in os.listdir(shared):
        if name.startswith("kflags-"):
            shutil.copy(os.path.join(shared, name), path)
    return path


def seeded_user_cache(env):
    """The fact cache modlife uses by default in the environment env
    (its XDG_CACHE_HOME), seeded()."""
    from frontend.scanning import cache
    return seeded(cache.default_dir(env))


def cold_cache():
    """A new fact cache that holds no facts (a run as cold as under
    --no-cache) but knows the kernel's flags (seeded())."""
    path = tempfile.mkdtemp(prefix="cold-",
                            dir=os.path.dirname(shared_cache()))
    # a worker of run.py's pool ends without atexit handlers; it runs
    # multiprocessing's finalizers, and so does a plain process's exit
    multiprocessing.util.Finalize(None, shutil.rmtree, args=(path, True),
                                  exitpriority=0)
    return seeded(path)


def cold():
    """Scan options for a cold fact cache (see cold_cache())."""
    return ["--cache-dir", cold_cache()]


# make check (MODLIFE_TESTS=check): no network, no install, no emulator
CHECK_ONLY = os.environ.get("MODLIFE_TESTS") == "check"


def needs_emulator(obj):
    """A test that boots a kernel under qemu (and may fetch Debian's
    kernel and busybox): make test runs it, make check does not."""
    return unittest.skipIf(CHECK_ONLY, "make check: needs the emulator "
                           "(make test or make prove runs it)")(obj)


def needs_fetched(path, target):
    """A test that needs a file make test fetches (make TARGET): under
    make check it is skipped when the file is not there yet."""
    return unittest.skipIf(CHECK_ONLY and not os.path.exists(path),
                           "make check: %s not fetched (make %s)"
                           % (os.path.relpath(path, ROOT), target))


def _entry_label(path):
    """The name a cache entry at path is sealed under (cache_seal.py)."""
    base = os.path.basename(path)
    parent = os.path.basename(os.path.dirname(path))
    kind = os.path.basename(os.path.dirname(os.path.dirname(path)))
    if base.startswith("kflags-"):
        return "kflags/" + base
    if parent == "knowledge":
        return "knowledge/" + base
    if kind in ("plan", "modules", "cocci", "link"):
        return kind + "/" + base[:-len(".json")]
    return "facts/" + base[:-len(".json")]


def read_entry(path):
    """The JSON value of the cache entry at path, as its owner (the
    tests' user, with the user's key) may read it."""
    from frontend.scanning import cache_seal
    with open(path, "rb") as f:
        return json.loads(cache_seal.unseal(_entry_label(path), f.read()))


def write_entry(path, value):
    """Rewrites the cache entry at path with value, sealed again with the
    user's key: what only the cache's owner can do (a test of what the
    reader checks beyond the seal)."""
    from frontend.scanning import cache_seal
    body = json.dumps(value).encode("utf-8")
    with open(path, "wb") as f:
        f.write(cache_seal.seal(_entry_label(path), body))
