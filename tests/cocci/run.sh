#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Fixture tests for the semantic patches in cocci/.
#
# For every tests/cocci/<script>_*.c (the script is cocci/<script>.cocci):
#   report  - its sorted `spatch -D report` lines must equal <fixture>.report
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

# run_spatch OUT ERR CWD MODE SCRIPT [args]: 0 if spatch exited 0 and
# printed nothing on stderr and no EXN/Traceback on stdout.
run_spatch() {
	_out=$1 _err=$2 _cwd=$3 _mode=$4 _sp=$5
	shift 5
	# shellcheck disable=SC2086 # $opts is a word list on purpose
	(cd "$_cwd" && "$SPATCH" -D "$_mode" --very-quiet $opts \
		--sp-file "$_sp" "$@") >"$_out" 2>"$_err"
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

# section FILE < OUT: the lines OUT prints for ./FILE (its report lines,
# without the ./, or its part of a diff)
section() {
	awk -v f="$1" '
		/^diff -u -p / { on = ($4 == "./" f || $4 == "a/" f); next }
		index($0, "./" f ":") == 1 { print substr($0, 3); next }
		on { print }'
}

# fail_all LIST WHAT ERR: the run every fixture of LIST shares failed
fail_all() {
	while read -r _f; do
		notok "$_f: $2" "$3"
	done <"$1"
}

if [ $# -gt 0 ]; then
	fixtures=$*
else
	fixtures=$(cd "$here" && ls -- *.c 2>/dev/null)
fi

# Each script runs once per mode over all its fixtures, each a file of
# its own (--dir, as coccicheck runs it): spatch's start-up, not the
# matching, is most of the time of a run.
mkdir "$tmp/in" "$tmp/lists"
for fixture in $fixtures; do
	fixture=$(basename "$fixture")
	base=${fixture%.c}

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
		notok "$fixture: no fixture or no cocci/<script>.cocci for it"
		continue
	fi
	s=$(basename "$sp" .cocci)
	mkdir -p "$tmp/in/$s"
	cp "$here/$fixture" "$tmp/in/$s/$fixture"
	echo "$fixture" >>"$tmp/lists/$s"
done

for list in "$tmp"/lists/*; do
	[ -f "$list" ] || continue
	s=$(basename "$list")
	sp=$root/cocci/$s.cocci
	in=$tmp/in/$s
	opts=$(grep "Options:" "$sp" | cut -d':' -f2)

	# report
	if run_spatch "$tmp/report.raw" "$tmp/err" "$in" report "$sp" \
		--no-show-diff --dir .; then
		while read -r fixture; do
			base=${fixture%.c}
			if [ ! -f "$here/$base.report" ]; then
				notok "$fixture: report (missing $base.report)"
				continue
			fi
			section "$fixture" <"$tmp/report.raw" |
				LC_ALL=C sort >"$tmp/report"
			LC_ALL=C sort "$here/$base.report" >"$tmp/report.exp"
			if diff -u "$tmp/report.exp" "$tmp/report" >"$tmp/d"; then
				ok "$fixture: report"
			else
				notok "$fixture: report differs from $base.report" \
					"$tmp/d"
			fi
		done <"$list"
	else
		fail_all "$list" "report run failed" "$tmp/err"
	fi

	# patch, applied with patch(1) to a copy
	work=$tmp/work
	rm -rf "$work"
	cp -R "$in" "$work"
	if ! run_spatch "$tmp/diff" "$tmp/err" "$work" patch "$sp" --dir .; then
		fail_all "$list" "patch run failed" "$tmp/err"
	elif [ -s "$tmp/diff" ] &&
		! patch -p1 -s -f -d "$work" <"$tmp/diff" >"$tmp/err" 2>&1; then
		fail_all "$list" "patch: diff does not apply" "$tmp/err"
	else
		while read -r fixture; do
			base=${fixture%.c}
			if [ -f "$here/$base.res" ]; then
				if diff -u "$here/$base.res" "$work/$fixture" \
					>"$tmp/d"; then
					ok "$fixture: patch gives $base.res"
				else
					notok "$fixture: patch result differs from $base.res" "$tmp/d"
				fi
			elif ! cmp -s "$in/$fixture" "$work/$fixture"; then
				section "$fixture" <"$tmp/diff" >"$tmp/d"
				notok "$fixture: patch: expected an empty diff" "$tmp/d"
			else
				ok "$fixture: patch (empty diff)"
			fi
		done <"$list"
	fi

	# patch again on the results: idempotent
	if run_spatch "$tmp/diff2" "$tmp/err" "$work" patch "$sp" --dir .; then
		while read -r fixture; do
			section "$fixture" <"$tmp/diff2" >"$tmp/d"
			if [ -s "$tmp/d" ]; then
				notok "$fixture: second patch is not empty" "$tmp/d"
			else
				ok "$fixture: second patch is empty"
			fi
		done <"$list"
	else
		fail_all "$list" "second patch run failed" "$tmp/err"
	fi

	# context and org
	if run_spatch "$tmp/ctx" "$tmp/err" "$in" context "$sp" --dir . &&
		run_spatch "$tmp/org" "$tmp/err2" "$in" org "$sp" \
			--no-show-diff --dir .; then
		while read -r fixture; do
			base=${fixture%.c}
			nexp=0
			[ -f "$here/$base.report" ] &&
				nexp=$(grep -c . "$here/$base.report")
			section "$fixture" <"$tmp/ctx" >"$tmp/d"
			if [ "$nexp" -gt 0 ] && [ ! -s "$tmp/d" ]; then
				notok "$fixture: context: no output"
			elif [ "$nexp" -eq 0 ] && [ -s "$tmp/d" ]; then
				notok "$fixture: context: unexpected output" "$tmp/d"
			else
				ok "$fixture: context"
			fi
			norg=$(grep -c -F "* TODO [[view:./$fixture::" "$tmp/org")
			if [ "$norg" -ne "$nexp" ]; then
				notok "$fixture: org: $norg TODO lines, expected $nexp" \
					"$tmp/org"
			else
				ok "$fixture: org"
			fi
		done <"$list"
	else
		cat "$tmp/err2" >>"$tmp/err" 2>/dev/null
		fail_all "$list" "context or org run failed" "$tmp/err"
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
