#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The semantic patches' copies of kb/, generated (make cocci-gen).

cocci/*.cocci cannot read kb/ when the kernel's make coccicheck runs
them, so what they need of it is written into them, between marker
comments that keep each file valid SmPL as committed:

    // modlife-gen begin NAME: generated from kb/... (make cocci-gen)
    ...generated lines...
    // modlife-gen end NAME

("#" instead of "//" inside a Python script block; the leader and the
indentation are the begin line's). Everything between the markers is
this script's output: the "// kb: CLASS" lists of kernel functions
(kb/api.tsv), the "# kb-table: NAME" rows (kb/constructors.tsv,
kb/owner-paths.tsv), the names in "// Prefilter" lines, the test of a
release that does nothing (kb/api.tsv's "log" rows) and the RCU barrier
helpers (kb/api.tsv's "rcu-barrier" rows and kb/owner-reads.tsv's
"barrier:" rows). To change what a block says, change kb/ or this
script, then run make cocci-gen; text outside the markers is kept.

    scripts/gen_cocci.py            rewrite the files that differ
    scripts/gen_cocci.py --check    change nothing; print a diff and exit 1
                                    when a file differs from its output

Python 3 standard library only.
"""
import argparse
import difflib
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BEGIN = re.compile(r"^(?P<indent>[ \t]*)(?P<lead>//|#) modlife-gen begin "
                   r"(?P<name>[\w-]+)(?::.*)?$")
END = re.compile(r"^[ \t]*(//|#) modlife-gen end (?P<name>[\w-]+)$")


class GenError(Exception):
    pass


# ----------------------------------------------------------------------------
# kb/ as data


class Kb:
    def __init__(self, root):
        self.root = root
        self.api = self._rows("api.tsv")

    def _rows(self, name):
        path = os.path.join(self.root, "kb", name)
        with open(path, encoding="utf-8") as f:
            return [line.rstrip("\n").split("\t") for line in f
                    if "\t" in line and not line.startswith("#")]

    def words(self, name):
        """The words of kb/NAME.txt, one a line ("#" comments)."""
        path = os.path.join(self.root, "kb", name + ".txt")
        with open(path, encoding="utf-8") as f:
            return [w.strip() for w in f
                    if w.strip() and not w.startswith("#")]

    def names(self, cls):
        """kb/api.tsv's name patterns of class cls, in file order."""
        out = [r[1] for r in self.api if r[0] == cls]
        if not out:
            raise GenError("kb/api.tsv has no %r rows" % cls)
        return out

    def rows(self, cls):
        """(name, first argument, last argument) of class cls."""
        out = []
        for r in self.api:
            if r[0] == cls:
                out.append((r[1], int(r[2]) if len(r) > 2 else 0,
                            int(r[3]) if len(r) > 3 else 0))
        if not out:
            raise GenError("kb/api.tsv has no %r rows" % cls)
        return out

    def table(self, name):
        return self._rows(name)

    def owner_reads(self):
        """kb/owner-reads.tsv: (key, where, how) rows."""
        return self._rows("owner-reads.tsv")


def literal(names, what):
    for n in names:
        if not re.match(r"^\w+$", n):
            raise GenError("%s: %r is a glob; this list needs names" %
                           (what, n))
    return names


def _glob(g, wild, last):
    """A kb glob as a regex of one identifier: each wildcard ("?*", "*",
    "?") becomes wild[w], or last[w] when it ends the glob."""
    out, i = [], 0
    while i < len(g):
        w = next((w for w in ("?*", "*", "?") if g.startswith(w, i)), None)
        if w:
            i += len(w)
            out.append((last if i == len(g) else wild).get(w, wild[w]))
        else:
            out.append(re.escape(g[i]))
            i += 1
    return "".join(out)


def glob_smpl(g):
    """A kb glob as a SmPL identifier regex: ?* is [A-Za-z0-9_]+ (the form
    tests/test_kb_api.py reads back)."""
    return _glob(g, {"?*": "[A-Za-z0-9_]+", "*": "[A-Za-z0-9_]*",
                     "?": "[A-Za-z0-9_]"}, {})


def glob_py(g):
    """A kb glob as a Python regex of one identifier. A trailing * is
    possessive: the prefilters must take time linear in the text."""
    return _glob(g, {"?*": r"\w+", "*": r"\w*", "?": r"\w"},
                 {"?*": r"\w++", "*": r"\w*+"})


def token(g):
    """The literal part of a glob before its first wildcard: a
    "// Prefilter:" token (a substring every name of the glob contains)."""
    t = re.split(r"[*?]", g)[0]
    if not t:
        raise GenError("%r has no literal prefix for a prefilter" % g)
    return t


def alt_py(globs):
    return "(?:%s)" % "|".join(glob_py(g) for g in globs)


def smpl_regex(globs):
    return '"^(%s)$"' % "|".join(glob_smpl(g) for g in globs)


def smpl_set(names, lead, indent="\t\t"):
    """identifier X = {a, b, ...}; wrapped at 76 columns."""
    lines, cur = [], lead + "{"
    for i, n in enumerate(names):
        piece = n + (", " if i + 1 < len(names) else "};")
        if len((cur + piece).expandtabs(8).rstrip()) > 76 and \
                cur.strip() not in ("", lead.strip() + "{"):
            lines.append(cur.rstrip())
            cur = indent
        cur += piece
    lines.append(cur)
    return lines


def smpl_calls(names, args, suffix="", lead=" "):
    """\\(a\\|b\\)(ARGS) -- one name needs no disjunction."""
    if len(names) == 1:
        return "%s%s(%s)%s" % (lead, names[0], args, suffix)
    return "%s\\(%s\\)(%s)%s" % (lead, "\\|".join(names), args, suffix)


def disjunction(alternatives):
    """SmPL ( a | b ) with one alternative a line."""
    if len(alternatives) == 1:
        return alternatives
    out = ["("]
    for i, a in enumerate(alternatives):
        if i:
            out.append("|")
        out.append(a)
    out.append(")")
    return out


def pystr(s):
    return json.dumps(s)


# ----------------------------------------------------------------------------
# what the blocks say


def log_globs(kb):
    return kb.names("log")


DOES_NOTHING = r'''# calls that only log: kb/api.tsv's "log" rows (the checker's does_nothing()
# in sparse-plugin/check_release.c takes the same)
ML_LOG = re.compile(r"^@LOG@$")
ML_TOK = re.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|[A-Za-z_]\\w*|"
                    "\\d[\\w.]*|->|<<|>>|<=|>=|==|!=|&&|\\|\\||\\S")

def ml_does_nothing(text):
	"""A release body that does nothing: empty, or only logging calls,
	struct pointer declarations set from container_of()/to_*() or a member
	chain, empty statements and return;."""
	toks = ML_TOK.findall(text)
	if toks and toks[-1] != ";":
		return False
	stmts, cur, depth = [], [], 0
	for t in toks:
		if t in "([{":
			depth += 1
		elif t in ")]}":
			depth -= 1
		if t == ";" and depth == 0:
			stmts.append(cur)
			cur = []
		else:
			cur.append(t)
	if cur:
		return False
	for st in stmts:
		if not st or st == ["return"]:
			continue
		if ML_LOG.match(st[0]) and len(st) >= 3 and st[1] == "(" and st[-1] == ")":
			continue
		s = " ".join(st)
		if re.match(r"^(const )?struct \w+ \* \w+( = ((container_of|to_\w+) \( .* \)|\w+( (->|\.) \w+)*))?$", s):
			continue
		return False
	return True'''


def does_nothing(kb):
    """The test of a release that does nothing (the checker's
    does_nothing() in sparse-plugin/check_release.c, on the text
    coccinelle gives), with kb/api.tsv's log calls."""
    return DOES_NOTHING.replace("@LOG@", alt_py(log_globs(kb))).split("\n")


def constructors(var):
    def gen(kb):
        rows = kb.table("constructors.tsv")
        out = ["# kb-table: constructors", "%s = [" % var]
        for r in rows:
            if len(r) != 2:
                raise GenError("kb/constructors.tsv: not 2 columns: %r" % r)
            out.append("\t(%s, %s)," % (pystr(r[0]), pystr(r[1])))
        return out + ["]"]
    return gen


# the table types missing_owner.cocci looks at
MO_TYPES = ("struct file_operations", "struct block_device_operations")


def owner_paths(kb):
    out = ["# kb-table: owner-paths", "MO_PATHS = ["]
    for r in kb.table("owner-paths.tsv"):
        if len(r) != 4:
            raise GenError("kb/owner-paths.tsv: not 4 columns: %r" % r)
        if r[1] in MO_TYPES:
            out.append("\t(%s)," % ", ".join(pystr(c) for c in r))
    return out + ["]"]


def owner_defaults(kb):
    """The reader named when no way is known: the knowledge file's row
    for the type, in the checker's words (report_pending() in
    sparse-plugin/check_owner.c)."""
    rows = {r[0]: r[1] for r in kb.owner_reads() if len(r) >= 2}
    out = ["# The reader named when no way is known (kb/owner-reads.tsv's "
           "row).", "MO_DEFAULT = {"]
    for t in MO_TYPES:
        where = rows.get(t)
        if where is None:
            raise GenError("kb/owner-reads.tsv has no row for %s" % t)
        sp = where.find(" ")
        if sp < 0:
            reader = where
        else:
            fn = where[sp:]
            more = "(and " in fn
            reader = "%s%s in %s%s" % (
                "core code (such as " if more else "",
                re.split(r" ", fn[1:])[0], re.split(r"[: ]", where)[0],
                ")" if more else "")
        out.append("\t%s: %s," % (pystr(t), pystr(reader)))
    return out + ["}"]


def barriers(kb):
    """rcu_barrier() and the exported helpers that always reach it: the
    checker's "barrier:" rows of the knowledge file."""
    names = literal(kb.names("rcu-barrier"), "rcu-barrier")
    for r in kb.owner_reads():
        if r[0].startswith("barrier:") and r[0][8:] not in names:
            names.append(r[0][8:])
    return smpl_set(literal(names, "barrier:"), "identifier B = ")


# ---- register: what the driver core registers

def registered(kb):
    """kb/api.tsv's register rows of kobject-bearing objects: those a
    static object may not be handed to (not register-no-kobject)."""
    skip = set(kb.names("register-no-kobject"))
    rows = [r for r in kb.rows("register") if r[0] not in skip]
    literal([r[0] for r in rows], "register")
    return rows


def register_members(kb):
    """memreg: a member (or a member's member) of a static object handed
    as a registered argument."""
    rows = registered(kb)
    by_pos = {}
    for name, a, b in rows:
        for pos in range(a, b + 1):
            by_pos.setdefault(pos, []).append(name)
    alts = []
    for pos in sorted(by_pos):
        if pos > 1:
            raise GenError("register: argument %d: add metavariables to "
                           "the register-members block" % pos)
        lead = "E, " if pos == 1 else ""
        for m in ("F", "F.G"):
            alts.append(smpl_calls(by_pos[pos], "%s&NAME@q.%s, ..." %
                                   (lead, m)))
    out = disjunction(alts)
    # tests/test_kb_api.py reads the first list after the comment
    return out[:1] + ["// kb: register"] + out[1:]


def static_user_calls(kb):
    """The calls that set a static object up with a table (the checker's
    static_users(): the ktype-init and register rows)."""
    names = literal(kb.names("ktype-init"), "ktype-init") + \
        literal(kb.names("register"), "register")
    return smpl_set(names, "identifier fn = ")


def so_prefilter_tokens(kb):
    names = [token(r[0]) for r in registered(kb)] + ["platform_add_devices"]
    return ["// Prefilter: module_exit; " + " | ".join(names)]


def so_prefilter_first(kb):
    names = [r[0] for r in registered(kb) if r[1] == 0]
    return [r"// Prefilter-re: \b%s\s*\(\s*&\s*(?P<n>\w+)\s*[.,)]" %
            alt_py(names)]


def so_prefilter_later(kb):
    names = [r[0] for r in registered(kb) if r[2] > 0]
    a = alt_py(names)
    return [r"// Prefilter-re: \b%s\s*\((?:[^;,\w]++|,|(?!%s\s*\()\w++)*?,"
            r"\s*&\s*(?P<n>\w+)\s*\." % (a, a)]


# ---- put

def put_regex(kb):
    return ["// kb: put",
            "identifier PUT =~ %s;" % smpl_regex(kb.names("put"))]


def unregister_regex(kb):
    """The checker's unregistrations (check_release.c): kb/api.tsv's
    unregister rows, and a name with a teardown word between '_'s."""
    words = "|".join(re.escape(w) for w in kb.words("teardown-words"))
    return ["identifier UNREG =~ \"^(%s)$|(^|_)(%s)(_|$)\";" % (
        "|".join(glob_smpl(g) for g in kb.names("unregister")), words)]


def wait_regex(kb):
    return ["identifier WAIT =~ %s;" % smpl_regex(kb.names("wait-completion"))]


UW_PUT_WAIT = (
    r"// Prefilter-re: (?:\A|^(?=\}))(?:(?>(?:[^\w\n]++|\w++|\n(?!\}))*?"
    r"\b@PUT@\s*\()(?:[^\w\n]++|\w++|\n(?!\}))*?\b@WAIT@|(?>(?:[^\w\n]++|"
    r"\w++|\n(?!\}))*?\b@WAIT@)(?:[^\w\n]++|\w++|\n(?!\}))*?\b@PUT@\s*\()")


def uw_prefilter_tokens(kb):
    return ["// Prefilter: module_exit; _unregister_wait | " +
            " | ".join(token(g) for g in kb.names("wait-completion"))]


def uw_prefilter_put_wait(kb):
    return [UW_PUT_WAIT.replace("@PUT@", alt_py(kb.names("put")))
            .replace("@WAIT@", alt_py(kb.names("wait-completion")))]


# ---- empty release

ER_PREFILTER = (
    r'''// Prefilter-re: \bvoid\b(?:\s++|(?!void\b)\w++)*?\b(?P<r>\w+)\s*\('''
    r'''\s*(?:const\s+)?struct\s+(?:device|kobject)\s*\*\s*\w+\s*\)\s*\{(?'''
    r''':\s++|/\*(?:[^*v]++|\Bv|v(?!oid\b)|\*(?!/))*+(?:\*/|(?=void\b))|//'''
    r'''(?:[^\nv]++|\Bv|v(?!oid\b))*+|"(?:[^"\\\nv]++|\Bv|v(?!oid\b)|\\.)*'''
    r'''+(?:"|(?=void\b))|'(?:[^'\\\nv]++|\Bv|v(?!oid\b)|\\.)*+(?:'|(?=voi'''
    r'''d\b))|^[ \t]*#(?:[^\nv]++|\Bv|v(?!oid\b))*+|;|return\s*;|\b@LOG@\s'''
    r'''*\((?:/\*(?:[^*v]++|\Bv|v(?!oid\b)|\*(?!/))*+(?:\*/|(?=void\b))|//'''
    r'''(?:[^\nv]++|\Bv|v(?!oid\b))*+|"(?:[^"\\\nv]++|\Bv|v(?!oid\b)|\\.)*'''
    r'''+(?:"|(?=void\b))|'(?:[^'\\\nv]++|\Bv|v(?!oid\b)|\\.)*+(?:'|(?=voi'''
    r'''d\b))|[^;"'/v)]++|\Bv|v(?!oid\b)|\)(?!\s*;)|/(?![*/]))*+(?:\)\s*;|'''
    r'''(?=void\b))|(?:const\s+)?struct\s+\w+\s*\*\s*\w+\s*(?:=(?:/\*(?:[^'''
    r'''*v]++|\Bv|v(?!oid\b)|\*(?!/))*+(?:\*/|(?=void\b))|//(?:[^\nv]++|\B'''
    r'''v|v(?!oid\b))*+|"(?:[^"\\\nv]++|\Bv|v(?!oid\b)|\\.)*+(?:"|(?=void\b'''
    r'''))|'(?:[^'\\\nv]++|\Bv|v(?!oid\b)|\\.)*+(?:'|(?=void\b))|[^;"'/v]+'''
    r'''+|\Bv|v(?!oid\b)|/(?![*/]))*+)?(?:;|(?=void\b)))*+(?:\}|(?=void\b)'''
    r''')''')


