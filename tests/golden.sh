#!/usr/bin/env bash
# golden.sh - run the expected-output tests in tests/golden/.
#
# usage: tests/golden.sh [--update] [CASE...]
#
# A case NAME is tests/golden/NAME.cmd: one line, a shell command run by
# bash from the repository root with stdin from /dev/null (the command may
# redirect its own input), e.g.
#     ./spaa-hotspots --limit 5 tests/data/small.spaa
# Beside it:
#     NAME.out       expected stdout
#     NAME.exit      expected exit status (absent: 0)
#     NAME.err.grep  optional: extended regexes, one a line, that must each
#                    match a line of stderr
#
# When the last program the command names (./spaa-X) is an analysis
# (analyses/X.c), stdout is LAMI and tests/validate_lami.py checks it:
# progress lines, then exactly one JSON object valid against schemas/, whose
# rows and cells fit the program's --metadata, an error object if and only
# if the exit status is not 0.  It is compared with NAME.out after
# canonical JSON formatting (sorted keys, indent 1), progress lines
# verbatim.  Other commands' stdout is compared byte for byte, and so is an
# analysis' when the command asks for --format text or csv.  In every
# case stderr must hold no sanitizer or valgrind report.
#
# A full run (no CASE named) also checks every analysis' --metadata output:
# exit 0, nothing on stderr, a valid metadata object.
#
# --update (make golden) rewrites NAME.out, in canonical form, and
# NAME.exit from the current binaries; review the diff before committing.
#
# Environment:
#     SPAA_TEST_WRAPPER  put before every ./spaa-X in the commands, e.g.
#                        "valgrind --error-exitcode=99 -q" (make valgrind)
#     GOLDEN_TIMEOUT     seconds allowed per command (default 60)
#     PYTHON             interpreter with jsonschema (default /usr/bin/python3)
#
# Actual outputs are kept in tests/out/golden/ for inspection.  Prints
# "ok N NAME" or "FAIL N NAME" and the reasons per case, and finally
# "P passed, F failed"; exits 1 if anything failed.

set -u
export LC_ALL=C
# the text width and the default format come from these: fixed by the cases
unset COLUMNS SPAA_FORMAT
cd "$(dirname "$0")/.." || exit 2

PYTHON=${PYTHON:-/usr/bin/python3}
TIMEOUT=${GOLDEN_TIMEOUT:-60}
WRAPPER=${SPAA_TEST_WRAPPER:-}
GOLDEN=tests/golden
OUT=tests/out/golden
VALIDATE=tests/validate_lami.py
# What ASan, UBSan, LeakSanitizer and valgrind print when they find a bug.
REPORT_RE='^==[0-9]+==|^(ERROR|WARNING): [A-Za-z]*Sanitizer|runtime error: '

update=0
case ${1-} in
--update) update=1; shift ;;
-h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
-*) echo "usage: tests/golden.sh [--update] [CASE...]" >&2; exit 2 ;;
esac

rm -rf "$OUT"
mkdir -p "$OUT" || exit 2

n=0
passed=0
failed=0

# report NAME PROBLEMS: one "ok"/"FAIL" line, then the problems indented.
report() {
	n=$((n + 1))
	if [ -z "$2" ]; then
		passed=$((passed + 1))
		echo "ok $n $1"
	else
		failed=$((failed + 1))
		echo "FAIL $n $1"
		printf '%s\n' "$2" | sed 's/^/    /'
	fi
}

# add TEXT: appends TEXT, if any, as lines to the caller's $problems.
add() {
	[ -z "$1" ] || problems+=${problems:+$'\n'}$1
}

# validate ARGS...: runs validate_lami.py -q --label stdout ARGS; prints
# its findings, or why it could not run.
validate() {
	local text status
	text=$("$PYTHON" "$VALIDATE" -q --label stdout "$@" 2>&1)
	status=$?
	printf '%s' "$text"
	if [ "$status" != 0 ] && [ -z "$text" ]; then
		printf '%s exited with status %s' "$VALIDATE" "$status"
	fi
}

