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
# Environment: KDIR (default: the newest /usr/src/linux-headers-*-amd64),
#              WERROR=1 to also fail on compiler warnings (gcc -Werror),
#              JOBS (2), KEEP=DIR to build in DIR and keep it: a file that
#              did not change is not compiled again (under WERROR=1 an
#              object is only left by a warning-free compile).

set -u

here=$(cd "$(dirname "$0")" && pwd) || exit 2
KDIR=${KDIR:-$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)}

if [ $# -eq 0 ]; then
	set -- $(cd "$here" && ls static_object_*.c static_object_*.res \
		empty_release_*.c empty_release_*.res \
		unregister_wait_in_exit_*.c unregister_wait_in_exit_*.res \
		2>/dev/null)
fi

if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP/m" && tmp=$(cd "$KEEP" && pwd) || exit 2
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/cocci-kbuild.XXXXXX") || exit 2
	trap 'rm -rf "$tmp"' EXIT
	mkdir "$tmp/m" || exit 2
fi
trap 'exit 130' INT
trap 'exit 143' TERM

# one kbuild run: every fixture an object of its own ("x.res" becomes
# "x_res.c"); objects only, as a fixture may call an API of another module.
# A copy that did not change keeps its time, so kbuild keeps its object.
objs=
for f in "$@"; do
	case $f in
	/*) src=$f ;;
	*) [ -f "$f" ] && src=$f || src=$here/$f ;;
	esac
	obj=$(basename "$f" | sed 's/\.c$//; s/\.res$/_res/')
	cmp -s "$src" "$tmp/m/$obj.c" || cp "$src" "$tmp/m/$obj.c" || exit 2
	objs="$objs $obj.o"
done
echo "obj-m += $objs" >"$tmp/m/Kbuild"
werror=
[ "${WERROR:-0}" = 0 ] || werror=KCFLAGS=-Werror
# shellcheck disable=SC2086 # one word per object
make -k -C "$KDIR" M="$tmp/m" -j"${JOBS:-2}" $werror $objs >"$tmp/log" 2>&1

pass=0
fail=0
for f in "$@"; do
	name=$(basename "$f")
	obj=$(echo "$name" | sed 's/\.c$//; s/\.res$/_res/')
	w=$(grep -c "/$obj\.c:[0-9]*:[0-9]*: warning:" "$tmp/log")
	[ -z "$werror" ] || w=$(grep -c "/$obj\.c:[0-9]*:[0-9]*: error:" "$tmp/log")
	if [ -f "$tmp/m/$obj.o" ] && { [ "${WERROR:-0}" = 0 ] || [ "$w" -eq 0 ]; }; then
		pass=$((pass + 1))
		echo "ok - $name builds ($w warnings)"
	else
		fail=$((fail + 1))
		echo "not ok - $name does not build"
		grep -E "/$obj\.c:[0-9]+:[0-9]+: (error|warning):" "$tmp/log" |
			sed "s|$tmp/m/$obj.c|$name|; s/^/#   /"
	fi
done
echo "$pass built, $fail failed"
[ "$fail" -eq 0 ]