def er_prefilter(kb):
    """A release function made only of what ml_does_nothing() accepts."""
    return [ER_PREFILTER.replace("@LOG@", alt_py(log_globs(kb)))]


# ---- timers

def timer_pairs(kb):
    """(stop, its waiting variant): A_sync, else the timer-stop row of the
    same first word (hrtimer_try_to_cancel(), hrtimer_cancel())."""
    async_ = literal(kb.names("timer-async-stop"), "timer-async-stop")
    sync = literal(kb.names("timer-stop"), "timer-stop")
    pairs = []
    for a in async_:
        if a + "_sync" in sync:
            pairs.append((a, a + "_sync"))
            continue
        word = a.split("_")[0]
        same = [s for s in sync if s.split("_")[0] == word and
                not s.endswith("_sync")]
        if len(same) != 1:
            raise GenError("timer-async-stop %s: no one waiting variant in "
                           "timer-stop (%s)" % (a, same))
        pairs.append((a, same[0]))
    return pairs


def timer_any(kb):
    return ["// kb: timer-async-stop"] + disjunction(
        [" %s(...)" % a for a, _ in timer_pairs(kb)])


def timer_sync(kb):
    out = ["# kb: timer-async-stop timer-stop", "_SYNC = {"]
    for a, s in timer_pairs(kb):
        out.append('\t"%s": "%s",' % (a, s))
    return out + ["}"]


