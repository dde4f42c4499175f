# SPDX-License-Identifier: GPL-2.0-only
"""Syscall headers from a tree's syscall tables (*.tbl), as
scripts/syscallhdr.sh and scripts/syscalltbl.sh write them: read as
data, in Python."""
import re

from . import fswalk

MAX_TABLE = 1 << 20
MAX_NR = 1 << 14


def read_table(path):
    """[(nr, abi, name, entry, compat)] of a syscall.tbl, in file
    order; [] when it cannot be read."""
    try:
        with fswalk.open_regular(path) as f:
            text = f.read(MAX_TABLE).decode("utf-8", "replace")
    except OSError:
        return []
    out = []
    for line in text.split("\n"):
        w = line.split("#", 1)[0].split()
        # ASCII digits, a number a table can have (a hole up to a huge
        # number would be filled line by line)
        if len(w) < 3 or not re.fullmatch(r"[0-9]{1,5}", w[0]) or \
                int(w[0]) > MAX_NR or not all(
                    re.fullmatch(r"[\w/.-]+", x) for x in w[1:5]):
            continue
        out.append((int(w[0]), w[1], w[2], w[3] if len(w) > 3 else "",
                    w[4] if len(w) > 4 else ""))
    return out


def unistd(rows, abis, guard, prefix="", offset="", nr_syscalls=True):
    """<asm/unistd_*.h>: #define __NR_<prefix><name> <nr>."""
    out = ["#ifndef %s" % guard, "#define %s" % guard, ""]
    last = -1
    for nr, abi, name, _, _ in rows:
        if abi not in abis:
            continue
        value = "(%s + %d)" % (offset, nr) if offset else str(nr)
        out.append("#define __NR_%s%s %s" % (prefix, name, value))
        last = max(last, nr)
    if nr_syscalls:
        out += ["", "#ifdef __KERNEL__",
                "#define __NR_%ssyscalls %d" % (prefix, last + 1), "#endif"]
    out += ["", "#endif /* %s */" % guard]
    return "\n".join(out) + "\n"


def syscalls(rows, abis):
    """<asm/syscalls_*.h>: the table's entries for __SYSCALL()."""
    out, want = [], 0
    for nr, abi, _, entry, compat in rows:
        if abi not in abis:
            continue
        # a hole in the numbers is a syscall that is not implemented
        out += ["__SYSCALL(%d, sys_ni_syscall)" % n for n in range(want, nr)]
        want = nr + 1
        if not entry:
            out.append("__SYSCALL(%d, sys_ni_syscall)" % nr)
        elif compat and compat != entry:
            out.append("__SYSCALL_WITH_COMPAT(%d, %s, %s)"
                       % (nr, entry, compat))
        else:
            out.append("__SYSCALL(%d, %s)" % (nr, entry))
    return "\n".join(out) + "\n"
