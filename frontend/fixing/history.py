# SPDX-License-Identifier: GPL-2.0-only
"""What the git history of a scanned file says for a patch of it: the
subject prefix its commits use ("usb: xhci:", "hwmon: (pmbus/ibm-cffps)",
"Input: edt-ft5x06 -"), the commit that added an object (Fixes:), and
whether that commit is in a release (Cc: stable).

The tree is not trusted, its git configuration included: git runs through
ci/diffbase.git_read() (no hook, fsmonitor, pager, system configuration
or lazy fetch), with no signature program, external diff or textconv
filter, revisions before --end-of-options and paths after "--". A
repository that git refuses (another user's, without safe.directory in
the user's own configuration) or that could fetch objects has no history
here: the subject then comes from MAINTAINERS (subjects.py), and no
Fixes: or Cc: stable is written."""
import collections
import os
import re

from ..ci import diffbase

# no program the repository names runs while its history is read
_OPTIONS = ["-c", "log.showSignature=false", "-c", "gpg.program=false",
            "-c", "diff.external=", "-c", "core.attributesFile=/dev/null"]
_TIMEOUT = 120
_LOG = ["log", "--no-merges", "--no-show-signature", "--no-ext-diff",
        "--no-textconv", "--no-color"]

# how many recent commits a prefix is learnt from
FILE_COMMITS = 30
DIR_COMMITS = 80


class Repo:
    """The git work tree a scanned file is in, or none (top is None)."""
    _cache = {}

    def __init__(self, top):
        self.top = top

    @classmethod
    def of(cls, path):
        d = os.path.dirname(os.path.realpath(path))
        if d not in cls._cache:
            cls._cache[d] = cls(_toplevel(d))
        return cls._cache[d]

    def git(self, args):
        """git's output, or None when there is no repository or git
        fails."""
        if self.top is None:
            return None
        try:
            return diffbase.git_read(self.top, args, options=_OPTIONS,
                                     timeout=_TIMEOUT)
        except diffbase.DiffError:
            return None

    def rel(self, path):
        return os.path.relpath(os.path.realpath(path), self.top)


def _toplevel(d):
    try:
        top = diffbase.git_read(d, ["rev-parse", "--show-toplevel"],
                                options=_OPTIONS, timeout=_TIMEOUT).strip()
    except diffbase.DiffError:
        return None
    if not top or diffbase.lazy_fetch(top):
        return None     # git could fetch, running what the repo names
    try:
        diffbase.git_read(top, ["rev-parse", "--verify", "--quiet",
                                "HEAD^{commit}"], options=_OPTIONS,
                          timeout=_TIMEOUT)
    except diffbase.DiffError:
        return None     # no commit yet
    return os.path.realpath(top)


# --- subject prefixes ---------------------------------------------------

_COLON = re.compile(r"([\w.+,-]+(?:/[\w.+,-]+)*(?: / [\w.+-]+)?): ")
_PAREN = re.compile(r"\(([\w.+,/-]+)\) ")
_DASH = re.compile(r"([\w.+/-]+) - ")


def parse(subject):
    """The prefix of a kernel commit subject as a list of parts, each
    with its separator ("usb:", "xhci:"; "hwmon:", "(asus_atk0110)";
    "Input:", "edt-ft5x06 -"), or None (a merge, a revert, no prefix)."""
    return _split(subject)[0]


def _split(subject):
    """(parse(subject), what follows the prefix)."""
    s = subject.strip()
    if re.match(r"(?i)(revert|merge|reapply)\b", s):
        return None, s
    parts, pos = [], 0
    while True:
        m = _COLON.match(s, pos)
        if not m:
            break
        parts.append(m.group(1) + ":")
        pos = m.end()
    if not parts:
        return None, s
    m = _PAREN.match(s, pos) or _DASH.match(s, pos)
    if m:
        parts.append("(%s)" % m.group(1) if m.re is _PAREN
                     else m.group(1) + " -")
        pos = m.end()
    return parts, s[pos:]


def _fold(part):
    return part.lower()


def common(chains):
    """The prefix most recent subjects share: the longest run of leading
    parts that at least half of them (newer ones weigh more) begin
    with; parts compare without case and are written as most of them
    write it. chains: parsed prefixes, newest first. None without any."""
    chains = [c for c in chains if c]
    if not chains:
        return None
    n = len(chains)
    weight = collections.Counter()
    spelled = collections.defaultdict(collections.Counter)
    for i, c in enumerate(chains):
        w = 2.0 - i / n             # the newest counts twice the oldest
        for k in range(1, len(c) + 1):
            key = tuple(_fold(p) for p in c[:k])
            weight[key] += w
            spelled[key][tuple(c[:k])] += w
    total = sum(2.0 - i / n for i in range(n))
    shared = [k for k, w in weight.items() if w * 2 >= total]
    if shared:
        key = max(shared, key=lambda k: (len(k), weight[k]))
    else:
        key = max(weight, key=lambda k: (weight[k], len(k)))
    return list(spelled[key].most_common(1)[0][0])


def _file_subjects(repo, path):
    out = repo.git(_LOG + ["--follow", "--format=%s", "-n",
                           str(FILE_COMMITS), "--", repo.rel(path)])
    return out.splitlines() if out else []


def _dir_commits(repo, d):
    """[(subject, [paths])] of the recent commits under directory d."""
    out = repo.git(_LOG + ["--format=%x00%s", "--name-only", "-n",
                           str(DIR_COMMITS), "--", repo.rel(d) + "/"])
    commits = []
    for chunk in (out or "").split("\0")[1:]:
        lines = [ln for ln in chunk.splitlines() if ln.strip()]
        if lines:
            commits.append((lines[0], lines[1:]))
    return commits


