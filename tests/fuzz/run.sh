#!/usr/bin/env bash
# Seeds and runs the fuzz targets of tests/fuzz/ (see README.md there).
#
#   run.sh NAME...     libFuzzer: each build/fuzz/fuzz_NAME for FUZZ_SECONDS,
#                      one after the other; new inputs go to
#                      build/fuzz/corpus/NAME, crashes to build/fuzz/crash/
#   run.sh --replay    make check: each build/tests/fuzz/replay_NAME once on its
#                      seeds and on tests/data/fuzz/NAME/ (past crashes)
#
# Seeds come from tests/data/ and are rebuilt on every run (small inputs
# only: libFuzzer's -max_len bounds the inputs it makes).
set -u
cd "$(dirname "$0")/../.."

MAX_LEN=65536

# Copies files into directory $1, named after their paths (the same name
# appears in several directories of tests/data/).
put() {
	local dir=$1 f; shift
	for f in "$@"; do
		[ -f "$f" ] && [ "$(stat -c %s "$f")" -le $MAX_LEN ] &&
			cp "$f" "$dir/$(echo "${f#tests/data/}" | tr / _)"
	done
	return 0
}

# Copies the inputs a target reads into $2, a fresh directory.
seed() {
	local name=$1 dir=$2 f k
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	case $name in
	spaa)
		put "$dir" tests/data/*.spaa* tests/data/bad/*.spaa* \
			tests/data/validate/*.spaa tests/data/dir/* ;;
	spaa_z)
		put "$dir" tests/data/*.spaa tests/data/bad/*.spaa \
			tests/data/validate/*.spaa ;;
	spx)
		# one input = KEY.json, then the decompressed KEY.txt.gz
		for f in tests/data/spx/*.json tests/data/spx/corpus/*/*.json \
			tests/data/bad/spx_*/*.json; do
			[ -f "$f" ] || continue
			k=$(echo "${f%.json}" | tr / _)
			{ cat "$f"; echo; zcat -f "${f%.json}.txt.gz" 2>/dev/null; } |
				head -c $MAX_LEN >"$dir/$k"
		done ;;
	perf)
		put "$dir" tests/data/*.perf
		for f in tests/data/*.perf-script.txt.gz; do
			zcat "$f" | head -c $MAX_LEN >"$dir/$(basename "$f" .gz)"
		done ;;
	folded)
		put "$dir" tests/data/*.folded ;;
	v8)
		put "$dir" tests/data/bad/v8_*.json tests/data/bad/v8_*.cpuprofile
		for f in tests/data/v8/*.cpuprofile* tests/data/v8/*.json*; do
			zcat -f "$f" | head -c $MAX_LEN >"$dir/$(basename "$f" .gz)"
		done ;;
	v8_heap)
		put "$dir" tests/data/bad/v8_heap* tests/data/v8/*.heapprofile
		for f in tests/data/v8/*.heapsnapshot.gz tests/data/v8/*.heaptimeline.gz; do
			zcat "$f" | head -c $MAX_LEN >"$dir/$(basename "$f" .gz)"
		done ;;
	dtrace)
		put "$dir" tests/data/dtrace/*.txt tests/data/bad/dtrace_* ;;
	ctf_clock)
		put "$dir" tests/data/ctf/*/metadata ;;
	tc_parsers)
		put "$dir" tools/tracecompass-parser.xml tests/data/tracecompass/*.xml ;;
	pprof)
		# plain protobuf: the Go profiles decompressed
		put "$dir" tests/data/pprof/*.pb tests/data/bad/pprof_*
		for f in tests/data/pprof/*.pb.gz; do
			zcat "$f" | head -c $MAX_LEN >"$dir/$(basename "$f" .gz)"
		done ;;
	lami)
		# the arguments of every golden command, NUL-separated
		/usr/bin/python3 - "$dir" <<'PY'
import glob, os, shlex, sys
for cmd in glob.glob("tests/golden/*.cmd"):
    try:
        words = shlex.split(open(cmd).read(), comments=True)
    except ValueError:
        continue
    for i, w in enumerate(words):
        if w.startswith("./spaa-"):
            args = []
            for a in words[i + 1:]:
                if a in ("|", ">", "2>", "<", "&&", ";"):
                    break
                args.append(a)
            name = os.path.basename(cmd)[:-4]
            with open(os.path.join(sys.argv[1], name), "wb") as f:
                f.write(b"\0".join(a.encode() for a in args))
            break
PY
		;;
	*)
		echo "run.sh: no seeds for '$name'" >&2; return 1 ;;
	esac
	put "$dir" tests/data/fuzz/"$name"/*
}

names() {
	for f in tests/fuzz/fuzz_*.c; do
		f=${f#tests/fuzz/fuzz_}; echo "${f%.c}"
	done
}

if [ "${1:-}" = --replay ]; then
	failed=
	for name in $(names); do
		dir=tests/out/fuzz-seeds/$name
		seed "$name" "$dir" || { failed="$failed $name"; continue; }
		n=$(ls "$dir" | wc -l)
		if ${SPAA_TEST_WRAPPER:-} build/tests/fuzz/replay_"$name" "$dir" \
			>tests/out/fuzz-seeds/"$name".log 2>&1; then
			echo "  ok    replay_$name ($n inputs)"
		else
			echo "  FAIL  replay_$name (tests/out/fuzz-seeds/$name.log)"
			tail -n 20 tests/out/fuzz-seeds/"$name".log
			failed="$failed $name"
		fi
	done
	[ -z "$failed" ] || { echo "fuzz replay failed:$failed"; exit 1; }
	exit 0
fi

: "${FUZZ_DIR:=build/fuzz}" "${FUZZ_SECONDS:=60}"
mkdir -p "$FUZZ_DIR/crash"
status=0
for name in "$@"; do
	seed "$name" "$FUZZ_DIR/seeds/$name" || exit 1
	mkdir -p "$FUZZ_DIR/corpus/$name"
	log=$FUZZ_DIR/$name.log
	dict=
	[ -f "tests/fuzz/$name.dict" ] && dict=-dict=tests/fuzz/$name.dict
	echo "== fuzz_$name for ${FUZZ_SECONDS}s (log: $log)"
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	"$FUZZ_DIR/fuzz_$name" -max_total_time="$FUZZ_SECONDS" \
		-max_len=$MAX_LEN -timeout=20 -print_final_stats=1 $dict \
		-artifact_prefix="$FUZZ_DIR/crash/$name-" \
		"$FUZZ_DIR/corpus/$name" "$FUZZ_DIR/seeds/$name" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	echo "   exit $rc, ${execs:-?} executions," \
		"corpus $(ls "$FUZZ_DIR/corpus/$name" | wc -l) inputs"
	if [ $rc -ne 0 ]; then
		grep -m3 -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log"
		status=1
	fi
done
exit $status
