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
set -u

rounds=10
if [ "${1:-}" = -n ]; then
	rounds=$2
	shift 2
fi
if [ $# -lt 2 ]; then
	echo "usage: $0 [-n ROUNDS] OLD NEW [ARGS...]" >&2
	exit 2
fi
old=$1 new=$2
shift 2
if ! command -v taskset >/dev/null || [ "$(nproc)" -lt 2 ]; then
	echo "$0: needs taskset and two CPUs" >&2
	exit 2
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# the first two CPUs this process may use
read -r c0 c1 < <(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(c[0], c[1])')

printf '%5s %8s %8s %7s\n' round old_s new_s new/old
for r in $(seq "$rounds"); do
	if [ $((r % 2)) = 1 ]; then a=$c0 b=$c1; else a=$c1 b=$c0; fi
	/usr/bin/time -f '%U %S' -o "$tmp/old" taskset -c "$a" "$old" "$@" >/dev/null 2>&1 &
	/usr/bin/time -f '%U %S' -o "$tmp/new" taskset -c "$b" "$new" "$@" >/dev/null 2>&1 &
	wait
	o=$(awk 'END { printf "%.2f", $1 + $2 }' "$tmp/old")
	n=$(awk 'END { printf "%.2f", $1 + $2 }' "$tmp/new")
	awk -v r="$r" -v o="$o" -v n="$n" 'BEGIN { printf "%5d %8.2f %8.2f %7.3f\n", r, o, n, (o > 0 ? n / o : 0) }'
	echo "$o $n" >>"$tmp/all"
done
awk '$1 > 0 { print $2 / $1 }' "$tmp/all" | sort -n | awk '
	{ v[NR] = $1 }
	END {
		if (!NR) { print "no round measured: OLD took under 0.01 s of CPU (a larger input?)"; exit 1 }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "median new/old %.3f over %d rounds (lowest %.3f, highest %.3f)\n", m, NR, v[1], v[NR]
	}'
