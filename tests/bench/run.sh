#!/bin/bash
# run.sh - the benchmark table of make bench (tests/bench/README.md).
#
# usage: tests/bench/run.sh        (from anywhere, after make and the
#                                   bench helpers: make bench runs it)
# BENCH_DIR      where the generated profiles and helpers are (build/bench)
# BENCH_SAMPLES  sample records of the main profile (1500000, ~250 MB)
# BENCH_JQ_MB    size of the slice jq runs on (20)
# BENCH_BIG=1    also a profile with 10x the samples: peak RSS growth
# BENCH_SCALE    sample count of the scaling check's 1x profile (250000);
#                it also runs on 4x and 16x (0 skips the check)
# BENCH_PERF     seconds of perf record for the perf script figure (10;
#                0 skips it)
# BENCH_FILES    files of the many-files check (2000; ten times as many
#                too; 0 skips it)
# BENCH_PAIRS    paired taskset runs (1 core, 2 cores, and CPU 1 alone) of the
#                cores rows (3)
# BENCH_ROUNDS   rounds of reference then spaa-hotspots behind each issue 18
#                target (3)
# BENCH_MIXED    0 skips the mixed-shape profile (gen -m, SAMPLES samples)
# BENCH_MAIN     0 skips the main profile's rows (the other parts alone)
# BENCH_PPROF    samples of the generated pprof profile (100000; 0 skips it)
# BENCH_V8       samples of the generated .cpuprofile (2000000; 0 skips it)
#
# One run, on this machine: each program on the plain, zstd and gzip copy,
# then the reference figures, then the ratios.  Benchmarks report, they
# never fail: the exit status is 0 whatever the numbers.

set -u
cd "$(dirname "$0")/../.." || exit 0

DIR=${BENCH_DIR:-build/bench}
N=${BENCH_SAMPLES:-1500000}
JQ_MB=${BENCH_JQ_MB:-20}
GEN=$DIR/gen
NAIVE=$DIR/naive
# wall, user, sys and peak RSS of a command, to the microsecond (timed.c)
TIMED=$DIR/timed
TMP=$(mktemp -d) || exit 0
trap 'rm -rf "$TMP"' EXIT

note() { printf '%s\n' "$*"; }

if [ ! -x "$GEN" ] || [ ! -x "$NAIVE" ]; then
	note "bench: $GEN or $NAIVE is missing: run make bench"
	exit 0
fi

# gen_file N: the plain profile of N samples, made once and reused; its
# stacks are those of the main profile (the generator's default for N).
KSTACKS=$(( N / 30 > 50000 ? 50000 : (N / 30 < 1 ? 1 : N / 30) ))
gen_file() {
	local f=$DIR/bench-$1-k$KSTACKS.spaa
	if [ ! -s "$f" ]; then
		note "bench: generating $f ($1 samples)" >&2
		"$GEN" -k "$KSTACKS" "$1" >"$f.tmp" && mv "$f.tmp" "$f" || { rm -f "$f.tmp"; return 1; }
	fi
	printf '%s\n' "$f"
}

PLAIN=$(gen_file "$N") || { note "bench: generator failed"; exit 0; }
ZST=$PLAIN.zst
GZ=$PLAIN.gz
if [ ! -s "$ZST" ]; then
	note "bench: compressing $ZST (zstd -3)"
	zstd -3 -q -c "$PLAIN" >"$ZST.tmp" && mv "$ZST.tmp" "$ZST"
fi
if [ ! -s "$GZ" ]; then
	note "bench: compressing $GZ (gzip -6)"
	gzip -6 -c "$PLAIN" >"$GZ.tmp" && mv "$GZ.tmp" "$GZ"
fi
SIZE=$(stat -c %s "$PLAIN")

# spaa-allocs analyses memory profiles only: the same profile with its
# event made an allocation event ('malloc', weights in bytes and counts),
# so that it can be compared with spaa-hotspots on the same bytes.
ALLOC=$PLAIN.alloc.spaa
if [ ! -s "$ALLOC" ]; then
	note "bench: writing $ALLOC (the profile as allocations)"
	sed -e 's/"name":"cpu-clock:ppp","kind":"software","sampling":{"mode":"frequency","primary_metric":"period","frequency_hz":999}/"name":"malloc","kind":"allocation","sampling":{"mode":"event","primary_metric":"alloc_bytes"},"allocation_tracking":{"tracks_frees":false,"has_timestamps":true}/' \
		-e 's/"cpu-clock:ppp"/"malloc"/g' \
		-e 's/"metric":"period","value":\([0-9]*\),"unit":"events"/"metric":"alloc_bytes","value":\1,"unit":"bytes"/g' \
		-e 's/"metric":"samples","value"/"metric":"alloc_count","value"/g' \
		"$PLAIN" >"$ALLOC.tmp" && mv "$ALLOC.tmp" "$ALLOC"
fi
ASIZE=$(stat -c %s "$ALLOC" 2>/dev/null || echo 0)

# jq is slow: it runs on a slice of about JQ_MB MB, the header and every
# K-th line, so that the slice has the file's mix of stack and sample
# records; its time is scaled to the whole file.
K=$(( (SIZE + JQ_MB * 1048576 - 1) / (JQ_MB * 1048576) ))
SLICE=$PLAIN.jq-slice-1-in-$K.spaa
if [ ! -s "$SLICE" ] && command -v jq >/dev/null 2>&1; then
	awk -v k="$K" 'NR == 1 || NR % k == 0' "$PLAIN" >"$SLICE.tmp" &&
		mv "$SLICE.tmp" "$SLICE"
fi

declare -A WALL CPU RSS SC_SIZE

