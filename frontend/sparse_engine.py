# SPDX-License-Identifier: GPL-2.0-only
"""Runs modlife-sparse on one file and reads back its facts."""
import json
import os
import subprocess


def run(binary, kb, flags, path, timeout=300):
    """Returns (facts, error message or None)."""
    cmd = [binary, "--modlife-quiet", "--modlife-facts=-",
           "--modlife-kb=" + kb] + flags + [os.path.abspath(path)]
    try:
        res = subprocess.run(cmd, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return [], "sparse timed out after %d s" % timeout
    except OSError as e:
        return [], "cannot run %s: %s" % (binary, e)
    facts = []
    for line in res.stdout.decode("utf-8", "replace").splitlines():
        try:
            facts.append(json.loads(line))
        except ValueError:
            continue
    err = None
    for f in facts:
        if f.get("k") == "error":
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
    return facts, err
