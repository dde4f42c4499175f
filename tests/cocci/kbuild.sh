#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build fixtures (and their patched .res results) as out-of-tree kernel
# modules, one module per file, to check that they are complete kernel
# code and that a semantic patch leaves compilable code behind.
#
# Usage: tests/cocci/kbuild.sh fixture.c|fixture.res ...
#        tests/cocci/kbuild.sh            (every <script>_*.c and .res of
#                                          static_object, empty_release and
#                                          unregister_wait_in_exit)
# Environment: KDIR (default /usr/src/linux-headers-6.1.0-57-amd64),
#              WERROR=1 to also fail on compiler warnings.

set -u

here=$(cd "$(dirname "$0")" && pwd) || exit 2
KDIR=${KDIR:-/usr/src/linux-headers-6.1.0-57-amd64}

if [ $# -eq 0 ]; then
	set -- $(cd "$here" && ls static_object_*.c static_object_*.res \
		empty_release_*.c empty_release_*.res \
		unregister_wait_in_exit_*.c unregister_wait_in_exit_*.res \
		2>/dev/null)
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cocci-kbuild.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

pass=0
fail=0
for f in "$@"; do
	case $f in
	/*) src=$f ;;
	*) [ -f "$f" ] && src=$f || src=$here/$f ;;
	esac
	name=$(basename "$f")
	rm -rf "$tmp/m"
	mkdir "$tmp/m"
	cp "$src" "$tmp/m/x.c" || { fail=$((fail + 1)); continue; }
	echo 'obj-m += x.o' >"$tmp/m/Kbuild"
	if make -C "$KDIR" M="$tmp/m" modules >"$tmp/log" 2>&1 &&
		{ [ "${WERROR:-0}" = 0 ] || ! grep -q 'warning:' "$tmp/log"; }; then
		pass=$((pass + 1))
		w=$(grep -c 'warning:' "$tmp/log")
		echo "ok - $name builds ($w warnings)"
	else
		fail=$((fail + 1))
		echo "not ok - $name does not build"
		grep -i -E 'error|warning' "$tmp/log" | sed "s|$tmp/m/x.c|$name|; s/^/#   /"
	fi
done
echo "$pass built, $fail failed"
[ "$fail" -eq 0 ]
