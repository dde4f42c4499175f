# SPDX-License-Identifier: GPL-2.0-only
"""./modlife fix: apply the semantic patches' safe fixes, file by file.

Each file the scan found safely fixable findings in is patched in a
private copy by those rules' scripts; the result must pass fixcheck and
a re-scan (fixscan.Verifier). If it differs, the diff is printed (or
gathered for --format-patch) and (unless --dry-run) the file is
replaced atomically: written beside it, then renamed over it, keeping its
mode, owner, extended attributes and CRLF line ends; a symbolic link's
target is what changes. A file no script changes is never touched. One
that changed while it was being fixed, has hard links, is read-only, or
whose spatch failed or timed out is left as it was and reported.
"""
import difflib
import hashlib
import os
import re
import stat
import subprocess
import tempfile

from .. import paths
from . import align
from ..scanning.cocci_engine import TIMEOUT, spatch_options
from ..tree.fswalk import MAX_SOURCE, open_regular
from ..ci.report import display as shown_text, lead
from ..rules import RULES
from ..scanning.staging import display, shown_path, staged_name

TEMP_NAME = re.compile(r"\.modlife-fix-(\d+)-[0-9a-f]+\Z")


def scripts(rules):
    d = paths.cocci_dir()
    out = []
    for r in sorted(rules):
        s = RULES[r].cocci
        if d and s and os.path.isfile(os.path.join(d, s)):
            out.append(os.path.join(d, s))
    return out


def _decided(script):
    """fix runs on findings the scan made, so the module can be unloaded
    (module_platform_driver() and the like included): scripts that gate on
    a literal module_exit() are told so."""
    with open(script, encoding="utf-8") as f:
        return ["-D", "unloadable"] if "\nvirtual unloadable\n" in \
            f.read() else []


def fix_file(path, sps, original, timeout=None):
    """The fixed text of path, whose bytes are original: (new text or
    None, error or None)."""
    timeout = timeout or TIMEOUT
    with tempfile.TemporaryDirectory(prefix="modlife-fix-") as tmp:
        # spatch passes names to /bin/sh: only a name chosen here
        copy = os.path.join(tmp, staged_name(path))
        with open(copy, "wb") as f:
            f.write(original)
        for sp in sps:
            cmd = (["spatch", "-D", "patch", "--very-quiet", "--no-show-diff",
                    "--in-place", "--timeout", str(timeout), "--tmp-dir",
                    tmp] + spatch_options(sp) + _decided(sp) +
                   ["--sp-file", sp, copy])
            try:
                res = subprocess.run(cmd, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=tmp,
                                     stdin=subprocess.DEVNULL,
                                     timeout=timeout + 30)
            except subprocess.TimeoutExpired:
                return None, "spatch %s timed out" % os.path.basename(sp)
            err = res.stderr.decode("utf-8", "replace")
            if "Timeout" in err:
                return None, "spatch %s timed out after %d s" % (
                    os.path.basename(sp), timeout)
            if res.returncode != 0 or "EXN" in err:
                return None, "spatch %s failed: %s" % (
                    os.path.basename(sp),
                    (err.strip().splitlines() or ["exit %d"
                                                  % res.returncode])[-1])
        with open(copy, "rb") as f:
            new = f.read()
    return (new if new != original else None), None


class Unchanged(Exception):
    """A file fix leaves as it was; the message says why."""


def snapshot(path):
    """What must still hold when the new text replaces the file: the same
    inode, size, modification time and bytes."""
    st = os.stat(path)
    too_large = Unchanged("is larger than %d MiB: not read"
                          % (MAX_SOURCE >> 20))
    if st.st_size > MAX_SOURCE:
        raise too_large
    with open_regular(path) as f:
        data = f.read(MAX_SOURCE + 1)
    if len(data) > MAX_SOURCE:
        raise too_large
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns,
            hashlib.sha256(data).digest()), data


def writable_target(path):
    """The file a fix of path writes: a symbolic link's target (the link
    stays). Raises Unchanged where a rename would do harm."""
    real = os.path.realpath(path)
    st = os.stat(real)
    if not stat.S_ISREG(st.st_mode):
        raise Unchanged("not a regular file")
    if st.st_nlink > 1:
        raise Unchanged("has %d hard links, which a rewrite would split"
                        % st.st_nlink)
    if not st.st_mode & stat.S_IWUSR:
        raise Unchanged("is read-only (mode %o)" % stat.S_IMODE(st.st_mode))
    return real


def _stale_temps(d):
    """Removes our temporary files in d whose process is gone (a fix
    killed between creating and renaming one)."""
    try:
        names = os.listdir(d)
    except OSError:
        return
    for n in names:
        m = TEMP_NAME.match(n)
        if not m:
            continue
        try:
            os.kill(int(m.group(1)), 0)
            continue                    # still running
        except ProcessLookupError:
            pass
        except (PermissionError, OverflowError, ValueError):
            continue
        try:
            os.unlink(os.path.join(d, n))
        except OSError:
            pass


def _copy_attributes(src_st, real, fd):
    os.fchmod(fd, stat.S_IMODE(src_st.st_mode))
    try:
        os.fchown(fd, src_st.st_uid, src_st.st_gid)
    except PermissionError:
        pass                # not ours to give away: stays the caller's
    try:
        names = os.listxattr(real)
    except OSError:
        names = []
    for n in names:
        try:
            os.setxattr(fd, n, os.getxattr(real, n))
        except OSError:
            pass


