# SPDX-License-Identifier: GPL-2.0-only
"""Stand-ins for headers another architecture's compiler provides.

<larchintrin.h> comes with LoongArch's compiler, <arm_neon.h> with
ARM's, not with the kernel tree, and no compiler for them need be on
the scanning machine. A file
that includes such a header is parsed with a declaration-only stand-in
shipped in kb/cc-headers/ (the compiler's built-in functions as
prototypes), found only where the real header is not."""
import os
import re

from .. import paths

DIR = os.path.join(paths.ROOT, "kb", "cc-headers")


def stand_in(header):
    """The text of the shipped stand-in for header, or None."""
    if not re.fullmatch(r"\w+\.h", header):
        return None
    try:
        with open(os.path.join(DIR, header), encoding="utf-8") as f:
            return f.read()
    except OSError:
        return None


def shipped():
    """The stand-ins' paths (their content is in the fact cache's key)."""
    try:
        return sorted(os.path.join(DIR, n) for n in os.listdir(DIR)
                      if n.endswith(".h"))
    except OSError:
        return []