# wrap CMD: CMD with $WRAPPER put before each ./spaa-X word.
wrap() {
	local w=$WRAPPER
	[ -n "$w" ] || { printf '%s\n' "$1"; return; }
	w=${w//\\/\\\\}
	w=${w//&/\\&}
	w=${w//#/\\#}
	printf '%s\n' "$1" | sed -E "s#(^|[[:space:];|&(])\\./spaa-#\\1$w ./spaa-#g"
}

# run CMD BASE: runs CMD, leaving BASE.stdout, BASE.stderr; sets $rc.
run() {
	local cmd
	cmd=$(wrap "$1")
	if command -v timeout >/dev/null; then
		timeout -k 10 "$TIMEOUT" bash -c "$cmd" \
			</dev/null >"$2.stdout" 2>"$2.stderr"
	else
		bash -c "$cmd" </dev/null >"$2.stdout" 2>"$2.stderr"
	fi
	rc=$?
}

# analysis_of CMD: prints X when the last ./spaa-X in CMD is an analysis.
analysis_of() {
	local words=${1//[|;&()<>]/ } w last=
	set -f
	for w in $words; do
		[[ $w =~ ^(\./)?spaa-([A-Za-z0-9_+-]+)$ ]] && last=${BASH_REMATCH[2]}
	done
	set +f
	[ -n "$last" ] && [ -f "analyses/$last.c" ] || return 0
	# text and csv are for people and spreadsheets, not LAMI
	[[ $1 =~ --format[=[:space:]]+(text|csv) ]] || printf '%s\n' "$last"
}

# stderr_problems BASE NAME: sanitizer reports and .err.grep mismatches.
stderr_problems() {
	local re
	if grep -Eq "$REPORT_RE" "$1.stderr"; then
		echo "stderr holds a sanitizer or valgrind report:"
		grep -E -m 5 -A 8 "$REPORT_RE" "$1.stderr"
	fi
	[ -f "$GOLDEN/$2.err.grep" ] || return 0
	while IFS= read -r re || [ -n "$re" ]; do
		[ -n "$re" ] || continue
		grep -Eq -e "$re" "$1.stderr" ||
			echo "stderr matches no line of /$re/"
	done <"$GOLDEN/$2.err.grep"
}

# metadata_check X: validates ./spaa-X --metadata; a valid one is kept in
# $OUT/X.metadata.json for the cases' cross-checks.
metadata_check() {
	local base=$OUT/$1.metadata problems=''
	run "./spaa-$1 --metadata" "$base"
	[ "$rc" = 0 ] || add "exit status $rc"
	if [ -s "$base.stderr" ]; then
		add "stderr is not empty (Trace Compass merges it into stdout):"
		add "$(head -n 10 "$base.stderr")"
	fi
	add "$(validate --exit-status "$rc" "$base.stdout")"
	[ -n "$problems" ] || cp "$base.stdout" "$OUT/$1.metadata.json"
	report "spaa-$1 --metadata" "$problems"
}

# snapshot NAME: a checksum of the expected files of case NAME.
snapshot() {
	local f
	for f in "$GOLDEN/$1.out" "$GOLDEN/$1.exit"; do
		if [ -f "$f" ]; then echo "$f"; cat "$f"; fi
	done | cksum
}

# golden_case NAME
golden_case() {
	local name=$1 base=$OUT/$1 cmd prog expected_rc=0 problems='' meta
	local out=$GOLDEN/$1.out
	cmd=$(<"$GOLDEN/$name.cmd")
	if [ -z "$cmd" ] || [[ $cmd == *$'\n'* ]]; then
		report "$name" "$GOLDEN/$name.cmd must hold exactly one command line"
		return
	fi
	if [ -f "$GOLDEN/$name.exit" ]; then
		expected_rc=$(tr -d ' \t\n' <"$GOLDEN/$name.exit")
		if ! [[ $expected_rc =~ ^[0-9]+$ ]]; then
			report "$name" "$GOLDEN/$name.exit is not a number"
			return
		fi
	fi
	run "$cmd" "$base"
	prog=$(analysis_of "$cmd")
	meta=()
	if [ -n "$prog" ] && [ -f "$OUT/$prog.metadata.json" ]; then
		meta=(--metadata "$OUT/$prog.metadata.json")
	fi

	if [ "$update" = 1 ]; then
		local before
		before=$(snapshot "$name")
		if [ -n "$prog" ]; then
			add "$(validate --exit-status "$rc" ${meta[@]+"${meta[@]}"} \
				--canonical-out "$out" "$base.stdout")"
		else
			cp "$base.stdout" "$out"
		fi
		if [ "$rc" = 0 ]; then
			rm -f "$GOLDEN/$name.exit"
		else
			echo "$rc" >"$GOLDEN/$name.exit"
		fi
		add "$(stderr_problems "$base" "$name")"
		if [ "$before" != "$(snapshot "$name")" ]; then
			name+=" (updated)"
		fi
		report "$name" "$problems"
		return
	fi

	if [ "$rc" != "$expected_rc" ]; then
		if [ "$rc" = 124 ]; then
			add "timed out after ${TIMEOUT}s (exit status 124)"
		else
			add "exit status $rc, expected $expected_rc"
		fi
	fi
	add "$(stderr_problems "$base" "$name")"
	if [ ! -f "$out" ]; then
		add "no $out: write it with 'make golden' and review it"
	elif [ -n "$prog" ]; then
		add "$(validate --exit-status "$rc" ${meta[@]+"${meta[@]}"} \
			--expect "$out" "$base.stdout")"
	else
		add "$(diff -u --label "$out" --label actual "$out" "$base.stdout" |
			head -n 120)"
	fi
	if [ -n "$problems" ] && [ -s "$base.stderr" ] &&
		[[ $problems != *"valgrind report"* ]]; then
		add "stderr ($base.stderr):"
		add "$(head -n 15 "$base.stderr")"
	fi
	report "$name" "$problems"
}

if [ $# -gt 0 ]; then
	cases=("$@")
	for c in "${cases[@]}"; do
		c=${c%.cmd}
		c=${c##*/}
		if [ ! -f "$GOLDEN/$c.cmd" ]; then
			echo "golden.sh: no case $GOLDEN/$c.cmd" >&2
			exit 2
		fi
	done
	# Metadata for the cross-checks, without reporting on it.
	for src in analyses/*.c; do
		[ -f "$src" ] || continue
		x=${src#analyses/}
		x=${x%.c}
		run "./spaa-$x --metadata" "$OUT/$x.metadata"
		[ "$rc" = 0 ] && cp "$OUT/$x.metadata.stdout" "$OUT/$x.metadata.json"
	done
else
	for src in analyses/*.c; do
		[ -f "$src" ] || continue
		x=${src#analyses/}
		metadata_check "${x%.c}"
	done
	cases=()
	for f in "$GOLDEN"/*.cmd; do
		[ -f "$f" ] || continue
		f=${f##*/}
		cases+=("${f%.cmd}")
	done
fi

for c in ${cases[@]+"${cases[@]}"}; do
	c=${c%.cmd}
	golden_case "${c##*/}"
done

# Expected files without a command are left-overs of a renamed case.
if [ $# = 0 ]; then
	for f in "$GOLDEN"/*.out "$GOLDEN"/*.exit "$GOLDEN"/*.err.grep; do
		[ -f "$f" ] || continue
		c=${f##*/}
		c=${c%.out}
		c=${c%.exit}
		c=${c%.err.grep}
		[ -f "$GOLDEN/$c.cmd" ] || report "${f##*/}" "$f has no $GOLDEN/$c.cmd"
	done
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