def timer_calls(kb):
    """Stops whose waiting variant returns the same (X and X_sync()): any
    call."""
    names = [a for a, s in timer_pairs(kb) if s == a + "_sync"]
    if not names:
        raise GenError("timer-async-stop: no X with an X_sync")
    return disjunction([" %s@p(...)" % a for a in names])


def timer_statements(kb):
    """Other stops (hrtimer_try_to_cancel() gives -1 for a running
    callback, hrtimer_cancel() does not): only when the result is
    ignored."""
    names = [a for a, s in timer_pairs(kb) if s != a + "_sync"]
    if not names:
        raise GenError("timer-async-stop: every stop has an X_sync: "
                       "drop the ht rule")
    return disjunction([" %s@p(...);" % a for a in names])


def timer_fix(kb):
    return disjunction(["- %s@p1(T)\n+ %s(T)" % (a, s)
                        for a, s in timer_pairs(kb)])


TIMER_PREFILTER = [
    r"// Prefilter: module_exit | module_platform_driver; @TOKENS@",
    r"// Prefilter-re: @FN@",
    r"// Prefilter-and: \bmodule_exit\s*\(\s*@f@\s*\)",
    r"// Prefilter-re: @FN@",
    r"// Prefilter-and: \.remove\w*\s*=\s*&?\s*@f@\b",
    r"// Prefilter-re: @FN@",
    r"// Prefilter-and: ^(?>(?:\w[^\n;]*?\b)?(?P<e>\w+)\s*\()(?=(?:[^;{\n)]++"
    r"|\n(?!(?:\w[^\n;]*?\b)?\w+\s*\()|\)(?!\s*\{))*+(?:\n|\)\s*\{(?:[^\w\n]++"
    r"|\w++|\n(?!\}|(?:\w[^\n;]*?\b)?\w+\s*\())*?(?:\n(?=(?:\w[^\n;]*?\b)?\w+"
    r"\s*\()|\b@f@\s*\()))",
    r"// Prefilter-and: \bmodule_exit\s*\(\s*@e@\s*\)",
]
# a function (named f) whose body calls one of @STOPS@
TIMER_FN = (
    r"^(?>(?:\w[^\n;]*?\b)?(?P<f>\w+)\s*\()(?=(?:[^;{\n)]++|\n(?!(?:\w[^\n;]*?"
    r"\b)?\w+\s*\()|\)(?!\s*\{))*+(?:\n|\)\s*\{(?:[^\w\n]++|\w++|\n(?!\}|"
    r"(?:\w[^\n;]*?\b)?\w+\s*\())*?(?:\n(?=(?:\w[^\n;]*?\b)?\w+\s*\()|\b"
    r"@STOPS@\s*\()))")