# measure KEY BYTES LABEL INPUT_NAME COMMAND: runs COMMAND (bash -c, with
# pipefail) under timed (timed.c), prints a row and records wall, user+sys
# and peak RSS under KEY.  BYTES is the uncompressed input it reads.
measure() {
	local key=$1 bytes=$2 label=$3 input=$4 cmd=$5 st wall user sys kb
	"$TIMED" "$TMP/time" bash -c "set -o pipefail; $cmd" >"$TMP/out" 2>"$TMP/err"
	st=$?
	read -r wall user sys kb <"$TMP/time" 2>/dev/null ||
		{ wall=0; user=0; sys=0; kb=0; }
	case $wall in [0-9]*) ;; *) wall=0 user=0 sys=0 kb=0 ;; esac
	WALL[$key]=$wall
	CPU[$key]=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.6f", u + s }')
	RSS[$key]=$kb
	awk -v in_="$input" -v l="$label" -v b="$bytes" -v w="$wall" \
		-v c="${CPU[$key]}" -v kb="$kb" -v st="$st" 'BEGIN {
		mb = b / 1e6
		printf "%-5s %-34s %7.2f %7.2f %8.1f %8.1f %8.1f  %s\n", in_, l,
			w, c, (w > 0 ? mb / w : 0), (c > 0 ? mb / c : 0), kb / 1024,
			(st == 0 ? "ok" : "exit " st)
	}'
	if [ "$st" != 0 ]; then
		sed 's/^/      | /' "$TMP/err" | head -n 3
	fi
}

header() {
	printf '%-5s %-34s %7s %7s %8s %8s %8s  %s\n' input program wall_s \
		cpu_s MB/s MB/s_cpu RSS_MB status
}

# median VALUES...: the median of the numbers given ("n/a" without one).
median() {
	printf '%s\n' "$@" | grep -v n/a | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "n/a" }'
}

# pairs KEY CMD: BENCH_PAIRS (3) paired runs of CMD pinned to one CPU
# (taskset -c 0) and to two (-c 0,1), measured as KEY.core1.i and
# KEY.core2.i, and a run on CPU 1 alone (KEY.cpu1.i); sets PAIRS to the
# speed-ups against CPU 0 and MEDIAN to their median (other builds on
# the machine make a single pair noisy), BEST_PAIRS and BEST_MEDIAN to
# those against the faster of CPU 0 and CPU 1 alone: on this virtual
# machine one CPU has run a single thread 1.6 times slower than the
# other for minutes at a time (no steal time shown), which makes the
# speed-up against it say more than the second core gives.  Each pair
# also runs CMD twice at once, one run pinned to each CPU (KEY.both.i):
# SHARED is the median of that wall time over the faster one-CPU run's,
# 1.00 when the CPUs are independent.  Two CPUs of this virtual machine
# have slowed two such runs by 5 % at one time and 65 % at another, so
# no program's second core can give more than 2 / SHARED then.
pairs() {
	local key=$1 bytes=$2 input=$3 cmd=$4 i r one shared=""
	PAIRS="" BEST_PAIRS=""
	for ((i = 1; i <= ${BENCH_PAIRS:-3}; i++)); do
		measure "$key.core1.$i" "$bytes" "spaa-hotspots, 1 core" "$input" "taskset -c 0 $cmd"
		measure "$key.core2.$i" "$bytes" "spaa-hotspots, 2 cores" "$input" "taskset -c 0,1 $cmd"
		measure "$key.cpu1.$i" "$bytes" "spaa-hotspots, 1 core (CPU 1)" "$input" "taskset -c 1 $cmd"
		measure "$key.both.$i" "$((2 * bytes))" "2 runs at once, 1 core each" "$input" \
			"taskset -c 0 $cmd >/dev/null & a=\$!; taskset -c 1 $cmd >/dev/null && wait \$a"
		r=$(ratio "${WALL[$key.core1.$i]}" "${WALL[$key.core2.$i]}")
		PAIRS="$PAIRS $r"
		one=$(awk -v a="${WALL[$key.core1.$i]:-0}" -v b="${WALL[$key.cpu1.$i]:-0}" 'BEGIN { print (b > 0 && b < a) ? b : a }')
		BEST_PAIRS="$BEST_PAIRS $(ratio "$one" "${WALL[$key.core2.$i]}")"
		shared="$shared $(ratio "${WALL[$key.both.$i]}" "$one")"
	done
	MEDIAN=$(median $PAIRS)
	BEST_MEDIAN=$(median $BEST_PAIRS)
	SHARED=$(median $shared)
	CEILING=$(ratio 2 "$SHARED")
}

# time_of COMMAND: runs COMMAND as measure does, without a row; sets
# T_WALL and T_CPU (user+sys) in seconds, 0 when it failed.
time_of() {
	local st wall user sys kb
	"$TIMED" "$TMP/time" bash -c "set -o pipefail; $1" >/dev/null 2>&1
	st=$?
	read -r wall user sys kb <"$TMP/time" 2>/dev/null || wall=0
	case $st.$wall in 0.[0-9]*) ;; *) wall=0 user=0 sys=0 ;; esac
	T_WALL=$wall
	T_CPU=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.6f", u + s }')
}

# rounds FIELD SCALE REFERENCE OURS: BENCH_ROUNDS (3) rounds of the
# command REFERENCE and then OURS, one right after the other; sets ROUNDS
# to each round's ratio of REFERENCE's FIELD (wall or cpu) times SCALE
# to OURS', ROUNDS_MEDIAN to their median and OURS_TIMES to OURS' FIELD
# in each round.  The host's speed drifts by tens of per cent from one
# minute to the next (doc/PERFORMANCE.md): runs a second apart share it,
# the rows of the table above need not, so the issue 18 targets are
# judged on these rounds.
rounds() {
	local field=$1 scale=$2 ref=$3 ours=$4 a b i
	ROUNDS="" OURS_TIMES=""
	for ((i = 1; i <= ${BENCH_ROUNDS:-3}; i++)); do
		time_of "$ref"
		if [ "$field" = wall ]; then a=$T_WALL; else a=$T_CPU; fi
		a=$(awk -v a="$a" -v s="$scale" 'BEGIN { print a * s }')
		time_of "$ours"
		if [ "$field" = wall ]; then b=$T_WALL; else b=$T_CPU; fi
		ROUNDS="$ROUNDS $(ratio "$a" "$b")"
		OURS_TIMES="$OURS_TIMES $(printf %.3f "$b")"
	done
	ROUNDS_MEDIAN=$(median $ROUNDS)
}

# target18 LABEL FIELD SCALE REFERENCE OURS TARGET: a target of issue 18
# from rounds, as a line with every round's ratio and the verdict.
target18() {
	rounds "$2" "$3" "$4" "$5"
	note "    $1: median $ROUNDS_MEDIAN (rounds:$ROUNDS; spaa-hotspots$OURS_TIMES s)  target >= $6: $(verdict "$ROUNDS_MEDIAN" '>=' "$6")"
}

