# SPDX-License-Identifier: GPL-2.0-only
"""The run-time scenarios of `modlife prove`: the shell script that runs in
the guest, and what the console says about it.

Each boot runs one scenario on one module. The guest's init prints lines
starting with MARK; the kernel prints its reports (an oops, BUG:, a hung
task) on the same console, so the order of both says whether a fault came
after the module was unloaded, which is what proves the finding. The
module under test prints on that console too: each boot's marks carry a
token of its own, made on the host (mark()), and only those count.

  owner    open the device nodes and debugfs files the module created,
           rmmod, then close them: without an owner rmmod succeeds and the
           close runs the freed module's ops.
  hold     the holding module takes a reference on every sysfs object the
           module created, rmmod, then the reference is dropped: a release
           in module text, or an object in module data, faults; an exit
           that waits for the release hangs (released when we drop).
  pending  use the module's device nodes (a read and a write each, which
           is what arms most timers and work), rmmod, then wait past the
           timers' and work's periods: a callback left behind faults.
"""
import re
import secrets
import shlex

from ..rules import RULES

MARK = "@@modlife"
SCENARIOS = ("owner", "hold", "pending")


def new_token():
    """A boot's token: what the module under test cannot print, as it
    cannot guess it."""
    return secrets.token_hex(8)


def mark(token):
    """What begins a boot's marks: MARK, and its token."""
    if not re.fullmatch(r"[0-9a-f]{8,64}", token or ""):
        raise ValueError("a token is 8 to 64 hex digits")
    return MARK + "-" + token

# What a kernel report looks like on the console (x86 and generic).
_REPORT = re.compile(
    r"BUG: unable to handle|BUG: kernel NULL pointer|general protection "
    r"fault|kernel BUG at|BUG: KASAN|BUG: KFENCE|BUG: sleeping function|"
    r"Oops: |WARNING: CPU: |Kernel panic|INFO: task \S+ blocked for more "
    r"than|unable to execute userspace|Attempted to kill init")
_NOISE = re.compile(r"^\s*(\[\s*\d+\.\d+\]\s*)?")


# rule -> its scenario (None: none proves it), and rule -> what proves
# it, "fault" or "hang" (kb/rules.tsv, columns 8 and 9)
RULE_SCENARIO = {name: r.scenario for name, r in RULES.items()}
PROVEN_BY = {name: r.proven_by for name, r in RULES.items()}

_INIT = r"""#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mkdir -p /tmp
echo 4 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
echo "@MARK@ boot"
for m in $(cat /deps); do
	insmod "/lib/deps/$m" || echo "@MARK@ dep-failed $m"
done
sh /scenario
echo "@MARK@ end"
sync
poweroff -f
"""

# Runs as a child of init: an oops kills this shell, never init.
_COMMON = r"""
say() { echo "$MARK $*"; }
snap() {
	find /dev -xdev > /tmp/$1.dev 2>/dev/null
	find /sys/kernel/debug -xdev -type f > /tmp/$1.dbg 2>/dev/null
	find /sys -xdev -type d > /tmp/$1.sys 2>/dev/null
}
new() { grep -vxF -f /tmp/before.$1 /tmp/after.$1; }
nodes() {
	{ new dev | while read -r n; do
		[ -c "$n" ] || [ -b "$n" ] && echo "$n"
	done; new dbg; } | head -n 7
}
# rmmod in the background: a hang is seen, and reported, not waited for
unload() {
	rm -f /tmp/rmmod.rc
	say "unloading"
	(rmmod "$1"; echo $? > /tmp/rmmod.rc) &
	i=0
	while [ ! -f /tmp/rmmod.rc ] && [ $i -lt $2 ]; do
		sleep 1
		i=$((i + 1))
	done
	if [ -f /tmp/rmmod.rc ]; then
		read -r rc < /tmp/rmmod.rc
		say "rmmod rc=$rc"
	else
		say "rmmod hung"
	fi
}
snap before
insmod /target.ko $(cat /params)
rc=$?
say "insmod rc=$rc"
[ $rc = 0 ] || exit 0
sleep 1
snap after
# the module's own triggers (--trigger), run in the guest only
while read -r t; do
	[ -n "$t" ] && sh -c "$t" < /dev/null > /dev/null 2>&1
done < /triggers
say "triggered"
"""