def timer_prefilter(kb):
    stops = [a for a, _ in timer_pairs(kb)]
    fn = TIMER_FN.replace("@STOPS@", alt_py(stops))
    return [ln.replace("@TOKENS@", " | ".join(token(s) for s in stops))
            .replace("@FN@", fn) for ln in TIMER_PREFILTER]


# ----------------------------------------------------------------------------
# the blocks of each file: name -> (what it is made from, lines)

BLOCKS = {
    "empty_release.cocci": {
        "prefilter": ("kb/api.tsv log", er_prefilter),
        "does-nothing": ("kb/api.tsv log", does_nothing),
        "constructors": ("kb/constructors.tsv", constructors("ER_ADVICE")),
        "static-user-calls": ("kb/api.tsv register", static_user_calls),
        "put": ("kb/api.tsv put", put_regex),
    },
    "static_object.cocci": {
        "prefilter-tokens": ("kb/api.tsv register", so_prefilter_tokens),
        "prefilter-first": ("kb/api.tsv register", so_prefilter_first),
        "prefilter-later": ("kb/api.tsv register", so_prefilter_later),
        "does-nothing": ("kb/api.tsv log", does_nothing),
        "constructors": ("kb/constructors.tsv", constructors("SO_ADVICE")),
        "register-members": ("kb/api.tsv register", register_members),
        "unregister": ("kb/api.tsv unregister, kb/teardown-words.txt",
                       unregister_regex),
    },
    "exit_no_rcu_barrier.cocci": {
        "barriers": ("kb/api.tsv rcu-barrier, kb/owner-reads.tsv barrier:",
                     barriers),
    },
    "exit_pending_timer.cocci": {
        "prefilter": ("kb/api.tsv timer-async-stop", timer_prefilter),
        "async-stops": ("kb/api.tsv timer-async-stop", timer_any),
        "sync-names": ("kb/api.tsv timer-async-stop timer-stop", timer_sync),
        "async-stop-calls": ("kb/api.tsv timer-async-stop timer-stop",
                             timer_calls),
        "async-stop-statements": ("kb/api.tsv timer-async-stop timer-stop",
                                  timer_statements),
        "sync-fix": ("kb/api.tsv timer-async-stop timer-stop", timer_fix),
    },
    "unregister_wait_in_exit.cocci": {
        "prefilter-tokens": ("kb/api.tsv wait-completion",
                             uw_prefilter_tokens),
        "prefilter-put-wait": ("kb/api.tsv put wait-completion",
                               uw_prefilter_put_wait),
        "wait": ("kb/api.tsv wait-completion", wait_regex),
        "put": ("kb/api.tsv put", put_regex),
    },
    "missing_owner.cocci": {
        "owner-paths": ("kb/owner-paths.tsv", owner_paths),
        "owner-defaults": ("kb/owner-reads.tsv", owner_defaults),
    },
}


