#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Shows the fixes modlife fix would make to the corpus, as diffs, and the
# findings it leaves to a person or refuses. Nothing is written.
set -u
cd "$(dirname "$0")/.." || exit 2
exec ./modlife fix --dry-run --no-cache corpus/