# Each file is held open by a process of its own: children of a shell
# that held it would inherit it, and every one of their exits would close
# it into the freed module. Killing the holder is the close. One file at
# a time: a file whose ops have an owner pins the module, and the next is
# tried.
_OWNER = r"""
opened=0
for n in $(nodes); do
	rm -f /tmp/opened
	( exec < "$n" 2>/dev/null || exec <> "$n" 2>/dev/null || exit 1
	  : > /tmp/opened
	  exec sleep 100000 ) &
	pid=$!
	j=0
	while [ ! -f /tmp/opened ] && [ $j -lt 5 ]; do sleep 1; j=$((j + 1)); done
	if [ ! -f /tmp/opened ]; then
		kill $pid 2>/dev/null
		continue
	fi
	say "opened $n"
	opened=1
	unload "$MOD" 20
	if [ -f /tmp/rmmod.rc ] && [ "$(cat /tmp/rmmod.rc)" = 0 ]; then
		say "closing"
		kill $pid
		sleep 3
		say "closed"
		exit 0
	fi
	kill $pid
	wait $pid 2>/dev/null
	say "released $n"
done
[ $opened = 1 ] || { say "nothing to open"; rmmod "$MOD"; exit 0; }
"""

_HOLD = r"""
list=$(new sys | grep -v '^/sys/module/' | grep -v , | sed 's|^/sys/||' |
	head -n 64 | tr '\n' , | sed 's/,$//')
[ -n "$list" ] || { say "nothing to hold"; rmmod "$MOD"; exit 0; }
insmod /modlife_hold.ko "path=$list"
say "hold rc=$?"
unload "$MOD" 15
hung=0
[ -f /tmp/rmmod.rc ] || hung=1
say "dropping"
rmmod modlife_hold
i=0
while [ ! -f /tmp/rmmod.rc ] && [ $i -lt 10 ]; do sleep 1; i=$((i + 1)); done
[ $hung = 1 ] && [ -f /tmp/rmmod.rc ] && say "rmmod finished after drop"
sleep 2
say "dropped"
"""

_PENDING = r"""
for n in $(nodes); do
	timeout 2 dd if="$n" of=/dev/null bs=64 count=1 2>/dev/null
	echo 1 | timeout 2 dd of="$n" 2>/dev/null
done
say "used"
unload "$MOD" 20
say "waiting"
sleep $WAIT
say "waited"
"""

_BODY = {"owner": _OWNER, "hold": _HOLD, "pending": _PENDING}


def init_script(token):
    return _INIT.replace("@MARK@", mark(token))


def scenario_script(scenario, module, token, wait=6):
    # the name comes from the module file (its Makefile): quoted
    head = "MOD=%s\nWAIT=%d\nMARK=%s\n" % (shlex.quote(module), int(wait),
                                            mark(token))
    return "#!/bin/sh\n" + head + _COMMON + _BODY[scenario]


def _events(console, token):
    """(kind, text) in console order: ("mark", words) or ("report", line).
    A mark is the boot's: it carries the token made on the host for this
    boot, which a module printing a fixed text cannot know.  It may
    follow the firmware's output on the first line (the serial console
    does not always start a new line for it)."""
    lead = mark(token) + " "
    out = []
    for raw in console.splitlines():
        line = _NOISE.sub("", raw.rstrip("\r"))
        at = line.find(lead)
        if at >= 0:
            out.append(("mark", line[at + len(lead):].strip()))
        elif _REPORT.search(line):
            out.append(("report", line))
    return out


_KEEP = re.compile(r"^(RIP: |CPU: \d+ PID: |Oops: |INFO: task |\s*\S+\+0x"
                   r"[0-9a-f]+/0x[0-9a-f]+( \[\S+\])?$|Modules linked in)")