def begin_line(indent, lead, name, source):
    return "%s%s modlife-gen begin %s: generated from %s (make cocci-gen)" % (
        indent, lead, name, source)


def generate(path, text, blocks, kb):
    """The file's text with every block regenerated."""
    lines = text.split("\n")
    out, seen, i = [], set(), 0
    base = os.path.basename(path)
    while i < len(lines):
        m = BEGIN.match(lines[i])
        if not m:
            if END.match(lines[i]):
                raise GenError("%s:%d: end marker without a begin" %
                               (base, i + 1))
            out.append(lines[i])
            i += 1
            continue
        name = m.group("name")
        if name not in blocks:
            raise GenError("%s:%d: no block %r in scripts/gen_cocci.py" %
                           (base, i + 1, name))
        j = i + 1
        while j < len(lines):
            e = END.match(lines[j])
            if e:
                if e.group("name") != name:
                    raise GenError("%s:%d: end of %r inside %r" %
                                   (base, j + 1, e.group("name"), name))
                break
            if BEGIN.match(lines[j]):
                raise GenError("%s:%d: begin inside %r" % (base, j + 1,
                                                          name))
            j += 1
        else:
            raise GenError("%s:%d: block %r has no end marker" %
                           (base, i + 1, name))
        source, fn = blocks[name]
        indent, lead = m.group("indent"), m.group("lead")
        out.append(begin_line(indent, lead, name, source))
        for ln in fn(kb):
            for piece in ln.split("\n"):
                out.append(indent + piece if piece else piece)
        out.append("%s%s modlife-gen end %s" % (indent, lead, name))
        seen.add(name)
        i = j + 1
    missing = sorted(set(blocks) - seen)
    if missing:
        raise GenError("%s: no marker for block(s) %s" %
                       (base, ", ".join(missing)))
    return "\n".join(out)


