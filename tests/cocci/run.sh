#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Fixture tests for the semantic patches in cocci/.
#
# For every tests/cocci/<script>_*.c (the script is cocci/<script>.cocci):
#   report  - sorted `spatch -D report` output must equal <fixture>.report
#   patch   - the diff applied with patch(1) to a temp copy must give
#             <fixture>.res; without a .res the diff must be empty
#   again   - patch mode on the patched copy must give an empty diff
#   context - must succeed; output iff the .report is not empty
#   org     - must succeed; one TODO per expected report line
# Every spatch run must exit 0 with nothing on stderr (no EXN, no Python
# traceback, no SmPL warning).  Options come from the script's "Options"
# header line, as scripts/coccicheck takes them.
#
# Usage: tests/cocci/run.sh [fixture.c ...]    (from any directory)
# Environment: SPATCH (default spatch).

set -u

here=$(cd "$(dirname "$0")" && pwd) || exit 2
root=$(cd "$here/../.." && pwd) || exit 2
SPATCH=${SPATCH:-spatch}

# shellcheck disable=SC3045 # dash, bash and busybox sh all have ulimit -s
ulimit -s unlimited 2>/dev/null || ulimit -s 65536 2>/dev/null

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cocci-tests.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

pass=0
fail=0

ok() {
	pass=$((pass + 1))
	echo "ok - $1"
}

notok() {
	fail=$((fail + 1))
	echo "not ok - $1"
	if [ -n "${2:-}" ] && [ -s "$2" ]; then
		sed 's/^/#   /' "$2"
	fi
}

# run_spatch OUT ERR CWD MODE SCRIPT FILE [extra args]: 0 if spatch exited 0
# and printed nothing on stderr and no EXN/Traceback on stdout.
run_spatch() {
	_out=$1 _err=$2 _cwd=$3 _mode=$4 _sp=$5 _file=$6
	shift 6
	# shellcheck disable=SC2086 # $opts is a word list on purpose
	(cd "$_cwd" && "$SPATCH" -D "$_mode" --very-quiet $opts "$@" \
		--sp-file "$_sp" "$_file") >"$_out" 2>"$_err"
	_rc=$?
	if [ "$_rc" -ne 0 ]; then
		echo "spatch -D $_mode exited $_rc" >>"$_err"
		return 1
	fi
	if grep -q -E '^(EXN|Traceback|Fatal error|[A-Za-z_.]*(Error|Exception)\b)' "$_out"; then
		cat "$_out" >>"$_err"
		return 1
	fi
	[ ! -s "$_err" ]
}

if [ $# -gt 0 ]; then
	fixtures=$*
else
	fixtures=$(cd "$here" && ls -- *.c 2>/dev/null)
fi

for fixture in $fixtures; do
	fixture=$(basename "$fixture")
	base=${fixture%.c}
	name=$fixture

	# the longest cocci/<script>.cocci whose name prefixes the fixture
	sp='' best=0
	for cand in "$root"/cocci/*.cocci; do
		[ -f "$cand" ] || continue
		s=$(basename "$cand" .cocci)
		case $base in
		"$s"_*)
			if [ ${#s} -gt "$best" ]; then
				sp=$cand best=${#s}
			fi
			;;
		esac
	done
	if [ ! -f "$here/$fixture" ] || [ -z "$sp" ]; then
		notok "$name: no fixture or no cocci/<script>.cocci for it"
		continue
	fi
	opts=$(grep "Options:" "$sp" | cut -d':' -f2)

	# report
	if [ ! -f "$here/$base.report" ]; then
		notok "$name: report (missing $base.report)"
	elif run_spatch "$tmp/report.raw" "$tmp/err" "$here" report "$sp" \
		"$fixture" --no-show-diff; then
		LC_ALL=C sort "$tmp/report.raw" >"$tmp/report"
		LC_ALL=C sort "$here/$base.report" >"$tmp/report.exp"
		if diff -u "$tmp/report.exp" "$tmp/report" >"$tmp/d"; then
			ok "$name: report"
		else
			notok "$name: report differs from $base.report" "$tmp/d"
		fi
	else
		notok "$name: report run failed" "$tmp/err"
	fi
	nexp=0
	[ -f "$here/$base.report" ] && nexp=$(grep -c . "$here/$base.report")

	# patch, applied with patch(1) to a copy
	work=$tmp/work
	rm -rf "$work"
	mkdir "$work"
	cp "$here/$fixture" "$work/$fixture"
	if run_spatch "$tmp/diff" "$tmp/err" "$work" patch "$sp" "$fixture"; then
		if [ -s "$tmp/diff" ] &&
			! patch -s -f "$work/$fixture" <"$tmp/diff" >"$tmp/err" 2>&1; then
			notok "$name: patch: diff does not apply" "$tmp/err"
		elif [ -f "$here/$base.res" ]; then
			if diff -u "$here/$base.res" "$work/$fixture" >"$tmp/d"; then
				ok "$name: patch gives $base.res"
			else
				notok "$name: patch result differs from $base.res" "$tmp/d"
			fi
		elif [ -s "$tmp/diff" ]; then
			notok "$name: patch: expected an empty diff" "$tmp/diff"
		else
			ok "$name: patch (empty diff)"
		fi
	else
		notok "$name: patch run failed" "$tmp/err"
	fi

	# patch again on the result: idempotent
	if run_spatch "$tmp/diff2" "$tmp/err" "$work" patch "$sp" "$fixture"; then
		if [ -s "$tmp/diff2" ]; then
			notok "$name: second patch is not empty" "$tmp/diff2"
		else
			ok "$name: second patch is empty"
		fi
	else
		notok "$name: second patch run failed" "$tmp/err"
	fi

	# context
	if run_spatch "$tmp/ctx" "$tmp/err" "$here" context "$sp" "$fixture"; then
		if [ "$nexp" -gt 0 ] && [ ! -s "$tmp/ctx" ]; then
			notok "$name: context: no output"
		elif [ "$nexp" -eq 0 ] && [ -s "$tmp/ctx" ]; then
			notok "$name: context: unexpected output" "$tmp/ctx"
		else
			ok "$name: context"
		fi
	else
		notok "$name: context run failed" "$tmp/err"
	fi

	# org
	if run_spatch "$tmp/org" "$tmp/err" "$here" org "$sp" "$fixture" \
		--no-show-diff; then
		norg=$(grep -c '^\* TODO \[\[view:' "$tmp/org")
		if [ "$norg" -ne "$nexp" ]; then
			notok "$name: org: $norg TODO lines, expected $nexp" "$tmp/org"
		else
			ok "$name: org"
		fi
	else
		notok "$name: org run failed" "$tmp/err"
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
