# SPDX-License-Identifier: GPL-2.0-only
"""modlife prove: show at run time that a module's findings are real.

A target is a module directory (scanned for its findings, then built
against KDIR in a private copy: the user's tree gets no build products)
or a .ko file (a distribution module by name works too; --source DIR
names the sources whose findings it proves). Each scenario the findings
call for (kb/rules.tsv) is one boot of the distribution kernel whose
release matches KDIR, with the module, its dependencies from the image
and the holding module in an initramfs."""
import os
import shutil
import stat
import tempfile

from . import initramfs, kmod, provenv, qemu, scenarios
from ..ci import outputs
from ..scanning.staging import say
from ..tree import fswalk
from .provenv import ProveError

APPLETS = ("sh", "mount", "insmod", "rmmod", "cat", "echo", "sleep", "find",
           "grep", "sed", "tr", "head", "dd", "timeout", "mkdir", "rm",
           "sync", "poweroff", "ls", "dmesg")


class Target:
    def __init__(self, label, ko, findings=(), params=(), triggers=()):
        self.label, self.ko = label, ko
        self.module = kmod.name_of(ko)
        self.findings = list(findings)
        self.params = list(params)
        self.triggers = list(triggers)


def _kconfig_options(src):
    """A module's own tristate options on as modules, as the corpus and a
    user's Kconfig'd module expect from a build that enables them."""
    from ..tree.kconfig import Kconfig
    kc = Kconfig()
    kc.add_local(src)
    syms = sorted(kc.tristate)
    if not syms:
        return []
    return (["%s=m" % s for s in syms] +
            ["KCFLAGS=" + " ".join("-D%s_MODULE=1" % s for s in syms)])


# build products of an earlier build are not copied
_NOT_COPIED = ("*.o", "*.ko", ".*.cmd")


def _copy_file(path, dest):
    """A regular file's bytes, mode and times; opened without blocking
    and checked once open, so a FIFO put in its place is refused, not
    waited on."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return False
        with open(fd, "rb", closefd=False) as f, open(dest, "wb") as out:
            shutil.copyfileobj(f, out)
    finally:
        os.close(fd)
    os.chmod(dest, stat.S_IMODE(st.st_mode))
    os.utime(dest, ns=(st.st_atime_ns, st.st_mtime_ns))
    return True


def copy_module(src, dest):
    """src's directories, regular files and symbolic links (as links) into
    dest, as shutil.copytree(symlinks=True) would, without recursion; a
    FIFO, socket or device is refused (ProveError): a FIFO would block
    the copy, and a module's sources hold none."""
    from ..ci.report import display
    ignore = shutil.ignore_patterns(*_NOT_COPIED)

    def refuse(path, why):
        raise ProveError("%s: %s: a module directory holds only files, "
                         "directories and links" % (display(path), why))

    def fail(e):
        refuse(e.filename or src, "cannot read it: %s" % e.strerror)
    os.makedirs(dest)
    for root, dirs, files in fswalk.walk(src, onerror=fail):
        out = os.path.join(dest, os.path.relpath(root, src))
        skip = ignore(root, dirs + files)
        dirs[:] = [d for d in dirs if d not in skip]
        for name in sorted(dirs + files):
            if name in skip:
                continue
            path, to = os.path.join(root, name), os.path.join(out, name)
            try:
                mode = os.lstat(path).st_mode
                if stat.S_ISLNK(mode):
                    os.symlink(os.readlink(path), to)
                    if name in dirs:
                        dirs.remove(name)   # as os.walk: not entered
                elif stat.S_ISDIR(mode):
                    os.mkdir(to)    # writable: the build writes there
                elif not (stat.S_ISREG(mode) and _copy_file(path, to)):
                    refuse(path, "not a regular file (%s)" % (
                        "a FIFO" if stat.S_ISFIFO(mode) else "a socket"
                        if stat.S_ISSOCK(mode) else "a device"
                        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                        else "its type changed"))
            except OSError as e:
                refuse(path, "cannot copy it: %s" % (e.strerror or e))


