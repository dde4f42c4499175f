# SPDX-License-Identifier: GPL-2.0-only
"""Where the checker binary, the semantic patches and the knowledge live,
in a source checkout and once installed (PREFIX/share/modlife)."""
import glob
import os
import re
import shutil

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


class SettingError(Exception):
    pass


def _first(*candidates):
    for c in candidates:
        if c and os.path.exists(c):
            return c
    return None


def _setting(name):
    """An environment setting naming a file: one that names nothing is
    an error, never quietly replaced by the default."""
    value = os.environ.get(name)
    if value and not os.path.exists(value):
        raise SettingError("%s=%s: no such file" % (name, value))
    return value


def sparse_binary():
    return _first(_setting("MODLIFE_SPARSE"),
                  os.path.join(ROOT, "sparse-plugin", "modlife-sparse"),
                  os.path.join(ROOT, "..", "..", "bin", "modlife-sparse"),
                  shutil.which("modlife-sparse"))


def cocci_dir():
    return _first(os.path.join(ROOT, "cocci"))


def kb_file():
    return _first(_setting("MODLIFE_KB"),
                  os.path.join(ROOT, "kb", "owner-reads.tsv"))


def kb_list(name):
    """The words of kb/NAME.txt, one a line ("#" comments), which the
    checker is built with too."""
    path = os.path.join(ROOT, "kb", name + ".txt")
    with open(path, encoding="utf-8") as f:
        return [w.strip() for w in f
                if w.strip() and not w.startswith("#")]


def kb_api():
    """kb/api.tsv's (class, name pattern) rows, which the checker is
    built with too."""
    with open(os.path.join(ROOT, "kb", "api.tsv"), encoding="utf-8") as f:
        return [tuple(line.rstrip("\n").split("\t")[:2]) for line in f
                if "\t" in line and not line.startswith("#")]


def kb_table(path):
    """(line number, columns) of each row of a tab-separated kb/ table,
    blank lines and "#" comments left out."""
    with open(path, encoding="utf-8") as f:
        return [(n, line.rstrip("\n").split("\t"))
                for n, line in enumerate(f, 1)
                if line.strip() and not line.startswith("#")]


def docs_dir():
    return _first(os.path.join(ROOT, "docs"))


def installed_kdirs():
    """Debian's configured linux-headers-*-amd64 trees, oldest first
    (under /usr/src, or $MODLIFE_HEADERS_DIR)."""
    base = os.environ.get("MODLIFE_HEADERS_DIR") or "/usr/src"
    trees = glob.glob(os.path.join(glob.escape(base),
                                   "linux-headers-*-amd64"))

    def version(path):
        v = os.path.basename(path)[len("linux-headers-"):].split("-")
        out = []
        for part in ".".join(v[:2]).split("."):
            out.append(int(part) if part.isdigit() else 0)
        return out
    return sorted(trees, key=version)


def kdir_release(kdir):
    """"6.1" for a configured tree (its kernel.release, its Makefile, or
    Debian's directory name), or None."""
    from .tree import kerneltree
    r = kerneltree.release(kdir)
    if r:
        return r
    m = re.match(r"linux-headers-(\d+)\.(\d+)", os.path.basename(
        os.path.normpath(kdir)))
    return "%s.%s" % m.groups() if m else None


def default_kdir(release=None):
    """$KDIR, else the installed headers of the kernel release (\"6.1\")
    of the tree being scanned, else (no tree) the newest ones; None when
    there are none, or none of that release: another kernel's headers
    would parse the tree with declarations it does not have."""
    env = os.environ.get("KDIR")
    if env:
        return env
    return matching_kdir(release)


def matching_kdir(release=None):
    """The newest installed headers of release (all when None), or
    None."""
    trees = installed_kdirs()
    if release:
        trees = [t for t in trees if kdir_release(t) == release]
    return trees[-1] if trees else None


def arch_kdirs():
    """{kernel arch: configured headers} fetched by make arch-headers
    (scripts/fetch_arch_headers.py), or named by $MODLIFE_ARCH_KDIRS."""
    base = os.environ.get("MODLIFE_ARCH_KDIRS") or os.path.join(
        ROOT, "build", "arch-kdir")
    out = {}
    for d in sorted(glob.glob(os.path.join(base, "*"))):
        if os.path.isfile(os.path.join(d, "modlife-arch")):
            out[os.path.basename(d)] = d
    return out
