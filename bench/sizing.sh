#!/usr/bin/env bash
# sizing.sh measures what a count costs on this machine, the figures to
# size a cluster run by: the wall time of queens backtrack -n N --count on
# 1 thread and on all the CPUs the process may use, for each N (median of
# RUNS runs; one run from n = 18 on), each count checked against the
# published table. It then extrapolates n = 19..23 in core-hours from the
# one-thread time of the largest N measured, in proportion to the published
# number of solutions (the counter's time per solution grows only slowly
# with n, so the figures are a little low rather than high).
#
# Usage: bench/sizing.sh [N...]   (default: 16 17 18)
# Environment: RUNS (default 3); QUEENS_BIN, a queens binary to use.
set -euo pipefail

sizes=${*:-16 17 18}
runs=${RUNS:-3}
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
build_queens
cpus=$("$queens" help backtrack >/dev/null && nproc)

# median of the arguments
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# seconds N THREADS: the median wall seconds of the count, checked.
seconds() {
	local n=$1 t=$2 k=$runs times=() start end want got
	want=$(awk -v n="$n" '$1 == n {print $2}' "$repo/board/counts.tsv")
	((n >= 18)) && k=1
	for ((i = 0; i < k; i++)); do
		start=$(date +%s%N)
		got=$("$queens" backtrack -n "$n" --count --threads "$t")
		end=$(date +%s%N)
		[[ $got == "$want solutions" ]] || { echo "n=$n: got '$got', want $want" >&2; exit 1; }
		times+=("$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", (b-a)/1e9}')")
	done
	median "${times[@]}"
}

printf '%-4s %-12s %-14s %-10s\n' n "1 thread (s)" "$cpus threads (s)" speedup
last_n=0 last_t=0 prev_t=0
for n in $sizes; do
	t1=$(seconds "$n" 1)
	tk=$(seconds "$n" "$cpus")
	printf '%-4s %-12s %-14s %-10s\n' "$n" "$t1" "$tk" "$(awk -v a="$t1" -v b="$tk" 'BEGIN {printf "%.2f", a/b}')"
	prev_t=$last_t last_n=$n last_t=$t1
done
printf '\nextrapolated, one core, in proportion to the published counts (from n = %d):\n' "$last_n"
base=$(awk -v n="$last_n" '$1 == n {print $2}' "$repo/board/counts.tsv")
for ((n = last_n + 1; n <= 23; n++)); do
	awk -v n="$n" -v t="$last_t" -v b="$base" '$1 == n {h = t * $2 / b / 3600; printf "n=%d  %.2f core-hours (%.1f core-days)\n", n, h, h / 24}' "$repo/board/counts.tsv"
done