# targets18 PLAIN ZST JQ_CMD JQ_SCALE: the three targets of issue 18 on
# a profile's plain and zstd copies; jq's on its slice (JQ_CMD, whose
# time times JQ_SCALE is the whole file's), left out when JQ_CMD is empty.
targets18() {
	local plain zst
	plain=$(printf %q "$1") zst=$(printf %q "$2")
	target18 "hotspots vs naive cJSON, CPU time" cpu 1 \
		"$NAIVE $plain" "./spaa-hotspots $plain" 2.5
	# the same work on one thread: what a core costs without a second
	# one to hand blocks to (input.h, SPAA_INPUT_SYNC_MIN)
	target18 "hotspots --threads 1 vs naive cJSON, CPU time" cpu 1 \
		"$NAIVE $plain" "./spaa-hotspots --threads 1 $plain" 2.5
	[ -z "$3" ] || target18 "hotspots vs jq (scaled from the slice), wall" wall \
		"$4" "$3" "./spaa-hotspots $plain" 12
	target18 "hotspots on zstd vs zstd -dc | wc -l, wall" wall 1 \
		"zstd -dc $zst | wc -l" "./spaa-hotspots $zst" 0.5
}

# ratio A B: A / B with two decimals ("n/a" when either is missing or 0).
ratio() {
	awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN {
		if (a > 0 && b > 0) printf "%.2f", a / b; else printf "n/a" }'
}

# verdict VALUE OP TARGET: "met" or "NOT met".
verdict() {
	awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN {
		if (v == "n/a") { print "not measured"; exit }
		ok = op == ">=" ? v + 0 >= t + 0 : op == "<=" ? v + 0 <= t + 0 : v + 0 < t + 0
		print ok ? "met" : "NOT met" }'
}

MB=$(awk -v b="$SIZE" 'BEGIN { printf "%.1f", b / 1e6 }')
STACKS=$(grep -c '"type":"stack"' "$PLAIN")
note "== make bench: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
note "profile: $PLAIN: $N samples, $STACKS stack records, $MB MB plain;" \
	"zstd -3 $(awk -v b="$(stat -c %s "$ZST")" 'BEGIN { printf "%.1f", b / 1e6 }') MB," \
	"gzip -6 $(awk -v b="$(stat -c %s "$GZ")" 'BEGIN { printf "%.1f", b / 1e6 }') MB"
note "MB/s = uncompressed MB read / wall (or user+sys CPU) seconds; MB = 1e6 bytes;"
note "RSS = peak resident set (of the largest process of a pipeline); times from wait4 (timed.c)."
note "spaa-diff compares the file with itself, so it reads twice the bytes."
note ""

PROGRAMS="hotspots phases diff validate convert"
cmd_for() { # PROGRAM FILE
	case $1 in
	hotspots) printf './spaa-hotspots %q' "$2" ;;
	phases) printf './spaa-phases %q' "$2" ;;
	diff) printf './spaa-diff %q %q' "$2" "$2" ;;
	validate) printf './spaa-validate --quiet %q' "$2" ;;
	convert) printf './spaa-convert --to folded %q' "$2" ;;
	esac
}
label_for() {
	case $1 in
	diff) echo "spaa-diff FILE FILE" ;;
	validate) echo "spaa-validate --quiet" ;;
	convert) echo "spaa-convert --to folded" ;;
	*) echo "spaa-$1" ;;
	esac
}

# BENCH_MAIN=0 skips the rows of the main profile (every program on its
# three copies, the references, the ratios): the other parts alone.
if [ "${BENCH_MAIN:-1}" != 0 ]; then
header
for in_ in plain zst gz; do
	case $in_ in plain) f=$PLAIN ;; zst) f=$ZST ;; gz) f=$GZ ;; esac
	cat "$f" >/dev/null # into the page cache, like every later read
	for p in $PROGRAMS; do
		bytes=$SIZE
		[ "$p" = diff ] && bytes=$((2 * SIZE))
		measure "$p.$in_" "$bytes" "$(label_for "$p")" "$in_" "$(cmd_for "$p" "$f")"
	done
done

note ""
note "the profile as allocations ($ALLOC, $(awk -v b="$ASIZE" 'BEGIN { printf "%.1f", b / 1e6 }') MB):"
header
cat "$ALLOC" >/dev/null
for p in hotspots allocs phases; do
	measure "$p.alloc" "$ASIZE" "spaa-$p" alloc "./spaa-$p $(printf %q "$ALLOC")"
done

note ""
note "reference figures (same run):"
header
measure ref.wc "$SIZE" "wc -l FILE" plain "wc -l $(printf %q "$PLAIN")"
measure ref.zstd "$SIZE" "zstd -dc FILE | wc -l" zst "zstd -dc $(printf %q "$ZST") | wc -l"
measure ref.gzip "$SIZE" "gzip -dc FILE | wc -l" gz "gzip -dc $(printf %q "$GZ") | wc -l"
measure naive.plain "$SIZE" "naive cJSON loop" plain "$NAIVE $(printf %q "$PLAIN")"
naive_out=$(cat "$TMP/out")
measure naive.zst "$SIZE" "zstd -dc FILE | naive" zst "zstd -dc $(printf %q "$ZST") | $NAIVE"
if [ -s "$SLICE" ] && command -v jq >/dev/null 2>&1; then
	SLICE_SIZE=$(stat -c %s "$SLICE")
	JQ_CMD="jq -c 'select(.type==\"stack\")' $(printf %q "$SLICE") | wc -l"
	measure jq.slice "$SLICE_SIZE" "jq select(stack) | wc -l, slice" plain "$JQ_CMD"
	JQ_SCALED=$(awk -v w="${WALL[jq.slice]}" -v a="$SIZE" -v b="$SLICE_SIZE" \
		'BEGIN { printf "%.2f", w * a / b }')
	JQ_SCALED_CPU=$(awk -v w="${CPU[jq.slice]}" -v a="$SIZE" -v b="$SLICE_SIZE" \
		'BEGIN { printf "%.2f", w * a / b }')
	note "      jq ran on $(awk -v b="$SLICE_SIZE" 'BEGIN { printf "%.1f", b / 1e6 }') MB" \
		"(the header and every ${K}th line of the file, the file's record mix);"
	note "      scaled to the whole file: ${JQ_SCALED} s wall, ${JQ_SCALED_CPU} s CPU" \
		"(jq's MB/s above are its real rate)"
else
	JQ_SCALED=0 JQ_SCALED_CPU=0 JQ_CMD=""
	note "      jq: not installed, left out"
