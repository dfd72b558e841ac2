#!/bin/bash
# compare.sh [-n ROUNDS] OLD NEW [ARGS...]: the CPU time of two builds of a
# program on the same input, for changes too small for make bench to see.
#
# Runs one after the other on this kind of host (a virtual machine whose
# speed drifts by 10 % and more within a minute) differ by more than most
# changes gain.  So OLD and NEW run at the same time, each pinned to a CPU
# of its own (taskset), and swap CPUs every round: what slows the host
# slows both, and each round gives one ratio NEW/OLD of user+sys seconds.
# Prints every round and the median ratio with the lowest and the highest.
# Needs two CPUs; give --threads 1 in ARGS to time one thread's work, or
# leave it out to time every thread on the one CPU each run has.
#
# -s: OLD and then NEW one right after the other, each on every CPU, for
# what only shows with both CPUs (how the threads hand work to each
# other); a round then gives a ratio of wall seconds too.  Less exact:
# OLD against itself gave single rounds of 0.94 to 1.13.
set -u

rounds=10 seq=0
while [ $# -gt 0 ]; do
	case $1 in
	-n) rounds=$2; shift 2 ;;
	-s) seq=1; shift ;;
	*) break ;;
	esac
done
if [ $# -lt 2 ]; then
	echo "usage: $0 [-n ROUNDS] [-s] OLD NEW [ARGS...]" >&2
	exit 2
fi
old=$1 new=$2
shift 2
timer=${BENCH_DIR:-$(dirname "$0")/../../build/bench}/timed
if [ ! -x "$timer" ]; then
	echo "$0: no $timer: run make bench (or make build/bench/timed) first" >&2
	exit 2
fi
if ! command -v taskset >/dev/null || [ "$(nproc)" -lt 2 ]; then
	echo "$0: needs taskset and two CPUs" >&2
	exit 2
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# the first two CPUs this process may use
read -r c0 c1 < <(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(c[0], c[1])')

# timed OUT COMMAND...: runs COMMAND (output discarded) and writes its
# user+sys CPU seconds and its wall seconds to OUT, to the microsecond
# (timed.c, which make bench builds: /usr/bin/time prints hundredths,
# and on runs of a few tenths of a second most rounds of two close
# builds then read alike).
timed() {
	local out=$1
	shift
	"$timer" "$out.t" "$@" >/dev/null 2>&1
	awk '{ printf "%.6f %.6f\n", $2 + $3, $1 }' "$out.t" >"$out"
}

printf '%5s %8s %8s %7s %8s %8s %7s\n' round old_s new_s new/old old_wall new_wall new/old
for r in $(seq "$rounds"); do
	if [ "$seq" = 1 ]; then
		timed "$tmp/old" "$old" "$@"
		timed "$tmp/new" "$new" "$@"
	else
		if [ $((r % 2)) = 1 ]; then a=$c0 b=$c1; else a=$c1 b=$c0; fi
		timed "$tmp/old" taskset -c "$a" "$old" "$@" &
		timed "$tmp/new" taskset -c "$b" "$new" "$@" &
		wait
	fi
	o=$(cat "$tmp/old") n=$(cat "$tmp/new")
	echo "$o $n" | awk -v r="$r" '{ printf "%5d %8.3f %8.3f %7.3f %8.3f %8.3f %7.3f\n", r, $1, $3,
		($1 > 0 ? $3 / $1 : 0), $2, $4, ($2 > 0 ? $4 / $2 : 0) }'
	echo "$o $n" >>"$tmp/all"
done
# median COLUMN_OLD COLUMN_NEW WHAT
median() {
	awk -v a="$1" -v b="$2" '$a > 0 { print $b / $a }' "$tmp/all" | sort -n | awk -v what="$3" '
		{ v[NR] = $1 }
		END {
			if (!NR) { print "no round measured: OLD ran for no measurable time"; exit 1 }
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "median new/old %s %.3f over %d rounds (lowest %.3f, highest %.3f)\n", what, m, NR, v[1], v[NR]
		}'
}
median 1 3 "CPU" || exit 1
[ "$seq" = 0 ] || median 2 4 "wall"
