# SPDX-License-Identifier: GPL-2.0-only
"""Cache entries sealed with a key of the user's, kept outside the cache.

Owner and mode say who wrote a file, not what wrote it: a cache
restored from another CI job, or committed in the change being scanned
and checked out by the CI user, is all "ours". Every entry the scan
keeps is therefore sealed: an HMAC-SHA256, under the user's key, of the
entry's name (its kind and key: an entry copied under another key is
refused) and its bytes. An entry whose seal does not hold is a miss.

The key is MODLIFE_CACHE_KEY when set (a CI secret: only jobs given it
can make entries that others use), else a file of random bytes made on
first use under the user's configuration directory
($XDG_CONFIG_HOME/modlife/cache-key, ~/.config by default): only the
user may read it, and it is never inside the cache it seals."""
import errno
import hashlib
import hmac
import os
import stat
import threading

ENV = "MODLIFE_CACHE_KEY"
MAGIC = b"modlife-sealed-1 "
KEY_BYTES = 32
_lock = threading.Lock()
_key = {}


class Unsealed(ValueError):
    """An entry whose seal is missing or does not hold."""


class NoKey(OSError):
    """No key to seal entries with: the cache is not used."""


def key_path(environ=None):
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CONFIG_HOME") or os.path.join(
        os.path.expanduser("~"), ".config")
    return os.path.join(base, "modlife", "cache-key")


def where():
    """What the key is, for a message."""
    return ENV if os.environ.get(ENV) else key_path()


def _read_key_file(path):
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK |
                 os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid():
            raise NoKey(errno.EPERM, "not a regular file of ours", path)
        if st.st_mode & 0o077:
            raise NoKey(errno.EPERM, "readable or writable by others "
                        "(mode %o)" % stat.S_IMODE(st.st_mode), path)
        data = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) != KEY_BYTES:
        raise NoKey(errno.EINVAL, "not a key of %d bytes" % KEY_BYTES, path)
    return data


def _make_key_file(path):
    d = os.path.dirname(path)
    os.makedirs(d, 0o700, exist_ok=True)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW |
                 os.O_CLOEXEC, 0o600)
    try:
        os.write(fd, os.urandom(KEY_BYTES))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)      # never over a key another scan made
    except FileExistsError:
        pass
    finally:
        os.unlink(tmp)


def key():
    """The user's key (bytes). Raises NoKey."""
    secret = os.environ.get(ENV)
    if secret:
        return hashlib.sha256(b"modlife cache\0" +
                              secret.encode("utf-8", "surrogateescape")
                              ).digest()
    path = key_path()
    with _lock:
        if path in _key:
            return _key[path]
        try:
            try:
                k = _read_key_file(path)
            except FileNotFoundError:
                _make_key_file(path)
                k = _read_key_file(path)
        except NoKey:
            raise
        except OSError as e:
            raise NoKey(e.errno or errno.EIO, e.strerror or str(e), path)
        _key[path] = k
        return k


def usable_with(cache_dir):
    """Why the cache in cache_dir cannot be sealed, or None."""
    try:
        key()
    except NoKey as e:
        return "has no key to seal its entries with (%s: %s)" % (
            e.filename or where(), e.strerror or e)
    if not os.environ.get(ENV):
        kp = os.path.realpath(key_path())
        top = os.path.realpath(cache_dir)
        if kp.startswith(top.rstrip(os.sep) + os.sep):
            return "holds the key that seals its entries (%s): a copy " \
                "of the cache would carry it" % key_path()
    return None


def _mac(label, body):
    return hmac.new(key(), label.encode("utf-8", "surrogateescape") +
                    b"\0" + body, hashlib.sha256).hexdigest().encode()


def seal(label, body):
    """body (bytes) as an entry named label, sealed."""
    return MAGIC + _mac(label, body) + b"\n" + body


def unseal(label, data):
    """The body of a sealed entry named label. Raises Unsealed or
    NoKey."""
    head, nl, body = data.partition(b"\n")
    if not nl or not head.startswith(MAGIC) or not hmac.compare_digest(
            head[len(MAGIC):], _mac(label, body)):
        raise Unsealed("is not sealed with this user's key (%s)" % where())
    return body