fi
note "      naive counted: $naive_out (stack records, lines)"

note ""
note "ratios (wall; CPU = user+sys in brackets; > 1 means spaa-hotspots is faster):"
r=$(ratio "${WALL[naive.plain]}" "${WALL[hotspots.plain]}")
note "  hotspots vs naive cJSON, plain:   $r ($(ratio "${CPU[naive.plain]}" "${CPU[hotspots.plain]}"))  target >= 2.5: $(verdict "$r" '>=' 2.5)"
r=$(ratio "$JQ_SCALED" "${WALL[hotspots.plain]}")
note "  hotspots vs jq (scaled), plain:   $r ($(ratio "$JQ_SCALED_CPU" "${CPU[hotspots.plain]}"))  target >= 10: $(verdict "$r" '>=' 10)"
r=$(ratio "${WALL[hotspots.plain]}" "${WALL[hotspots.zst]}")
note "  hotspots zst / plain throughput:  $r ($(ratio "${CPU[hotspots.plain]}" "${CPU[hotspots.zst]}"))  target >= 0.8: $(verdict "$r" '>=' 0.8)"
note "  hotspots zst vs zstd -dc | wc -l: $(ratio "${WALL[ref.zstd]}" "${WALL[hotspots.zst]}") (the decompression limit is 1.00)"
note "  issue 18 targets on this file, ${BENCH_ROUNDS:-3} rounds of the reference and spaa-hotspots one right after the other (load $(cut -d' ' -f1-3 /proc/loadavg)):"
targets18 "$PLAIN" "$ZST" "$JQ_CMD" "$(awk -v a="$SIZE" -v b="${SLICE_SIZE:-1}" 'BEGIN { print a / b }')"
note "  hotspots gz / plain throughput:   $(ratio "${WALL[hotspots.plain]}" "${WALL[hotspots.gz]}") ($(ratio "${CPU[hotspots.plain]}" "${CPU[hotspots.gz]}"))  bounded by zlib: hotspots gz runs at $(ratio "${WALL[ref.gzip]}" "${WALL[hotspots.gz]}") of gzip -dc | wc -l's speed"
note "  analysis time / hotspots time, same file (target <= 1.5; diff reads the file twice):"
for in_ in plain zst gz; do
	line="    $in_:"
	for p in phases validate convert; do
		r=$(ratio "${WALL[$p.$in_]}" "${WALL[hotspots.$in_]}")
		line="$line $p $r ($(verdict "$r" '<=' 1.5))"
	done
	# diff reads the file twice: its time per byte against hotspots'
	r=$(ratio "${WALL[diff.$in_]}" "$(awk -v w="${WALL[hotspots.$in_]}" 'BEGIN { print 2 * w }')")
	line="$line diff per byte read $r ($(verdict "$r" '<=' 1.5))"
	note "$line"
done
line="    alloc:"
for p in allocs phases; do
	r=$(ratio "${WALL[$p.alloc]}" "${WALL[hotspots.alloc]}")
	line="$line $p $r ($(verdict "$r" '<=' 1.5))"
done
note "$line"
line="  peak RSS on the plain file (target <= 48 MB):"
for p in $PROGRAMS; do
	mb=$(awk -v k="${RSS[$p.plain]}" 'BEGIN { printf "%.1f", k / 1024 }')
	line="$line $p $mb ($(verdict "$mb" '<=' 48))"
done
mb=$(awk -v k="${RSS[allocs.alloc]}" 'BEGIN { printf "%.1f", k / 1024 }')
line="$line; allocs (alloc file) $mb ($(verdict "$mb" '<=' 48))"
note "$line"
fi

# pprof: a generated Go-like CPU profile (tests/bench/gen_pprof.py: every
# sample its own random stack, so the model is as large as it gets); MB/s
# of the decoded protobuf, which the reader holds whole (pprof.h).
PP_N=${BENCH_PPROF:-100000}
if [ "$PP_N" != 0 ]; then
	PP=$DIR/bench-pprof-$PP_N.pb.gz
	if [ ! -s "$PP" ]; then
		note "bench: generating $PP ($PP_N samples)"
		/usr/bin/python3 tests/bench/gen_pprof.py "$PP_N" "$PP" || rm -f "$PP"
	fi
fi
if [ "$PP_N" != 0 ] && [ -s "$PP" ]; then
	PPSIZE=$(gzip -dc "$PP" | wc -c)
	note ""
	note "pprof ($PP: $PP_N samples, $(awk -v b="$PPSIZE" 'BEGIN { printf "%.1f", b / 1e6 }') MB decoded):"
	header
	cat "$PP" >/dev/null
	measure pprof.hot "$PPSIZE" "spaa-hotspots" pprof "./spaa-hotspots $(printf %q "$PP")"
	measure pprof.conv "$PPSIZE" "spaa-convert (to SPAA)" pprof \
		"./spaa-convert -o $TMP/pprof.spaa $(printf %q "$PP")"
	measure pprof.gz "$PPSIZE" "gzip -dc FILE | wc -c" pprof "gzip -dc $(printf %q "$PP") | wc -c"
	if command -v go >/dev/null 2>&1; then
		measure pprof.go "$PPSIZE" "go tool pprof -top" pprof \
			"go tool pprof -top $(printf %q "$PP")"
	fi
	note "  spaa-convert / spaa-hotspots wall: $(ratio "${WALL[pprof.conv]}" "${WALL[pprof.hot]}") (the reader's share of an analysis)"
fi

if [ "${BENCH_BIG:-0}" = 1 ]; then
	note ""
	BIG=$(gen_file $((10 * N))) || { note "bench: generator failed"; exit 0; }
	BSIZE=$(stat -c %s "$BIG")
	note "memory growth: $BIG, 10x the samples, same stacks ($(awk -v b="$BSIZE" 'BEGIN { printf "%.1f", b / 1e6 }') MB plain)"
	header
	cat "$BIG" >/dev/null
	for p in $PROGRAMS; do
		bytes=$BSIZE
		[ "$p" = diff ] && bytes=$((2 * BSIZE))
		measure "$p.big" "$bytes" "$(label_for "$p")" "10x" "$(cmd_for "$p" "$BIG")"
	done
	line="  peak RSS growth 1x -> 10x (target < 10 %):"
	for p in $PROGRAMS; do
		g=$(awk -v a="${RSS[$p.big]}" -v b="${RSS[$p.plain]}" \
			'BEGIN { if (b > 0) printf "%.1f", (a / b - 1) * 100; else printf "n/a" }')
		line="$line $p ${g}% ($(verdict "$g" '<' 10))"
	done
	note "$line"
	line="  time 10x / 1x (linear = 10):"
	for p in $PROGRAMS; do
		line="$line $p $(ratio "${WALL[$p.big]}" "${WALL[$p.plain]}")"
	done
	note "$line"