def build(src, kdir, work):
    """Build a module directory's copy; {module name: (.ko, sources)}."""
    dest = os.path.join(work, "build")
    copy_module(src, dest)
    res = provenv.run(["make", "-C", kdir, "M=" + dest] +
                       _kconfig_options(src) + ["modules"])
    if res.returncode:
        err = [ln for ln in res.stderr.splitlines() if "error" in ln]
        raise ProveError("%s does not build against %s: %s" % (
            src, kdir, (err or res.stderr.strip().splitlines() or ["?"])[0]))
    out = {}
    for root, _dirs, files in fswalk.walk(dest):
        for f in files:
            if not f.endswith(".ko"):
                continue
            ko = os.path.join(root, f)
            srcs = set()
            try:
                with open(ko[:-3] + ".mod") as m:
                    for obj in m.read().split():
                        rel = os.path.relpath(os.path.join(dest, obj)
                                              if not os.path.isabs(obj)
                                              else obj, dest)
                        srcs.add(os.path.normpath(os.path.join(
                            src, rel[:-2] + ".c")))
            except OSError:
                pass
            out[kmod.name_of(ko)] = (ko, srcs)
    if not out:
        raise ProveError("building %s made no module" % src)
    return out


def _parameter_hint(target):
    """A module that makes nothing at load may want a switch (vfb's
    vfb_enable): name its parameters."""
    try:
        parms = kmod.modinfo(target.ko).get("parmtype", [])
    except kmod.ModuleError:
        return ""
    if not parms:
        return ""
    return " (its parameters: %s; --param NAME=VALUE sets one)" % ", ".join(
        p.replace(":", " ", 1) for p in parms[:8])


def scenarios_for(findings):
    want = []
    for f in findings:
        s = scenarios.RULE_SCENARIO.get(f["rule"])
        if s and s not in want:
            want.append(s)
    return [s for s in scenarios.SCENARIOS if s in want]


def _initrd(path, target, deps, hold_ko, bb, scenario, wait, token):
    a = initramfs.Archive()
    for d in ("bin", "dev", "proc", "sys", "tmp", "lib", "lib/deps"):
        a.directory(d)
    with open(bb, "rb") as f:
        a.file("bin/busybox", f.read(), 0o755)
    for app in APPLETS:
        a.symlink("bin/" + app, "busybox")
    a.file("init", scenarios.init_script(token).encode(), 0o755)
    a.file("scenario", scenarios.scenario_script(
        scenario, target.module, token, wait).encode(), 0o755)
    names = []
    for i, dep in enumerate(deps):
        name = "%03d-%s" % (i, os.path.basename(dep))
        with open(dep, "rb") as f:
            a.file("lib/deps/" + name, f.read())
        names.append(name)
    a.file("deps", ("\n".join(names) + "\n").encode())
    a.file("params", (" ".join(target.params) + "\n").encode())
    a.file("triggers", "".join(t.replace("\n", " ") + "\n"
                               for t in target.triggers).encode())
    with open(target.ko, "rb") as f:
        a.file("target.ko", f.read())
    with open(hold_ko, "rb") as f:
        a.file("modlife_hold.ko", f.read())
    a.write(path)


class Prover:
    def __init__(self, kdir, timeout=180, vmlinuz=None, cache_dir=None,
                 wait=6, log=None, progress=None):
        self.kdir, self.timeout, self.wait = kdir, timeout, wait
        self.log = log
        self.progress = progress or (lambda msg: None)
        self.qemu = provenv.qemu()
        self.kernel = provenv.kernel(kdir, vmlinuz, cache_dir)
        self.busybox = provenv.busybox(cache_dir)
        self.hold = provenv.harness(kdir, cache_dir)
        self.kvm = provenv.kvm_works()

    def run(self, target, scenario):
        """One boot: {'scenario','module','verdict','why','report'}."""
        work = tempfile.mkdtemp(prefix="modlife-prove-")
        # the guest script's marks carry it; the module cannot print it
        token = scenarios.new_token()
        try:
            deps = kmod.closure([target.ko], self.kernel.moddir)
            initrd = os.path.join(work, "initrd.gz")
            _initrd(initrd, target, deps, self.hold, self.busybox,
                    scenario, self.wait, token)
            self.progress("%s: %s scenario, booting %s%s" % (
                target.label, scenario, self.kernel.release,
                " (kvm)" if self.kvm else ""))
            console, finished = qemu.boot(
                self.qemu, self.kernel.vmlinuz, initrd, self.timeout,
                kvm=self.kvm, log=self.log)
        except kmod.ModuleError as e:
            return {"scenario": scenario, "module": target.module,
                    "verdict": "error", "why": str(e), "report": []}
        finally:
            shutil.rmtree(work, ignore_errors=True)
        verdict, why, report = scenarios.verdict(scenario, console, finished,
                                                 token)
        if verdict == "no scenario" or why.startswith("the module did not"):
            why += _parameter_hint(target)
        return {"scenario": scenario, "module": target.module,
                "verdict": verdict, "why": why, "report": report}

    def prove(self, target, forced=None):
        """Runs the target's scenarios; attaches each finding's proof."""
        wanted = forced or scenarios_for(target.findings)
        results = [self.run(target, s) for s in wanted]
        by = {r["scenario"]: r for r in results}
        for f in target.findings:
            s = scenarios.RULE_SCENARIO.get(f["rule"])
            r = by.get(s)
            if r is None:
                f["proof"] = {"verdict": "no scenario", "why":
                              "no run-time scenario proves this rule",
                              "report": []}
            else:
                f["proof"] = {k: r[k] for k in
                              ("scenario", "verdict", "why", "report")}
                seen = "hang" if r["why"].startswith("rmmod hung") \
                    else "fault"
                if r["verdict"] == "proven" and \
                        scenarios.PROVEN_BY.get(f["rule"]) != seen:
                    # an exit wait predicts a hang, a release in module
                    # text a fault: the other outcome proves the other
                    f["proof"]["verdict"] = "not reproduced"
                    f["proof"]["why"] = "this rule predicts a %s; the " \
                        "run showed a %s: %s" % (
                            scenarios.PROVEN_BY.get(f["rule"]), seen,
                            r["why"])
                # one boot covers all of a scenario's findings: which of
                # them the faulting object was, the why says
                if sum(scenarios.RULE_SCENARIO.get(g["rule"]) == s
                       for g in target.findings) > 1:
                    f["proof"]["scope"] = "module"
        return results