def _bare(part):
    return part.strip("():- ").lower()


def _words(stem):
    return re.split(r"[-_]", stem.lower())


def _names_file(token, path):
    """Whether a prefix part names the file: its stem, a leading part of
    it (xhci for xhci-ring.c), or its path's tail (pmbus/ibm-cffps)."""
    t = token.replace("-", "_")
    stem = os.path.splitext(os.path.basename(path))[0].lower()
    tail = t.split("/")[-1]
    words = _words(stem)
    return tail == stem.replace("-", "_") or \
        tail.split("_") == [w for w in words[:len(tail.split("_"))]]


def _per_file_part(base, commits, path):
    """The part after base that directory commits give the file they
    change, made for path: ("(pmbus/%s)" style, from the subjects of the
    files beside it), or None when the directory's subjects do not name
    files."""
    n = len(base)
    seen, named = 0, []
    for subj, files in commits:
        c = parse(subj)
        if not c or len(c) <= n or \
                [_fold(p) for p in c[:n]] != [_fold(p) for p in base]:
            continue
        seen += 1
        part = c[n]
        if len(files) == 1 and _names_file(_bare(part), files[0]):
            named.append((part, files[0]))
    if not seen or len(named) * 2 < seen:
        return None
    stem = os.path.splitext(os.path.basename(path))[0]
    # a part the history already uses for this name (xhci for xhci-*.c)
    uses = collections.Counter(p for p, _ in named
                               if _names_file(_bare(p), path))
    if uses:
        return uses.most_common(1)[0][0]
    part, other = collections.Counter(
        (p, f) for p, f in named).most_common(1)[0][0]
    ostem = os.path.splitext(os.path.basename(other))[0]
    inner = part.strip()
    # the same shape around the new name: "(pmbus/x)", "x -", "x:"
    at = inner.lower().rfind(ostem.lower())
    if at < 0:
        head = inner[:len(inner) - len(inner.lstrip("("))]
        return head + stem + inner[len(inner.rstrip("):- ")):]
    return inner[:at] + stem + inner[at + len(ostem):]


def _drop_named(base, commits):
    """base without trailing parts that name one of the files the
    commits change: a directory's common prefix is not one driver's."""
    files = [f for _, fs in commits for f in fs]
    while len(base) > 1 and any(_names_file(_bare(base[-1]), f)
                                for f in files):
        base = base[:-1]
    return base


def prefix(path):
    """The subject prefix the history gives path: the common prefix of
    the file's recent commits, else the one of its directory's (with the
    file's name where those name theirs), else the one commit of the
    file's; None without history."""
    repo = Repo.of(path)
    if repo.top is None:
        return None
    own = [c for c in map(parse, _file_subjects(repo, path)) if c]
    if len(own) >= 2:
        return " ".join(common(own))
    commits = _dir_commits(repo, os.path.dirname(os.path.realpath(path)))
    chains = [c for c in (parse(s) for s, _ in commits) if c]
    if len(chains) < 2:
        return " ".join(own[0]) if own else None
    base = _drop_named(common(chains), commits)
    part = _per_file_part(base, commits, path)
    return " ".join(base + ([part] if part else []))


def _first_word_case(rest):
    """1 for "Fix ...", -1 for "fix ...", 0 when the word tells nothing
    (an acronym, a name, a digit)."""
    m = re.match(r"[A-Za-z][a-z]*\b", rest)
    if not m or (len(m.group(0)) == 1 and rest[1:2].isalpha()):
        return 0
    return 1 if m.group(0)[0].isupper() else -1


def capitalized(path):
    """Whether the subjects the prefix comes from begin their words
    with a capital ("ASoC: Intel: Skylake: Fix ..."): clearly more
    often than not, newer ones weighing more (most subsystems write
    lower case, and a mixed history is no reason to differ); False
    without history."""
    repo = Repo.of(path)
    if repo.top is None:
        return False
    subjects = _file_subjects(repo, path)
    if len([s for s in subjects if parse(s)]) < 2:
        subjects = [s for s, _ in _dir_commits(
            repo, os.path.dirname(os.path.realpath(path)))] or subjects
    votes = [_first_word_case(rest) for parts, rest in map(_split, subjects)
             if parts]
    n = len(votes)
    weight = [(2.0 - i / n, v) for i, v in enumerate(votes)]
    upper = sum(w for w, v in weight if v > 0)
    lower = sum(w for w, v in weight if v < 0)
    return upper > 1.5 * lower


# --- Fixes: and Cc: stable -----------------------------------------------

def introduced(path, name):
    """(12-digit id, subject) of the oldest commit that added the word
    name to path (following renames), or None."""
    repo = Repo.of(path)
    if repo.top is None or not re.fullmatch(r"\w+", name or ""):
        return None
    out = repo.git(_LOG + ["--follow", "--format=%H %s", "--reverse",
                           "-S", name, "--", repo.rel(path)])
    if not out:
        return None
    first = out.splitlines()[0]
    commit, _, subject = first.partition(" ")
    if not re.fullmatch(r"[0-9a-f]{40,64}", commit):
        return None
    return commit[:12], subject


def released(path, commit):
    """Whether a release tag (vX.Y, vX.Y.Z; not -rc) contains commit."""
    repo = Repo.of(path)
    if repo.top is None or not re.fullmatch(r"[0-9a-f]{7,64}", commit):
        return False
    out = repo.git(["tag", "--list", "--contains", commit, "v*"])
    return any(re.fullmatch(r"v\d+\.\d+(\.\d+)?", t.strip())
               for t in (out or "").splitlines())