else
	note "  (BENCH_BIG=1 adds the 10x-samples memory growth check: ~2.5 GB of disk)"
fi

# The mixed shape (gen -m): two events, window records, a fifth of the
# sample and stack records with their keys in another order and one in a
# hundred with an escape; the fast paths' hit rates from SPAA_STATS, and the
# targets of issue 18 on it.
if [ "${BENCH_MIXED:-1}" = 1 ]; then
	note ""
	# mixed2: the shape since stack records vary too (gen.c)
	MIXED=$DIR/bench-mixed2-$N-k$KSTACKS.spaa
	if [ ! -s "$MIXED" ]; then
		note "bench: generating $MIXED" >&2
		"$GEN" -m -k "$KSTACKS" "$N" >"$MIXED.tmp" && mv "$MIXED.tmp" "$MIXED"
	fi
	[ -s "$MIXED.zst" ] || { zstd -3 -q -c "$MIXED" >"$MIXED.zst.tmp" && mv "$MIXED.zst.tmp" "$MIXED.zst"; }
	MSLICE=$MIXED.jq-slice-1-in-$K.spaa
	if [ ! -s "$MSLICE" ] && command -v jq >/dev/null 2>&1; then
		awk -v k="$K" 'NR == 1 || NR % k == 0' "$MIXED" >"$MSLICE.tmp" && mv "$MSLICE.tmp" "$MSLICE"
	fi
	MSIZE=$(stat -c %s "$MIXED")
	note "mixed shape: $MIXED ($(awk -v b="$MSIZE" 'BEGIN { printf "%.1f", b / 1e6 }') MB: 2 events, window records, 20 % of samples and stacks in another key order, 1 % with an escape):"
	header
	cat "$MIXED" "$MIXED.zst" >/dev/null
	measure mixed.plain "$MSIZE" "spaa-hotspots" plain "SPAA_STATS=1 ./spaa-hotspots $(printf %q "$MIXED")"
	hit=$(sed -n 's/.*stats: .* sample records: .* fast path \([0-9.]*\) %.*/\1/p' "$TMP/err")
	shit=$(sed -n 's/.*stats: .* stack records: .* fast path \([0-9.]*\) %.*/\1/p' "$TMP/err")
	measure mixed.zst "$MSIZE" "spaa-hotspots" zst "./spaa-hotspots $(printf %q "$MIXED.zst")"
	measure mixed.naive "$MSIZE" "naive cJSON loop" plain "$NAIVE $(printf %q "$MIXED")"
	measure mixed.zstd "$MSIZE" "zstd -dc FILE | wc -l" zst "zstd -dc $(printf %q "$MIXED.zst") | wc -l"
	MJQ_CMD=""
	if [ -s "$MSLICE" ]; then
		MSLICE_SIZE=$(stat -c %s "$MSLICE")
		MJQ_CMD="jq -c 'select(.type==\"stack\")' $(printf %q "$MSLICE") | wc -l"
		measure mixed.jq "$MSLICE_SIZE" "jq select(stack) | wc -l, slice" plain "$MJQ_CMD"
	fi
	note "  fast path hit rate (records not read by the JSON parser): samples ${hit:-n/a} %, stacks ${shit:-n/a} %"
	note "  issue 18 targets on this file, ${BENCH_ROUNDS:-3} rounds as above (load $(cut -d' ' -f1-3 /proc/loadavg)):"
	targets18 "$MIXED" "$MIXED.zst" "$MJQ_CMD" "$(awk -v a="$MSIZE" -v b="${MSLICE_SIZE:-1}" 'BEGIN { print a / b }')"
fi

# A second core: the same runs pinned to one CPU and to two.
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null 2>&1; then
	note ""
	note "cores: spaa-hotspots pinned with taskset -c 0 and -c 0,1, ${BENCH_PAIRS:-3} pairs (load $(cut -d' ' -f1-3 /proc/loadavg)):"
	header
	pairs plain "$SIZE" plain "./spaa-hotspots $(printf %q "$PLAIN")"
	note "  wall speed-up of the second core, plain file: median $BEST_MEDIAN against the faster CPU alone (pairs:$BEST_PAIRS), $MEDIAN against CPU 0 (pairs:$PAIRS)  target >= 1.7: $(verdict "$BEST_MEDIAN" '>=' 1.7)"
	note "  the CPUs meanwhile: two one-core runs at once took $SHARED x one run alone (1.00: independent CPUs), so two cores could give at most $CEILING x"
fi