def run(root, check, stream=sys.stdout):
    """Regenerate (or check) every file; the number of files that differ."""
    kb = Kb(root)
    differ = 0
    for name in sorted(BLOCKS):
        path = os.path.join(root, "cocci", name)
        with open(path, encoding="utf-8") as f:
            old = f.read()
        new = generate(path, old, BLOCKS[name], kb)
        if new == old:
            continue
        differ += 1
        if check:
            rel = os.path.join("cocci", name)
            stream.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True),
                "a/" + rel + " (committed)", "b/" + rel + " (generated)"))
        else:
            tmp = path + ".gen-tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(new)
            os.replace(tmp, path)
            stream.write("gen_cocci: wrote %s\n" % os.path.join("cocci",
                                                                name))
    return differ


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; show a diff and exit 1 when a "
                    "file differs from what it would be generated as")
    ap.add_argument("--root", default=ROOT,
                    help="the tree with cocci/ and kb/ (default: this one)")
    args = ap.parse_args(argv)
    try:
        differ = run(args.root, args.check)
    except (GenError, OSError, ValueError) as e:
        sys.stderr.write("gen_cocci: %s\n" % e)
        return 2
    if args.check and differ:
        sys.stderr.write("gen_cocci: %d file(s) differ from kb/: run make "
                         "cocci-gen\n" % differ)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
