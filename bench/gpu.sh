#!/usr/bin/env bash
# gpu.sh times the GPU counter, `queens backtrack -n N --count --unique
# --gpu`, RUNS times per size, checks every printed count against
# board/counts.tsv and prints the medians; for the sizes up to CPU_MAX it
# also times the count on all CPU cores and prints the speedup.
#
# Usage: bench/gpu.sh [SIZE...] (default 18 19 20 21)
# Environment: RUNS (default 3); CPU_MAX (default 18; 0: no CPU runs);
# KERNEL, the GPU kernel (--gpu-kernel: task, the default, or loop);
# QUEENS_BIN, a queens binary to time instead of building one (the device
# machine has no Go: carry one built with CGO_ENABLED=0).
set -euo pipefail

runs=${RUNS:-3}
cpu_max=${CPU_MAX:-18}
sizes=${*:-18 19 20 21}
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
build_queens CGO_ENABLED=0

# run WANT CMD...: runs CMD once, checks that its output is WANT and
# prints the wall time in milliseconds.
run() {
	local want=$1 start end got
	shift
	start=$(date +%s%N)
	"$@" >"$tmp/out" 2>"$tmp/err" || {
		echo "gpu.sh: $* failed: $(cat "$tmp/err")" >&2
		exit 1
	}
	end=$(date +%s%N)
	got=$(cat "$tmp/out")
	if [[ $got != "$want" ]]; then
		echo "gpu.sh: $* printed '$got', want '$want'" >&2
		exit 1
	fi
	echo $(((end - start) / 1000000))
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "machine: $(nproc) cores; GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)"
echo "runs per figure: $runs (medians, wall ms)"
printf '%3s %10s %10s %8s\n' n gpu cpu-all speedup
for n in $sizes; do
	total=$(awk -F'\t' -v n="$n" '$1 == n { print $2 }' "$repo/board/counts.tsv")
	unique=$(awk -F'\t' -v n="$n" '$1 == n { print $3 }' "$repo/board/counts.tsv")
	want="$total solutions ($unique unique)"
	: >"$tmp/gpu" >"$tmp/cpu"
	for ((i = 0; i < runs; i++)); do
		run "$want" "$queens" backtrack -n "$n" --count --unique --gpu --gpu-kernel "${KERNEL:-task}" >>"$tmp/gpu"
		if ((n <= cpu_max)); then
			run "$want" "$queens" backtrack -n "$n" --count --unique >>"$tmp/cpu"
		fi
	done
	g=$(median <"$tmp/gpu")
	if [[ -s $tmp/cpu ]]; then
		c=$(median <"$tmp/cpu")
		printf '%3s %10s %10s %8s\n' "$n" "$g" "$c" "$(awk -v a="$c" -v b="$g" 'BEGIN { printf "%.1f", a / b }')"
	else
		printf '%3s %10s %10s %8s\n' "$n" "$g" - -
	fi
done
