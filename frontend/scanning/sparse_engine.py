# SPDX-License-Identifier: GPL-2.0-only
"""Runs modlife-sparse on one file and reads back its facts.

Facts stay the JSON lines the checker wrote: the link step hands them
back to the checker unchanged, and only the few kinds the front end looks
at (tu, error, include) are parsed, by kind() and parse()."""
import json
import os
import signal
import subprocess


def kind(line):
    """The kind of a fact line: the checker writes {"k":"KIND", first."""
    if not line.startswith('{"k":"'):
        return None
    end = line.find('"', 6)
    return line[6:end] if end > 0 else None


def parse(lines, kinds=None):
    """The facts (of @kinds only, when given) as dicts."""
    out = []
    for ln in lines:
        if kinds is not None and kind(ln) not in kinds:
            continue
        try:
            x = json.loads(ln)
        except ValueError:
            continue
        if isinstance(x, dict):
            out.append(x)
    return out


class Transient(str):
    """An error of this run, not of the file (a timeout, a signal from
    outside): not to be cached."""


# killed from outside (Ctrl-C, kill, the memory limit), not crashed
INTERRUPTED = {signal.SIGINT, signal.SIGTERM, signal.SIGKILL, signal.SIGHUP,
               signal.SIGQUIT, signal.SIGPIPE}
# the checker's exit status when its memory cap (MODLIFE_MAX_MEMORY) was
# reached (sparse-plugin/strmap.h): an error of the file under this cap
OUT_OF_MEMORY = 3


def run(binary, kb, flags, path, timeout=300):
    """Returns (fact lines, error message or None)."""
    cmd = [binary, "--modlife-quiet", "--modlife-facts=-",
           "--modlife-kb=" + kb] + flags + [os.path.abspath(path)]
    try:
        res = subprocess.run(cmd, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return [], Transient("sparse timed out after %d s" % timeout)
    except OSError as e:
        return [], Transient("cannot run %s: %s" % (binary, e))
    lines = [ln for ln in res.stdout.decode("utf-8", "surrogateescape").splitlines()
             if kind(ln)]
    if len(lines) > 1 and '"fatal":1' in lines[-1]:
        # a crash cuts the fact being written: drop it if it is cut
        try:
            json.loads(lines[-2])
        except ValueError:
            del lines[-2]
    err = None
    for f in parse(lines, ("error",)):
        err = f.get("message") or ""
        # sparse names the file with its path: the report does too
        here = os.path.abspath(path) + ":"
        cwd = os.getcwd() + os.sep
        if err.startswith(here):
            err = err[len(here):]
        elif err.startswith(cwd):   # in a header the file includes
            err = err[len(cwd):]
        break
    if res.returncode != 0 and not err:
        err = (res.stderr.decode("utf-8", "replace").strip().splitlines()
               or ["modlife-sparse exited with %d" % res.returncode])[0]
        if -res.returncode in INTERRUPTED:
            err = Transient(err)
    if res.returncode == OUT_OF_MEMORY:
        # whatever it said: another cap may give another answer
        err = Transient(err or "out of memory")
    return lines, err