def _report_lines(console, first, token):
    """The report's first line, then the lines a maintainer reads first
    (Oops, the task, RIP, the first calls), up to 8."""
    lead = mark(token) + " "
    lines = [_NOISE.sub("", ln.rstrip("\r")) for ln in console.splitlines()]
    try:
        i = lines.index(first)
    except ValueError:
        return [first]
    keep = [first]
    for ln in lines[i + 1:i + 80]:
        if lead in ln:
            break
        if _KEEP.match(ln) and not ln.lstrip().startswith("?"):
            keep.append(ln)
        if len(keep) == 8:
            break
    return keep


def verdict(scenario, console, finished, token):
    """('proven' | 'not reproduced' | 'no scenario' | 'error', why,
    report lines) for one boot's console, whose marks carry token."""
    ev = _events(console, token)
    marks = [t for k, t in ev if k == "mark"]
    if "boot" not in marks:
        last = [ln.strip() for ln in console.splitlines() if ln.strip()]
        return ("error", "the kernel did not reach the test script"
                + ("" if finished else " before the time limit")
                + (" (last line: %s)" % last[-1][:200] if last else ""),
                [])
    bad_dep = [m for m in marks if m.startswith("dep-failed")]
    if bad_dep:
        return ("error", "a dependency did not load: " + bad_dep[0][11:], [])
    ins = [m for m in marks if m.startswith("insmod rc=")]
    if not ins or ins[0] != "insmod rc=0":
        return ("error", "the module did not load (%s)" % (
            ins[0] if ins else "no insmod result"), [])
    if "nothing to open" in marks:
        return ("no scenario", "the module created no device node or "
                "debugfs file to open", [])
    if "nothing to hold" in marks:
        return ("no scenario", "the module created no sysfs object", [])
    # Reports before the unload are the module's own trouble, not proof.
    unloaded = False
    for kind, text in ev:
        if kind == "mark" and text == "unloading":
            unloaded = True
        elif kind == "report" and not unloaded:
            return ("error", "the kernel reported a fault before the "
                    "unload: " + text, _report_lines(console, text, token))
    rm = [m for m in marks if m.startswith("rmmod ")]
    hung = "rmmod hung" in marks
    after = [t for k, t in ev if k == "report"]
    if hung and scenario == "hold":
        why = "rmmod hung while a reference was held"
        if "rmmod finished after drop" in marks:
            why += " and finished when it was dropped"
        hung_lines = [t for t in after if t.startswith("INFO: task")]
        return ("proven", why, _report_lines(console, hung_lines[0], token)
                if hung_lines else [])
    if after:
        opened = [m[7:] for m in marks if m.startswith("opened ")]
        when = {"owner": "closing a file of the unloaded module (%s)"
                % (opened[-1] if opened else "?"),
                "hold": "dropping the reference after the unload",
                "pending": "waiting after the unload"}[scenario]
        return ("proven", "rmmod succeeded; %s faulted: %s"
                % (when, after[0]), _report_lines(console, after[0], token))
    if not finished:
        return ("error", "the guest did not finish before the time limit "
                "(last step: %s)" % (marks[-1] if marks else "none"), [])
    if scenario == "owner" and rm:
        opened = [m[7:] for m in marks if m.startswith("opened ")]
        pinned = opened[:len(rm)] if "rmmod rc=0" not in rm else \
            opened[:rm.index("rmmod rc=0")]
        if pinned:
            why = "rmmod was refused while %s was open: the module is " \
                "pinned" % " or ".join(pinned)
            if "rmmod rc=0" in rm:
                why += "; with %s open it was unloaded and the close did " \
                    "not fault" % opened[len(pinned)]
            return ("not reproduced", why, [])
    if hung:
        return ("not reproduced", "rmmod hung", [])
    return ("not reproduced", {
        "owner": "rmmod succeeded with the files open, and closing them "
                 "did not fault",
        "hold": "dropping the references after the unload did not fault",
        "pending": "nothing faulted after the unload",
    }[scenario], [])