def targets_from(paths_, kdir, work, scan_findings, source=None,
                 params=(), moddir=None, triggers=()):
    """Targets for the given directories and .ko files."""
    out = []
    for p in paths_:
        if os.path.isdir(p):
            built = build(p, kdir, os.path.join(work, str(len(out))))
            findings = scan_findings([p])
            for name, (ko, srcs) in sorted(built.items()):
                srcs = {os.path.abspath(s) for s in srcs}
                mine = [f for f in findings if len(built) == 1 or
                        os.path.abspath(f["file"]) in srcs]
                out.append(Target("%s (%s)" % (p, name), ko, mine, params,
                                  triggers))
            continue
        ko = p
        if not os.path.isfile(p) and p.endswith(".ko") and moddir:
            ko = kmod.Image(moddir).by_name(os.path.basename(p)[:-3])
            if not ko:
                raise ProveError("no module %s in %s" % (p, moddir))
        elif not os.path.isfile(p):
            raise ProveError("%s: no such module directory or .ko file" % p)
        findings = scan_findings([source]) if source else []
        out.append(Target(p, ko, findings, params, triggers))
    return out


def print_text(results, targets, out):
    from ..ci.report import display as d, finding_text, lead, proof_text
    for t in targets:
        for f in t.findings:
            finding_text(f, out)
            proof_text(dict(f, proof=dict(f["proof"], report=[])), out)
    for r in results:
        out.write("%s: %s scenario: %s: %s\n" % (
            lead(r["label"]), r["scenario"], r["verdict"], d(r["why"])))
        for ln in r["report"]:
            out.write("    | %s\n" % d(ln))


def run(paths_, kdir, scan_findings, timeout=240, kernel=None,
        cache_dir=None, wait=6, console_log=None, quiet=False, source=None,
        params=(), triggers=(), scenario=None):
    """(targets, runs): prove and scan --prove both come here."""
    # through the one guarded writer: a link planted under the name is
    # replaced, not written through (the console is the module's text)
    try:
        out = outputs.Appended(console_log, paths_) if console_log else None
    except outputs.OutputError as e:
        raise ProveError(str(e))
    work = tempfile.mkdtemp(prefix="modlife-prove-build-")
    log = None
    try:
        log = out.open() if out else None
        prover = Prover(kdir, timeout, kernel, cache_dir, wait, log,
                        progress=None if quiet else
                        say)
        targets = targets_from(paths_, kdir, work, scan_findings, source,
                               params, prover.kernel.moddir, triggers)
        results = []
        forced = scenario.split(",") if scenario else None
        for t in targets:
            if not forced and not t.findings:
                say("%s: no findings to prove (name scenarios with "
                    "--scenario)" % t.label)
                continue
            for r in prover.prove(t, forced):
                r["label"] = t.label
                results.append(r)
    finally:
        if log:
            log.close()
        if out:
            out.close()
        shutil.rmtree(work, ignore_errors=True)
    return targets, results
