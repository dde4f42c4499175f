# SPDX-License-Identifier: GPL-2.0-only
"""The compiler flags kbuild passes to a checker, learnt once per KDIR.

A throw-away module is built with CHECK set to a script that records its
arguments; relative include paths are made absolute so that the checker can
run from any directory, and per-object flags (-DMODULE, KBUILD_MODNAME, the
dependency file, the source file) are dropped: they are added per file.
"""
import hashlib
import json
import os
import re
import shlex
import subprocess
import tempfile

from ..scanning import cache

PER_OBJECT = ("-DMODULE", "-DKBUILD_BASENAME=", "-DKBUILD_MODNAME=",
              "-D__KBUILD_MODNAME=", "-Wp,-MMD,", "-Wp,-MD,")


class KbuildError(Exception):
    pass


PROBE_TIMEOUT = 300


def user_cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "modlife")


def _cache_path(kdir, cache_dir):
    st = os.stat(os.path.join(kdir, "Makefile"))
    key = "%s:%d" % (os.path.realpath(kdir), int(st.st_mtime))
    digest = hashlib.sha1(key.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return os.path.join(cache_dir, "kflags-%s.json" % digest)


def _capture(kdir):
    with tempfile.TemporaryDirectory(prefix="modlife-kflags-") as tmp:
        with open(os.path.join(tmp, "probe.c"), "w") as f:
            f.write("#include <linux/module.h>\nMODULE_LICENSE(\"GPL\");\n")
        with open(os.path.join(tmp, "Kbuild"), "w") as f:
            f.write("obj-m += probe.o\n")
        out = os.path.join(tmp, "args")
        check = os.path.join(tmp, "check.sh")
        with open(check, "w") as f:
            f.write('#!/bin/sh\npwd > "%s"\nprintf "%%s\\n" "$@" >> "%s"\n'
                    % (out, out))
        os.chmod(check, 0o755)
        cmd = ["make", "-s", "-C", kdir, "M=" + tmp, "C=2",
               "CHECK=" + check, "probe.o"]
        try:
            # a KDIR whose make asks questions must not wait for an answer
            res = subprocess.run(cmd, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True,
                                 stdin=subprocess.DEVNULL,
                                 timeout=PROBE_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise KbuildError("kbuild in %s did not finish in %d s"
                              % (kdir, PROBE_TIMEOUT))
        except OSError as e:
            raise KbuildError("cannot run make: %s" % e)
        if not os.path.exists(out):
            raise KbuildError("kbuild in %s did not run the checker: %s"
                              % (kdir, res.stdout.strip()[-400:]))
        with open(out) as f:
            lines = f.read().split("\n")
    cwd, args = lines[0], [a for a in lines[1:] if a]
    return cwd, args


def _absolutize(cwd, args):
    out = []
    skip_next = False
    for i, a in enumerate(args):
        if skip_next:
            skip_next = False
            continue
        if a.startswith(PER_OBJECT) or a == "-DMODULE" or a.endswith(
                "probe.c"):
            continue
        if a.startswith("-I") and len(a) > 2 and not a[2:].startswith("/"):
            a = "-I" + os.path.normpath(os.path.join(cwd, a[2:]))
        if a == "-include" and i + 1 < len(args):
            p = args[i + 1]
            if not p.startswith("/"):
                p = os.path.normpath(os.path.join(cwd, p))
            out += [a, p]
            skip_next = True
            continue
        out.append(a)
    return out


# the shapes of the flags the probe records (kbuild's CHECKFLAGS and
# c_flags): a cached list is used only when each flag has one of them.
# The cache is data: an option that names a file to write (-o, -MF,
# -Wp,-MD,FILE, --modlife-facts=), or any other of the checker's own,
# makes the list a miss, computed again.
_FLAG = re.compile(r"""(
    -[IDU][^-].* | -std=[\w+]+ | -O[0-9sgz]? | -g[\w=-]* | -pg | -pipe |
    -nostdinc | -m[\w=.,+-]+ | --arch=\w+ | -f[\w=.,+/:@-]+ |
    -W[\w=.+-]+ | --param=[\w=.-]+
)\Z""", re.X | re.S)
# these take the next argument (a path, a macro)
_WITH_ARG = ("-include", "-imacros", "-isystem", "-idirafter", "-iquote",
             "-I", "-D", "-U")
# -f options that write a file (gcc's dumps, profiles, reports)
_WRITES = ("-fdump", "-fprofile", "-fstack-usage", "-fcallgraph-info",
           "-fopt-info", "-fsave-optimization-record", "-fdiagnostics-log",
           "-fplugin", "-fauto-profile", "-fcreate-profile")


def valid_flags(flags):
    """Whether a list (from a cache file) holds only flags of the shapes
    the probe records."""
    if not isinstance(flags, list) or not flags:
        return False
    arg = False
    for f in flags:
        if not isinstance(f, str) or "\0" in f or \
                f.startswith("--modlife"):
            return False
        if arg:
            if f.startswith("-") or not f:
                return False
            arg = False
        elif f in _WITH_ARG:
            arg = True
        elif f.startswith(_WITH_ARG[:5]):     # joined: -isystem/usr/...
            opt = next(o for o in _WITH_ARG[:5] if f.startswith(o))
            if f[len(opt):].startswith("-"):
                return False
        elif not _FLAG.match(f) or f.startswith(_WRITES):
            return False
    return not arg


def _read_cached(path):
    """The flags in a cache file of ours, or None."""
    try:
        data = json.loads(cache.read_entry(
            path, "kflags/" + os.path.basename(path)).decode("utf-8"))
    except (OSError, ValueError):
        return None
    return data if valid_flags(data) else None


def kernel_flags(kdir, cache_dir=""):
    """The checker flags for KDIR, from the cache when possible: in
    cache_dir, by default the user's cache; None: no cache. A cache
    directory that is not ours, or an entry that is not ours or not of
    the probe's shapes, is not used."""
    if not kdir or not os.path.isfile(os.path.join(kdir, "Makefile")):
        raise KbuildError("no configured kernel tree at %s (set KDIR=)"
                          % kdir)
    if cache_dir == "":
        cache_dir = user_cache_dir()
    if cache_dir and (cache.distrust_dir(cache_dir) or
                      cache.cache_seal.usable_with(cache_dir)):
        cache_dir = None
    path = _cache_path(kdir, cache_dir) if cache_dir else None
    if path:
        flags = _read_cached(path)
        if flags is not None:
            return flags
    cwd, args = _capture(kdir)
    flags = _absolutize(cwd, args)
    if not path:
        return flags
    try:
        cache.write_entry(path, flags, "kflags/" + os.path.basename(path))
    except OSError:
        pass    # a read-only cache only costs time
    return flags


def _c_name(name):
    """kbuild's name-fix, and no character that could end the string
    literal or the line: a file name is not trusted."""
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def file_flags(base, path, module, modname):
    """Flags for one source file, as kbuild would pass them."""
    flags = list(base)
    flags.append("-I" + os.path.dirname(os.path.abspath(path)))
    modname = _c_name(modname)
    if module:
        flags.append("-DMODULE")
    else:
        # built-in objects name their file for modules.builtin
        flags.append('-DKBUILD_MODFILE="%s"' % modname)
    name = _c_name(os.path.splitext(os.path.basename(path))[0])
    flags.append('-DKBUILD_BASENAME="%s"' % name)
    flags.append('-DKBUILD_MODNAME="%s"' % modname)
    flags.append("-D__KBUILD_MODNAME=kmod_%s" % modname)
    return flags


def native_arch(flags):
    """The architecture KDIR's headers are for (arch/<name>/include in its
    flags), as a one-element list, or []."""
    for f in flags:
        m = re.search(r"/arch/([\w-]+)/include(/|$)", f)
        if m:
            return [m.group(1)]
    return []


def arch_flags(flags, kdir, arch, arch_kdir):
    """flags (for KDIR, of the native architecture) as they would be for
    another architecture's configured headers in arch_kdir: its arch/
    include directories, its generated headers and autoconf.h, sparse's
    --arch and endianness (arch_kdir/modlife-arch) instead of the native
    machine flags."""
    native = native_arch(flags)
    if not native:
        return None
    try:
        with open(os.path.join(arch_kdir, "modlife-arch")) as f:
            machine = f.read().split()
    except OSError:
        return None
    homes = sorted({kdir.rstrip("/"), os.path.realpath(kdir)}, key=len,
                   reverse=True)
    common = [f[2:-len("/arch/%s/include" % native[0])] for f in flags
              if f.startswith("-I") and
              f.endswith("/arch/%s/include" % native[0])]
    machine = [w.replace("@COMMON@", common[0] if common else "")
               for w in machine]
    out = []
    for f in flags:
        if f.startswith(("-m", "--arch=")) or f in ("-D__x86_64__",
                                                     "-D__i386__"):
            continue
        f = f.replace("/arch/%s/" % native[0], "/arch/%s/" % arch)
        if f.endswith("/arch/%s/include" % native[0]):
            f = f[:-len(native[0]) - len("/include")] + arch + "/include"
        for h in homes:
            if h + "/" in f or f.endswith(h):
                f = f.replace(h, arch_kdir)
                break
        out.append(f)
    return out + machine


def show_command(cmd):
    return " ".join(shlex.quote(c) for c in cmd)