def _link_unnamed(fd, name):
    """Gives the O_TMPFILE file fd a name (os.link() does not follow
    /proc/self/fd links)."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    at_fdcwd, at_symlink_follow = -100, 0x400
    if libc.linkat(at_fdcwd, os.fsencode("/proc/self/fd/%d" % fd), at_fdcwd,
                   os.fsencode(name), at_symlink_follow) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e), name)


def write_atomic(path, data, before=None):
    """Replaces path's target with data by a rename in its directory,
    keeping mode, owner and extended attributes. With before (from
    snapshot()), raises Unchanged if the file changed since."""
    real = writable_target(path)
    d = os.path.dirname(real)
    _stale_temps(d)
    st = os.stat(real)
    name = os.path.join(d, ".modlife-fix-%d-%s" % (os.getpid(),
                                                  os.urandom(4).hex()))
    try:
        # unnamed until linked: a kill before the link leaves nothing
        fd = os.open(d, os.O_TMPFILE | os.O_WRONLY, 0o600)
        unnamed = True
    except (AttributeError, OSError):
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        unnamed = False
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            _copy_attributes(st, real, f.fileno())
            os.fsync(f.fileno())
            if before is not None and snapshot(real)[0] != before:
                raise Unchanged("changed while it was being fixed")
            if unnamed:
                _link_unnamed(f.fileno(), name)
        os.replace(name, real)
    except BaseException:
        try:
            os.unlink(name)
        except OSError:
            pass
        raise


def line_endings_like(old, new):
    """new with CRLF line ends if old has only those (spatch writes the
    lines it adds with LF)."""
    n = old.count(b"\n")
    if n and old.count(b"\r\n") == n:
        return new.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    return new


def diff(path, old, new):
    a = old.decode("utf-8", "replace").splitlines(True)
    b = new.decode("utf-8", "replace").splitlines(True)
    return "".join(difflib.unified_diff(a, b, "a/" + path, "b/" + path))


def _label(path):
    """The diff's file name: relative to the directory of the run, or to
    the top of the file's tree (kernel tree or git work tree), never
    a//abs/path: patch -p1 applies it from there."""
    from ..ci.baseline import tree_path
    shown = shown_path(path)
    return tree_path(path) if os.path.isabs(shown) else shown


def run(plan, dry_run, out, err, verifier=None, collect=None):
    """plan: {file: [rules]}. Returns (files changed, errors). A file
    that cannot be fixed safely is reported and left as it was; the
    others go on. A fix whose result fixcheck refuses, or that a re-scan
    (verifier) still finds the finding in, is not written."""
    changed, errors = 0, 0
    for path in sorted(plan):
        shown = lead(path)      # a note's line begins with it
        try:
            before, old = snapshot(path)
            if not dry_run and collect is None:     # only a write needs
                writable_target(path)
            new, problem = fix_file(path, scripts(plan[path]), old)
            if new is not None:
                # the table's alignment, then its line ends
                new = line_endings_like(old, align.fields(old, new))
                refused = _refusal(path, old, new, plan[path], verifier)
                if refused:
                    # the tool declining is no error of the input
                    err.write("%s: note: fix refused: %s; file left as it "
                              "was\n" % (shown, refused))
                    continue
            if new is not None and not problem:
                if collect is not None:     # --format-patch: no write
                    from ..ci.baseline import tree_path
                    # from the top of the tree, where git am applies it
                    label = display(tree_path(path))
                    collect.append((label, diff(label, old, new), path))
                    changed += 1
                    continue
                text = diff(display(_label(path)), old, new)
                if not dry_run:
                    write_atomic(path, new, before)
                # the diff of what was (or would be) written only
                out.write(text)
        except Unchanged as e:
            problem = str(e)
        except OSError as e:
            problem = "%s%s" % (e.strerror or e,
                                " (%s)" % shown_text(e.filename)
                                if e.filename and e.filename != path else "")
        if problem:
            err.write("%s: error: %s; file left as it was\n"
                      % (shown, problem))
            errors += 1
            continue
        if new is not None:
            changed += 1
        else:
            # a finding of a rule with a safe fix in a shape the
            # semantic patch does not handle (an exit made by a macro)
            err.write("%s: note: no automatic fix here for %s: the "
                      "semantic patch changes nothing\n"
                      % (shown, ", ".join(sorted(plan[path]))))
    return changed, errors


def _refusal(path, old, new, rules, verifier):
    from . import fixcheck
    why = fixcheck.problems(old.decode("utf-8", "replace"),
                            new.decode("utf-8", "replace"))
    if why:
        return "; ".join(why)
    if verifier is None:
        return None
    left = verifier.remaining(path, new, rules)
    if left is None:
        if path.endswith(".h"):
            # re-scanned through the sources beside it only
            return "the fixed header could not be re-scanned with the " \
                "sources in its directory"
        return "the fixed file could not be re-scanned"
    if left:
        return "a re-scan still finds %s" % ", ".join(
            "%s (line %d)" % (f["rule"], f["line"]) for f in left)
    return None
