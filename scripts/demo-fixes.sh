#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Shows the fixes the semantic patches propose for the corpus bugs, as
# diffs. Nothing is written: spatch runs without --in-place.
set -u
cd "$(dirname "$0")/.." || exit 2
ulimit -s unlimited 2>/dev/null || true
for dir in corpus/*-bug; do
	for c in "$dir"/*.c; do
		for s in cocci/*.cocci; do
			spatch -D patch --very-quiet --no-includes --include-headers \
				--sp-file "$s" "$c" 2>/dev/null
		done
	done
done