# Many files: hard links to one small real profile (perf, 443 lines,
# 116 kB plain, zstd) in directories of FILES_FEW and FILES_MANY, and for
# the bytes alone one zstd file of the same stack records FILES_FEW times
# (one header and dictionary): what a file costs beyond its bytes is the
# CPU time of the directory minus that file's, per file.  Then a
# directory of SPX reports (links to one report pair).
FILES_FEW=${BENCH_FILES:-2000}
FILES_MANY=$((10 * FILES_FEW))
SMALL=tests/data/diff_cwork_baseline.spaa.zst
SPXSRC=tests/data/spx/corpus/04_oop_wt_ct_it
links_dir() { # DIR N SOURCE...: N hard links to each SOURCE, made once
	local d=$1 n=$2 i s
	shift 2
	[ -f "$d/done" ] && return 0
	rm -rf "$d" && mkdir -p "$d" || return 1
	for ((i = 0; i < n; i++)); do
		for s in "$@"; do
			ln "$s" "$d/$(printf 'p%06d' "$i")-${s##*/}" || return 1
		done
	done
	touch "$d/done"
}
# spx_pids DIR N SOURCE: N reports of distinct processes, as a PHP site
# writes one a request: SOURCE's metadata (*.json) with its pid, tid and
# key changed, its event file (*.txt.gz) linked; made once.
spx_pids() {
	local d=$1 n=$2 json txt base key pid i j
	[ -f "$d/done" ] && return 0
	rm -rf "$d" && mkdir -p "$d" || return 1
	json=$(echo "$3"/*.json) txt=$(echo "$3"/*.txt.gz)
	base=$(<"$json") && key=${json##*/} && key=${key%.json} || return 1
	pid=$(sed -n 's/.*"process_pid": *\([0-9]*\).*/\1/p' "$json")
	[ -n "$pid" ] || return 1
	for ((i = 0; i < n; i++)); do
		j=${base//\"process_pid\": $pid/\"process_pid\": $((10000 + i))}
		j=${j//\"process_tid\": $pid/\"process_tid\": $((10000 + i))}
		j=${j//$key/${key/-$pid-/-$((10000 + i))-}}
		printf '%s\n' "$j" >"$d/${key/-$pid-/-$((10000 + i))-}.json" &&
			ln "$txt" "$d/${key/-$pid-/-$((10000 + i))-}.txt.gz" || return 1
	done
	touch "$d/done"
}
if [ "$FILES_FEW" -gt 0 ] 2>/dev/null; then
	note ""
	SMALLSIZE=$(zstd -dc "$SMALL" | wc -c)
	mkdir -p "$DIR/files"
	[ -s "$DIR/files/one.spaa.zst" ] || cp "$SMALL" "$DIR/files/one.spaa.zst"
	CONCAT=$DIR/files/concat-$FILES_FEW.spaa.zst
	if [ ! -s "$CONCAT" ]; then
		{ zstd -dc "$SMALL" | grep -v '"type":"stack"'
		  for ((i = 0; i < FILES_FEW; i++)); do zstd -dc "$SMALL" | grep '"type":"stack"'; done
		} | zstd -3 -q -c >"$CONCAT.tmp" && mv "$CONCAT.tmp" "$CONCAT"
	fi
	links_dir "$DIR/files/links-$FILES_FEW" "$FILES_FEW" "$DIR/files/one.spaa.zst" &&
	links_dir "$DIR/files/links-$FILES_MANY" "$FILES_MANY" "$DIR/files/one.spaa.zst" &&
	links_dir "$DIR/files/spx-$FILES_FEW" "$FILES_FEW" "$SPXSRC"/*.json "$SPXSRC"/*.txt.gz || note "bench: cannot make the directories of links"
	SPX_FEW=$(( FILES_FEW / 10 > 0 ? FILES_FEW / 10 : 1 ))
	spx_pids "$DIR/files/spx-pids-$SPX_FEW" "$SPX_FEW" "$SPXSRC" &&
	spx_pids "$DIR/files/spx-pids-$FILES_FEW" "$FILES_FEW" "$SPXSRC" || note "bench: cannot make the SPX directories of distinct processes"
	SPXSIZE=$(( $(cat "$SPXSRC"/*.json | wc -c) + $(zcat "$SPXSRC"/*.txt.gz | wc -c) ))
	CSIZE=$(zstd -dc "$CONCAT" | wc -c)
	note "many files: $FILES_FEW and $FILES_MANY links to $SMALL ($SMALLSIZE bytes plain), one file of its stack records $FILES_FEW times; $FILES_FEW SPX reports ($SPXSRC, $SPXSIZE bytes):"
	header
	measure files.one "$SMALLSIZE" "spaa-hotspots" 1 "./spaa-hotspots $DIR/files/one.spaa.zst"
	measure files.few "$((FILES_FEW * SMALLSIZE))" "spaa-hotspots" "$FILES_FEW" "./spaa-hotspots $DIR/files/links-$FILES_FEW"
	measure files.many "$((FILES_MANY * SMALLSIZE))" "spaa-hotspots" "$FILES_MANY" "./spaa-hotspots $DIR/files/links-$FILES_MANY"
	measure files.concat "$CSIZE" "spaa-hotspots (one file)" concat "./spaa-hotspots $CONCAT"
	measure files.spx "$((FILES_FEW * SPXSIZE))" "spaa-hotspots" "spx" "./spaa-hotspots $DIR/files/spx-$FILES_FEW"
	measure files.spxpids.few "$((SPX_FEW * SPXSIZE))" "spaa-hotspots, $SPX_FEW processes" "spx" "./spaa-hotspots $DIR/files/spx-pids-$SPX_FEW"
	measure files.spxpids.many "$((FILES_FEW * SPXSIZE))" "spaa-hotspots, $FILES_FEW processes" "spx" "./spaa-hotspots $DIR/files/spx-pids-$FILES_FEW"
	if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null 2>&1; then
		pairs files "$((FILES_FEW * SMALLSIZE))" "$FILES_FEW" "./spaa-hotspots $DIR/files/links-$FILES_FEW"
		FILES_MEDIAN=$MEDIAN FILES_PAIRS=$PAIRS FILES_BEST=$BEST_MEDIAN FILES_BEST_PAIRS=$BEST_PAIRS
		FILES_SHARED=$SHARED FILES_CEILING=$CEILING
		pairs spx "$((FILES_FEW * SPXSIZE))" "spx" "./spaa-hotspots $DIR/files/spx-$FILES_FEW"
		SPX_BEST=$BEST_MEDIAN SPX_BEST_PAIRS=$BEST_PAIRS SPX_SHARED=$SHARED SPX_CEILING=$CEILING
	fi
	lim=$(awk -v a="${RSS[files.one]}" 'BEGIN { printf "%.1f", (1.2 * a + 8192) / 1024 }')
	mb=$(awk -v a="${RSS[files.few]}" 'BEGIN { printf "%.1f", a / 1024 }')
	note "  peak RSS of $FILES_FEW files $mb MB, target <= 1.2 x one file + 8 MiB = $lim MB: $(verdict "$mb" '<=' "$lim")"
	g=$(awk -v a="${RSS[files.many]}" -v b="${RSS[files.few]}" 'BEGIN { if (b > 0) printf "%.1f", (a / b - 1) * 100; else printf "n/a" }')
	note "  peak RSS growth $FILES_FEW -> $FILES_MANY files ${g}% (target < 10 %): $(verdict "$g" '<' 10)"
	ms=$(awk -v a="${CPU[files.few]}" -v b="${CPU[files.concat]}" -v n="$FILES_FEW" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", (a - b) / n * 1000; else printf "n/a" }')
	note "  CPU per file beyond its bytes (($FILES_FEW files - one file of their records) / $FILES_FEW): $ms ms (target < 0.3): $(verdict "$ms" '<' 0.3)"
	[ -n "${FILES_MEDIAN:-}" ] &&
		note "  wall speed-up of the second core, $FILES_FEW files: median $FILES_BEST against the faster CPU alone (pairs:$FILES_BEST_PAIRS), $FILES_MEDIAN against CPU 0 (pairs:$FILES_PAIRS)  target >= 1.7: $(verdict "$FILES_BEST" '>=' 1.7); two one-core runs at once took $FILES_SHARED x one alone, so two cores could give at most $FILES_CEILING x"
	note "  SPX: $FILES_FEW reports, peak RSS $(awk -v a="${RSS[files.spx]}" 'BEGIN { printf "%.1f", a / 1024 }') MB, $(awk -v a="${CPU[files.spx]}" -v n="$FILES_FEW" 'BEGIN { printf "%.3f", a / n * 1000 }') ms CPU per report"
	[ -n "${SPX_BEST:-}" ] &&
		note "  wall speed-up of the second core, $FILES_FEW SPX reports: median $SPX_BEST against the faster CPU alone (pairs:$SPX_BEST_PAIRS); two one-core runs at once took $SPX_SHARED x one alone, so two cores could give at most $SPX_CEILING x"
	note "  SPX, a process a report: peak RSS $SPX_FEW -> $FILES_FEW reports $(awk -v a="${RSS[files.spxpids.few]}" -v b="${RSS[files.spxpids.many]}" -v f="$SPX_FEW" -v m="$FILES_FEW" 'BEGIN { printf "%.1f -> %.1f MB (x%.2f), %.1f kB per report added", a / 1024, b / 1024, (a > 0 ? b / a : 0), (m > f ? (b - a) / (m - f) : 0) }'), $(awk -v a="${CPU[files.spxpids.many]}" -v n="$FILES_FEW" 'BEGIN { printf "%.3f", a / n * 1000 }') ms CPU per report"
fi

# cost_split: spaa-hotspots' CPU time against the naive loop's on the 1x
# and 16x scaling files, the median of BENCH_ROUNDS rounds each (the
# naive loop, then spaa-hotspots), split into what a sample costs (the
# slope) and what does not grow with the samples (the stack records,
# the tables, the output): the issue 18 CPU target on the bench file
# depends on both, and the more samples a stack has, the more the cost
# of a sample counts (doc/PERFORMANCE.md, "What a stack costs").
cost_split() {
	local m i h n f
	for m in 1 16; do
		f=$(gen_file $((m * SCALE))) || return
		h="" n=""
		for ((i = 1; i <= ${BENCH_ROUNDS:-3}; i++)); do
			time_of "$NAIVE $(printf %q "$f")"
			n="$n $T_CPU"
			time_of "./spaa-hotspots $(printf %q "$f")"
			h="$h $T_CPU"
		done
		SPLIT_H[$m]=$(median $h) SPLIT_N[$m]=$(median $n)
	done
	awk -v h1="${SPLIT_H[1]}" -v h16="${SPLIT_H[16]}" -v n1="${SPLIT_N[1]}" \
		-v n16="${SPLIT_N[16]}" -v s="$SCALE" -v k="$KSTACKS" 'BEGIN {
		if (h16 <= h1 || n16 <= n1) { print "  cost split: n/a (times did not grow)"; exit }
		hs = (h16 - h1) / (15 * s); ns = (n16 - n1) / (15 * s)
		hf = h1 - s * hs; nf = n1 - s * ns
		printf "  spaa-hotspots vs the naive loop, CPU: %.0f ns a sample against %.0f (%.2fx); %.3f s against %.3f s that do not grow with the samples (%.1f us a stack); ratio at 1x %.2f, at 16x %.2f\n",
			hs * 1e9, ns * 1e9, ns / hs, hf, nf, hf / k * 1e6, n1 / h1, n16 / h16
	}'
}

# Scaling: the same stacks, 1x, 4x and 16x the samples.  Time should grow
# linearly with the samples (on top of the fixed cost of the stacks),
# peak RSS stay flat.
SCALE=${BENCH_SCALE:-250000}
if [ "$SCALE" -gt 0 ] 2>/dev/null; then
	note ""
	note "scaling: the same $KSTACKS stacks, ${SCALE}, $((4 * SCALE)) and $((16 * SCALE)) samples (plain):"
	header
	for m in 1 4 16; do
		f=$(gen_file $((m * SCALE))) || { note "bench: generator failed"; break; }
		SC_SIZE[$m]=$(stat -c %s "$f")
		cat "$f" >/dev/null
		for p in hotspots phases validate convert; do
			measure "$p.s$m" "${SC_SIZE[$m]}" "$(label_for "$p")" "${m}x" "$(cmd_for "$p" "$f")"
		done
	done
	for p in hotspots phases validate convert; do
		# the stacks cost the same at every size: what 12x more samples
		# add over what 3x more add is 4 when time is linear in samples
		inc=$(awk -v a="${CPU[$p.s1]}" -v b="${CPU[$p.s4]}" -v c="${CPU[$p.s16]}" \
			'BEGIN { if (a > 0 && b > a && c > b) printf "%.2f", (c - b) / (b - a); else printf "n/a" }')
		note "  $(label_for "$p"): CPU time 4x/1x $(ratio "${CPU[$p.s4]}" "${CPU[$p.s1]}"), 16x/1x $(ratio "${CPU[$p.s16]}" "${CPU[$p.s1]}"), (16x - 4x)/(4x - 1x) $inc (linear in samples: 4);" \
			"peak RSS 1x/4x/16x $(awk -v a="${RSS[$p.s1]}" -v b="${RSS[$p.s4]}" -v c="${RSS[$p.s16]}" 'BEGIN { printf "%.1f/%.1f/%.1f MB", a / 1024, b / 1024, c / 1024 }')," \
			"growth 1x -> 16x $(awk -v a="${RSS[$p.s16]}" -v b="${RSS[$p.s1]}" 'BEGIN { if (b > 0) printf "%.1f %%", (a / b - 1) * 100; else printf "n/a" }')"
	done
	cost_split
fi

# perf script text: how fast perf itself produces it, and how fast
# spaa-convert turns it into SPAA.  perf record may be refused (no perf,
# perf_event_paranoid, no permission in a container): then it says so.
PERF_SECONDS=${BENCH_PERF:-10}
if [ "$PERF_SECONDS" -gt 0 ] 2>/dev/null; then
	note ""
	PDATA=$TMP/perf.data
	# the workload: the analyses themselves, for PERF_SECONDS seconds
	if command -v perf >/dev/null 2>&1 &&
		perf record -q -F 4999 -g -o "$PDATA" -- bash -c \
			"end=\$((SECONDS + $PERF_SECONDS)); while [ \$SECONDS -lt \$end ]; do ./spaa-phases $(printf %q "$PLAIN") >/dev/null; done" \
			>/dev/null 2>"$TMP/perf.err"; then
		perf script -i "$PDATA" >"$TMP/perf.txt" 2>/dev/null
		PSIZE=$(stat -c %s "$TMP/perf.txt" 2>/dev/null || echo 0)
		note "perf script text: $(awk -v b="$PSIZE" 'BEGIN { printf "%.1f", b / 1e6 }') MB from $PERF_SECONDS s of perf record -F 4999 -g (MB/s below are of that text):"
		header
		measure perf.script "$PSIZE" "perf script (writes the text)" perf \
			"perf script -i $(printf %q "$PDATA") >/dev/null"
		measure perf.convert "$PSIZE" "spaa-convert --from perf" perf \
			"./spaa-convert --from perf -o /dev/null $(printf %q "$TMP/perf.txt")"
		r=$(ratio "${WALL[perf.script]}" "${WALL[perf.convert]}")
		note "  spaa-convert --from perf vs perf script: $r ($(ratio "${CPU[perf.script]}" "${CPU[perf.convert]}")) x faster  target > 1: $(verdict "$r" '>=' 1.0001)"
	else
		note "perf script: perf record does not work here ($(head -n 1 "$TMP/perf.err" 2>/dev/null)); not measured"
	fi
fi
# V8 .cpuprofile: one JSON document (a call tree, then samples and
# timeDeltas), read as a stream; beside it the same profile as SPAA.
V8_SAMPLES=${BENCH_V8:-2000000}
if [ "$V8_SAMPLES" -gt 0 ] 2>/dev/null; then
	note ""
	V8=$DIR/bench-$V8_SAMPLES.cpuprofile
	[ -s "$V8" ] || python3 tests/bench/gen_cpuprofile.py "$V8_SAMPLES" "$V8"
	./spaa-convert -o "$V8.spaa" "$V8" 2>/dev/null
	V8SIZE=$(stat -c %s "$V8")
	V8SPAA=$(stat -c %s "$V8.spaa" 2>/dev/null || echo 0)
	note ".cpuprofile: $V8_SAMPLES samples, ~3,000 nodes ($(awk -v b="$V8SIZE" 'BEGIN { printf "%.1f", b / 1e6 }') MB; its SPAA with sample records $(awk -v b="$V8SPAA" 'BEGIN { printf "%.1f", b / 1e6 }') MB):"
	header
	measure v8.hot "$V8SIZE" "spaa-hotspots (.cpuprofile)" v8 "./spaa-hotspots $(printf %q "$V8") >/dev/null"
	measure v8.spaa "$V8SPAA" "spaa-hotspots (the same as SPAA)" spaa "./spaa-hotspots $(printf %q "$V8.spaa") >/dev/null"
	measure v8.conv "$V8SIZE" "spaa-convert (.cpuprofile to SPAA)" v8 "./spaa-convert -o /dev/null $(printf %q "$V8")"
	note "  .cpuprofile vs its SPAA, wall: $(ratio "${WALL[v8.spaa]}" "${WALL[v8.hot]}") x (above 1: the native file is read faster)"
fi
# Bounds (issue 21): a header of many events is read in linear time, the
# validator's memory stays flat on millions of bad lines, blank lines are
# skipped at the speed of the line reader.
BOUNDS_EVENTS=${BENCH_EVENTS:-100000}
BOUNDS_BAD=${BENCH_BAD:-5000000}
BOUNDS_BLANK=${BENCH_BLANK:-50000000}
if [ "${BENCH_BOUNDS:-1}" != 0 ]; then
	note ""
	EV=$DIR/bench-events-$BOUNDS_EVENTS.spaa
	BL=$DIR/bench-blank-$BOUNDS_BLANK.spaa
	[ -s "$EV" ] || python3 tests/bench/gen_bounds.py events "$BOUNDS_EVENTS" >"$EV"
	[ -s "$BL" ] || python3 tests/bench/gen_bounds.py blank "$BOUNDS_BLANK" >"$BL"
	note "bounds: a header of $BOUNDS_EVENTS events, $BOUNDS_BAD lines of findings (generated into a pipe), $BOUNDS_BLANK blank lines:"
	header
	measure bounds.events "$(stat -c %s "$EV")" "spaa-hotspots ($BOUNDS_EVENTS events)" spaa \
		"SPAA_MAX_EVENTS=$BOUNDS_EVENTS ./spaa-hotspots --event e$((BOUNDS_EVENTS - 1)) $(printf %q "$EV") >/dev/null"
	measure bounds.bad 0 "spaa-validate ($BOUNDS_BAD bad lines)" pipe \
		"python3 tests/bench/gen_bounds.py bad $BOUNDS_BAD | ./spaa-validate - >/dev/null; [ \$? = 1 ]"
	measure bounds.blank "$(stat -c %s "$BL")" "spaa-hotspots (blank lines)" spaa \
		"./spaa-hotspots $(printf %q "$BL") >/dev/null 2>&1"
	measure bounds.wc "$(stat -c %s "$BL")" "wc -l (blank lines)" spaa "wc -l <$(printf %q "$BL")"
	note "  $BOUNDS_EVENTS-event header: $(printf %.2f "${WALL[bounds.events]}") s (target < 2 s): $(verdict "${WALL[bounds.events]}" '<' 2)"
	note "  spaa-validate peak RSS on $BOUNDS_BAD bad lines: $(awk -v k="${RSS[bounds.bad]}" 'BEGIN { printf "%.1f", k / 1024 }') MB, of the largest process of the pipeline (target < 64 MB): $(verdict "$(awk -v k="${RSS[bounds.bad]}" 'BEGIN { print k / 1024 }')" '<' 64)"
	note "  blank lines: spaa-hotspots at $(ratio "${WALL[bounds.wc]}" "${WALL[bounds.blank]}") x the speed of wc -l"
fi
note "== load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
exit 0
