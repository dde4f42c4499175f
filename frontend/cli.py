# SPDX-License-Identifier: GPL-2.0-only
"""Command line: modlife scan | kb | rules."""
import argparse
import os
import sys

from . import VERSION, paths
from .ci import outputs, report
from .scanning.staging import say
from .tree import kflags
from .rules import EXPERIMENTAL, RULES, doc_page, select


class Usage(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise Usage(message)


def _jobs(value):
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number: %r" % value)
    if n < 1:
        raise argparse.ArgumentTypeError("--jobs takes a number >= 1")
    return n


def _rule_list(value):
    if value == "all":
        return sorted(RULES)
    names = [v for v in value.split(",") if v]
    bad = [n for n in names if n not in RULES]
    if bad:
        raise argparse.ArgumentTypeError("unknown rule(s): %s"
                                         % ", ".join(bad))
    return names


def build_parser():
    p = Parser(prog="modlife", description="Find module-unload lifetime "
               "bugs in Linux kernel driver sources.")
    p.add_argument("--version", action="version", version=VERSION)
    sub = p.add_subparsers(dest="cmd")

    s = sub.add_parser("scan", help="scan C files or directories")
    s.add_argument("paths", nargs="+", metavar="PATH")
    s.add_argument("--explain", action="store_true",
                   help="say on stderr why the link step dropped each "
                   "candidate finding of the type-aware engine that does "
                   "not stand (as link --explain)")
    s.add_argument("--format", choices=sorted(report.FORMATS),
                   default="text")
    s.add_argument("--kdir", default=None,
                   help="configured kernel tree to parse with, whatever "
                   "its version (default: in a kernel tree, $KDIR or the "
                   "installed linux-headers-*-amd64 of the tree's version, "
                   "else the tree's own headers; outside, $KDIR or the "
                   "newest installed)")
    s.add_argument("--jobs", "-j", type=_jobs, default=os.cpu_count() or 1)
    s.add_argument("--rules", type=_rule_list, default=None,
                   help="comma-separated rules to run, or 'all' (default: "
                   "all but the experimental ones: %s)"
                   % ", ".join(EXPERIMENTAL))
    s.add_argument("--disable", type=_rule_list, default=[],
                   help="comma-separated rules to skip")
    s.add_argument("--config", choices=("any", "kdir"), default="any",
                   help="which files are module code: 'any' (default): "
                   "what kbuild can build as a module in some "
                   "configuration (obj-m, or an option that is tristate in "
                   "any Kconfig file, any architecture), parsed with its "
                   "own options as =m; 'kdir': only what KDIR's .config "
                   "builds as =m")
    s.add_argument("--assume-module", action="store_true",
                   help="treat files that no Makefile names as module code")
    s.add_argument("--cocci", choices=("fallback", "all", "off"),
                   default="fallback",
                   help="where the semantic patches run: on files sparse "
                   "cannot parse (default), on every file, or nowhere")
    s.add_argument("--no-cocci", dest="cocci", action="store_const",
                   const="off", help="same as --cocci off")
    s.add_argument("--cache-dir", default=None,
                   help="fact cache (default: $XDG_CACHE_HOME/modlife/facts)")
    s.add_argument("--no-cache", action="store_true")
    s.add_argument("--quiet", "-q", action="store_true",
                   help="no progress line")
    s.add_argument("--stats", action="store_true",
                   help="print what was checked, skipped and cached")
    s.add_argument("--baseline", default=None, metavar="FILE",
                   help="report only findings not in this baseline")
    s.add_argument("--write-baseline", default=None, metavar="FILE",
                   help="write every finding to a baseline file")
    s.add_argument("--diff-base", default=None, metavar="REV",
                   help="check only the modules with a file changed since "
                   "the git revision REV (or including a changed local "
                   "header), at REV and now; report the findings that are "
                   "new anywhere in them, list the ones that went away")
    s.add_argument("-o", "--output", default=None,
                   help="write the report to a file")
    s.add_argument("--prove", action="store_true",
                   help="prove the findings at run time (modlife prove) "
                   "for each module directory named")

    k = sub.add_parser("kb", help="build the owner knowledge file from a "
                       "kernel source tree")
    k.add_argument("--tree", required=True)
    k.add_argument("--kdir", default=None)
    k.add_argument("--jobs", "-j", type=_jobs, default=os.cpu_count() or 1)
    k.add_argument("-o", "--output", default=None)
    k.add_argument("--cache-dir", default=None,
                   help="where the flags learned from KDIR are kept, as "
                   "for scan (default: $XDG_CACHE_HOME/modlife/facts)")
    k.add_argument("--no-cache", action="store_true")

    fx = sub.add_parser("fix", help="fix what scan reports, with the fix "
                        "each rule page calls safe (kb/rules.tsv): "
                        "checked, re-scanned, written atomically; the diff "
                        "is printed")
    fx.add_argument("paths", nargs="+", metavar="PATH")
    fx.add_argument("--dry-run", "-n", action="store_true",
                    help="print the diff, change nothing")
    fx.add_argument("--rules", type=_rule_list, default=None,
                    help="as for scan: the default rules unless named")
    fx.add_argument("--disable", type=_rule_list, default=[])
    fx.add_argument("--format-patch", default=None, metavar="DIR",
                    help="write one patch per module into DIR (git "
                    "format-patch layout, for git am or patch -p1) "
                    "instead of changing files")
    fx.add_argument("--from", dest="author", default=None,
                    metavar="'NAME <MAIL>'",
                    help="with --format-patch: the patches' author "
                    "(default: GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL, else "
                    "user.name/user.email of your global git "
                    "configuration; never the scanned tree's)")
    fx.add_argument("--signoff", "-s", action="store_true",
                    help="with --format-patch: end each message with the "
                    "author's Signed-off-by")
    fx.add_argument("--kdir", default=None)
    fx.add_argument("--jobs", "-j", type=_jobs, default=os.cpu_count() or 1)
    fx.add_argument("--assume-module", action="store_true",
                    help="as for scan")
    fx.add_argument("--cache-dir", default=None)
    fx.add_argument("--no-cache", action="store_true")

    ln = sub.add_parser("link", help="link the facts that a kbuild run with "
                        "CHECK='modlife-sparse --modlife-facts=auto' left")
    ln.add_argument("paths", nargs="+", metavar="DIR")
    ln.add_argument("--format", choices=sorted(report.FORMATS),
                    default="text")
    ln.add_argument("--rules", type=_rule_list, default=None,
                    help="as for scan: the default rules unless named "
                    "(all: every rule, the experimental ones too)")
    ln.add_argument("--disable", type=_rule_list, default=[])
    ln.add_argument("--explain", action="store_true",
                    help="say on stderr why each candidate finding the "
                    "link step dropped was dropped (the unless key that "
                    "was provided, the required key that was not, the "
                    "exit path or the unload it needs)")

    c = sub.add_parser("cocci", help="run the semantic patches over files "
                       "or directories, prefiltered, and print spatch's "
                       "output as coccicheck does")
    c.add_argument("paths", nargs="+", metavar="PATH")
    c.add_argument("--mode", "-m", default="report",
                   choices=("report", "org", "context", "patch"))
    c.add_argument("--jobs", "-j", type=_jobs, default=os.cpu_count() or 1)
    c.add_argument("--rules", type=_rule_list, default=None)
    c.add_argument("--disable", type=_rule_list, default=[])
    c.add_argument("--stats", action="store_true",
                   help="print how many files each script ran on")

    sub.add_parser("rules", help="list the rules and their docs pages")
    _prove_parser(sub)
    return p


def _prove_parser(sub):
    pr = sub.add_parser("prove", help="prove findings at run time: boot "
                        "the distribution kernel under qemu, load the "
                        "module, hold what a finding says is unsafe, "
                        "rmmod, and read the console")
    pr.add_argument("targets", nargs="+", metavar="TARGET",
                    help="a module directory (scanned, then built against "
                    "KDIR in a private copy) or a .ko file (a name the "
                    "kernel image has, e.g. foo.ko, works too)")
    pr.add_argument("--kernel", default=None, metavar="VMLINUZ",
                    help="kernel image (default: Debian's linux-image "
                    "of KDIR's release, fetched into the cache)")
    pr.add_argument("--kdir", default=None)
    pr.add_argument("--timeout", type=_seconds, default=240,
                    help="hard limit of one boot, in seconds (default 240)")
    pr.add_argument("--wait", type=_seconds, default=6,
                    help="seconds the pending scenario waits after rmmod")
    pr.add_argument("--scenario", type=_scenario_list, default=None,
                    help="comma-separated scenarios to run (owner, hold, "
                    "pending) whatever the findings are")
    pr.add_argument("--source", default=None, metavar="DIR",
                    help="for a .ko target: the sources whose findings "
                    "it proves")
    pr.add_argument("--param", action="append", default=[],
                    metavar="NAME=VALUE", help="module parameter for insmod")
    pr.add_argument("--trigger", action="append", default=[],
                    metavar="COMMAND", help="shell command run in the guest "
                    "after the module loaded, e.g. 'echo +a > /dev/tagdir': "
                    "what arms the module's timers, work or callbacks")
    pr.add_argument("--rules", type=_rule_list, default=None)
    pr.add_argument("--disable", type=_rule_list, default=[])
    pr.add_argument("--format", choices=("text", "json"), default="text")
    pr.add_argument("--console-log", default=None, metavar="FILE",
                    help="append every boot's console to FILE")
    pr.add_argument("--cache-dir", default=None,
                    help="where the kernel image, busybox and the holding "
                    "module are kept (default: $XDG_CACHE_HOME/modlife)")
    pr.add_argument("--no-cache", action="store_true",
                    help="do not cache the scan's facts")
    pr.add_argument("--quiet", "-q", action="store_true")


def _seconds(text):
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v <= 0:
        raise argparse.ArgumentTypeError("%r: a positive whole number of "
                                         "seconds" % text)
    return v


def _scenario_list(text):
    from .proving.scenarios import SCENARIOS
    items = [s for s in text.split(",") if s]
    bad = [s for s in items if s not in SCENARIOS]
    if bad or not items:
        raise argparse.ArgumentTypeError("unknown scenario %s (known: %s)" % (
            ",".join(bad) or "''", ", ".join(SCENARIOS)))
    return ",".join(items)


def cmd_scan(a):
    from .ci import baseline
    kdir = a.kdir or paths.default_kdir()
    rules = select(a.rules, a.disable)
    cache_dir = fact_cache_dir(a)
    try:
        known = baseline.load(a.baseline) if a.baseline else None
    except (OSError, ValueError, KeyError, TypeError) as e:
        say("cannot read baseline %s: %s" % (a.baseline, e))
        return 2
    outs = []
    try:
        for target in (a.output, a.write_baseline):
            outs.append(outputs.Output(target, a.paths) if target else None)
        return _scan_into(a, kdir, rules, cache_dir, known, *outs)
    except outputs.OutputError as e:
        say(e)
        return 2
    finally:
        for o in outs:
            if o:
                o.discard()


def _scan_into(a, kdir, rules, cache_dir, known, out_file, base_file):
    from .ci import baseline, changescan, diffbase
    from .scanning.link import LinkError
    from .scanning.scan import ScanError, Scanner

    def make_scanner():
        # only a KDIR named here is used whatever the tree's version
        return Scanner(a.kdir, a.jobs, rules, a.assume_module, cocci=a.cocci,
                       cache_dir=cache_dir,
                       progress=False if a.quiet else None, config=a.config,
                       explain=a.explain)
    try:
        if a.diff_base is not None:
            # raises DiffError first for a revision or path git refuses
            scanner, result = changescan.run(make_scanner, a.diff_base,
                                             a.paths)
        else:
            scanner = make_scanner()
            result = scanner.scan(a.paths)
    except (ScanError, LinkError, kflags.KbuildError,
            diffbase.DiffError) as e:
        say(e)
        return 2
    if a.stats:
        st = scanner.stats
        why = ", ".join("%s %d" % kv for kv in sorted(st["reasons"].items()))
        sys.stderr.write("modlife: %d files, %d checked, %d skipped (not "
                         "module code%s), %d not parsed%s, %d from cache%s; "
                         "%.2f s, link %.3f s; knowledge: %s\n"
                         % (st["files"], st["checked"], st["skipped"],
                            ": " + why if why else "",
                            st["failed"], ", %d with a stand-in" %
                            st["stand_ins"] if st.get("stand_ins") else "",
                            st["cache_hits"],
                            " (semantic patches: %d)" % st["cocci_cache_hits"]
                            if st.get("cocci_cache_hits") else "",
                            st["seconds"], st["link_seconds"],
                            scanner.knowledge))
    if base_file:
        baseline.write(base_file.tmp, result["findings"])
        base_file.commit()
    if known is not None:
        result["findings"] = baseline.subtract(result["findings"], known)
    if a.prove and result["findings"]:
        from .proving.prove import ProveError
        try:
            _scan_prove(a, kdir, result)
        except ProveError as e:
            say(e)
            return 2
    if out_file:
        with out_file.open() as out:
            report.FORMATS[a.format](result, out, sys.stderr)
        out_file.commit()
    else:
        report.FORMATS[a.format](result, sys.stdout, sys.stderr)
    st = scanner.stats
    if scanner.input_errors or (st["checked"] and
                                st["unchecked"] == st["checked"]):
        return 2    # an input was not checked at all
    return 1 if result["findings"] else 0


def cmd_fix(a):
    """Fixes what scan reports (same rules, defaults and linking), with
    the fix each rule page calls safe; lists the findings left to a
    person."""
    from .fixing import fix, fixscan
    from .scanning.link import LinkError
    from .scanning.scan import ScanError, Scanner
    kdir = a.kdir      # named: used whatever the tree's version
    rules = select(a.rules, a.disable)
    cache_dir = fact_cache_dir(a)

    def scanner():
        return Scanner(kdir, a.jobs, rules, a.assume_module,
                       cache_dir=cache_dir, progress=False)
    from .fixing import patchmail
    author = None
    try:
        if a.format_patch:
            author = patchmail.identity(a.author)
            outputs.patch_dir(a.format_patch)
    except (outputs.OutputError, patchmail.IdentityError) as e:
        say(e)
        return 2
    try:
        s = scanner()
        result = s.scan(a.paths)
    except (ScanError, LinkError, kflags.KbuildError) as e:
        say(e)
        return 2
    report.FORMATS["text"]({"findings": [], "errors": result["errors"]},
                           sys.stdout, sys.stderr)
    todo, manual = fixscan.plan(result["findings"])
    for f, why in manual:
        sys.stderr.write("%s:%d:%d: note: no automatic fix: %s [modlife-%s]"
                         "\n" % (report.lead(f["file"]), f["line"],
                                 f["column"],
                                 why, f["rule"]))
    verifier = fixscan.Verifier(
        lambda: Scanner(kdir, 1, rules, a.assume_module, cocci="off",
                        cache_dir=cache_dir, progress=False,
                        warn=lambda m: None),
        result["findings"])
    collect = [] if a.format_patch else None
    changed, failed = fix.run(todo, a.dry_run, sys.stdout, sys.stderr,
                              verifier, collect)
    if collect:
        try:
            _write_patches(a.format_patch, collect, result["findings"], s,
                           author, a.signoff)
        except outputs.OutputError as e:
            say(e)
            return 2
    sys.stderr.write("modlife fix: %d file(s) %s, %d error(s), %d "
                     "finding(s) without an automatic fix\n"
                     % (changed, "in patches" if a.format_patch else
                        "would change" if a.dry_run else "changed",
                        failed + len(result["errors"]), len(manual)))
    if failed or s.input_errors:
        return 2
    return 0


def _write_patches(outdir, changes, findings, scanner, author,
                   signoff=False):
    """One patch per module (the scan's module of each changed file)."""
    from .fixing import patchmail
    subject_of = {r.name: r.fix_subject for r in RULES.values()
                  if r.safe_fix}
    groups = {}
    for c in changes:
        key = scanner.mmap.resolve(c[2]).key
        groups.setdefault(key, []).append(c)
    module_of = {}
    for f in findings:
        path = os.path.abspath(f["file"])
        if path not in module_of:
            module_of[path] = scanner.mmap.resolve(f["file"]).key
    plans = []
    for key in sorted(groups):
        files = {os.path.abspath(c[2]) for c in groups[key]}
        mine = [f for f in findings if os.path.abspath(f["file"]) in files
                and f["rule"] in subject_of]
        others = [f for f in findings if f not in mine and
                  module_of[os.path.abspath(f["file"])] == key]
        module = os.path.basename(key)
        rules = sorted({f["rule"] for f in mine})
        prefix = patchmail.prefix(groups[key], module)
        capital = patchmail.capitalized(groups[key])
        tags, stable = patchmail.fixes(mine)
        plans.append({
            "author": author, "module": module, "changes": groups[key],
            "findings": mine, "others": others, "rules": rules,
            "prefix": prefix, "subject_of": subject_of,
            "capital": capital,
            "subject": patchmail.subject(prefix, rules, subject_of, capital),
            "tag": patchmail.tree_tag(groups[key]), "fixes": tags,
            "stable": stable, "signoff": signoff})
    patchmail.distinct(plans)
    for n, p in enumerate(plans, 1):
        name = os.path.join(outdir, patchmail.slug(p["subject"], n))
        outputs.write_new(name, patchmail.compose(p))
        sys.stdout.write("%s\n" % name)


def cmd_link(a):
    from .scanning.link import LinkError
    from .scanning.scan import link_built
    try:
        result = link_built(a.paths, select(a.rules, a.disable),
                            explain=a.explain)
    except LinkError as e:
        say(e)
        return 2
    if result is None:
        sys.stderr.write("modlife link: no facts files (.*.o.modlife) under "
                         "%s: build with CHECK=\"modlife-sparse "
                         "--modlife-facts=auto\" and C=1 or C=2 first\n"
                         % " ".join(a.paths))
        return 2
    checked = result.pop("checked")
    report.FORMATS[a.format](result, sys.stdout, sys.stderr)
    if not checked or result["errors"]:
        return 2    # stale or unreadable facts: not all was decided
    return 1 if result["findings"] else 0


def cmd_cocci(a):
    from .scanning import cocci_run
    from .scanning.scan import collect
    errors = []
    files = collect(a.paths, errors)
    for e in errors:
        sys.stderr.write("%s: error: %s\n" % (report.lead(e["file"]),
                                               report.display(e["message"])))
    d = paths.cocci_dir()
    rules = [r for r in (a.rules or sorted(RULES)) if r not in a.disable]
    scripts = sorted({os.path.join(d, RULES[r].cocci) for r in rules
                      if d and RULES[r].cocci})
    bad = []
    try:
        cands = cocci_run.candidates(scripts, files, bad)
    except ValueError as e:
        say("error: %s" % e)
        return 2
    for path, msg in bad:
        sys.stderr.write("%s: error: %s\n" % (report.lead(path),
                                               report.display(msg)))
    rc = 0
    for s in scripts:
        if a.stats:
            sys.stderr.write("modlife: %s: %d of %d files\n" % (
                os.path.basename(s), len(cands[s]), len(files)))
        if cocci_run.run(s, cands[s], a.mode, a.jobs) != 0:
            rc = 2
    return 2 if rc or errors or bad else 0


def _prove_cache(a):
    """Downloads and the holding module: under --cache-dir when given
    (--no-cache only concerns facts)."""
    from .scanning import cache
    return a.cache_dir or os.path.dirname(cache.default_dir())


def _scan_prove(a, kdir, result):
    """scan --prove: each directory scanned is built and proven with the
    findings under it; the proof goes on the finding."""
    from .proving import prove
    dirs = [p for p in a.paths if os.path.isdir(p)]
    if not dirs:
        raise prove.ProveError("--prove needs module directories")
    for d in dirs:
        top = os.path.abspath(d) + os.sep

        def under(_paths, top=top):
            return [f for f in result["findings"]
                    if os.path.abspath(f["file"]).startswith(top)]
        if under(None):
            prove.run([d], kdir, under, cache_dir=_prove_cache(a),
                      quiet=a.quiet)


def cmd_prove(a):
    from .proving import prove
    from .scanning import cache
    from .scanning.scan import ScanError, Scanner
    a.kdir = a.kdir or paths.default_kdir()
    rules = select(a.rules, a.disable)

    def findings(dirs):
        scanner = Scanner(a.kdir, os.cpu_count() or 1, rules, False,
                          cache_dir=None if a.no_cache else
                          (a.cache_dir and os.path.join(a.cache_dir, "facts")
                           or cache.default_dir()), progress=False)
        return scanner.scan(dirs)["findings"]
    try:
        targets, results = prove.run(
            a.targets, a.kdir, findings, a.timeout, a.kernel,
            _prove_cache(a), a.wait, a.console_log, a.quiet, a.source,
            a.param, a.trigger, a.scenario)
    except (prove.ProveError, ScanError, kflags.KbuildError) as e:
        say(e)
        return 2
    if a.format == "json":
        report.dump_json({"targets": [{
            "label": t.label, "module": t.module, "findings": t.findings,
        } for t in targets], "runs": results}, sys.stdout, indent=2,
            sort_keys=True)
    else:
        prove.print_text(results, targets, sys.stdout)
    verdicts = {r["verdict"] for r in results}
    if "error" in verdicts:
        for r in results:
            if r["verdict"] == "error":
                sys.stderr.write("modlife: %s: %s scenario: %s\n" % (
                    report.display(r["label"]), r["scenario"],
                    report.display(r["why"])))
        return 2
    return 1 if "proven" in verdicts else 0


def cmd_rules(a):
    for name in sorted(RULES):
        print("%-28s %-18s %s%s  (%s)" % (
            name, RULES[name].family,
            "[experimental, off by default] " if name in EXPERIMENTAL
            else "", RULES[name].summary, doc_page(name)))
    return 0


def fact_cache_dir(a):
    """The fact cache of a command's --cache-dir/--no-cache: None for
    none, else the directory (the user's by default)."""
    from .scanning import cache
    return None if a.no_cache else (a.cache_dir or cache.default_dir())


def cmd_kb(a):
    from .scanning import kb
    from .tree import kerneltree
    from .tree.overlay import Overlays
    from .tree.ownheaders import OwnHeaders
    # the knowledge of a tree is read with the headers a scan of the
    # tree parses it with: a KDIR of its version, else its own
    tree = os.path.abspath(a.tree)
    own = OwnHeaders(a.kdir, say)
    if a.kdir or kerneltree.has_headers(tree):
        kdir = own.kdir_for(tree)
    else:
        kdir = paths.default_kdir(kerneltree.release(tree))
        if not kdir:
            sys.stderr.write("modlife: no configured headers of Linux %s "
                             "(--kdir)\n" % kerneltree.release(tree))
            return 2
    out = a.output or os.path.join(paths.ROOT, "kb", "owner-reads.tsv")
    mask = os.umask(0)
    os.umask(mask)
    # generated headers in a directory of this run's own
    overlay = Overlays(None)
    try:
        base, trusted, mmap = kb.setup(a.tree, kdir, own, overlay.tree,
                                       cache_dir=fact_cache_dir(a))
        summary, _ = kb.build(a.tree, base, mmap, a.jobs, out,
                              mode=0o666 & ~mask, trusted=trusted)
    except (kb.KbError, kflags.KbuildError) as e:
        say(e)
        return 2
    finally:
        overlay.close()
    print("modlife kb: %s -> %s" % (summary, out))
    return 0


class Terminated(BaseException):
    """SIGTERM, raised where the program is, so that temporary files
    and child processes are cleaned up on the way out."""


def _terminate(signum, frame):
    raise Terminated()


def main(argv):
    import signal
    try:
        signal.signal(signal.SIGTERM, _terminate)
    except ValueError:
        pass                    # not the main thread (tests)
    try:
        return _main(argv)
    except KeyboardInterrupt:
        sys.stderr.write("modlife: interrupted\n")
        return 130
    except Terminated:
        sys.stderr.write("modlife: terminated\n")
        return 143
    except paths.SettingError as e:
        say(e)
        return 2
    except BrokenPipeError:
        # the reader went away (| head): no traceback, and no flush of
        # what is left at exit
        try:
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        sys.stderr.write("modlife: broken pipe\n")
        return 2
    except MemoryError:
        sys.stderr.write("modlife: out of memory\n")
        return 2
    except Exception as e:     # 1 means findings: never say it for a crash
        if os.environ.get("MODLIFE_DEBUG"):
            raise
        say("internal error: %s: %s (MODLIFE_DEBUG=1 shows where)"
            % (type(e).__name__, e))
        return 2


def _main(argv):
    try:
        a = build_parser().parse_args(argv)
    except Usage as e:
        say(e)
        return 2
    if a.cmd == "scan":
        return cmd_scan(a)
    if a.cmd == "rules":
        return cmd_rules(a)
    if a.cmd == "fix":
        return cmd_fix(a)
    if a.cmd == "link":
        return cmd_link(a)
    if a.cmd == "kb":
        return cmd_kb(a)
    if a.cmd == "cocci":
        return cmd_cocci(a)
    if a.cmd == "prove":
        return cmd_prove(a)
    build_parser().print_help(sys.stderr)
    return 2
