#!/usr/bin/env bash
# bench/sat.sh: queens sat (gini, in process) against external solvers on
# the CNF that queens dimacs exports.
#
#   enumeration: queens sat -n N --count --threads 1  vs  clasp -n 0 -q
#                (pairwise CNF, n = 12, 13, 14; one thread each, CPU time)
#   find one:    queens sat -n N           vs  cadical, minisat, cryptominisat5 (n = 200;
#                                              the CNF of queens' auto encoding; wall time)
#
# Runs alternate (queens, solver, queens, solver, ...); the script prints the
# median time of each and the ratio of the medians (queens / other), with the
# CPU. gini and the encoder are plain Go: no QUEENS_SIMD path is involved.
# Public tools only: bash, GNU time (/usr/bin/time), the solvers. Usage:
#
#   bench/sat.sh [RUNS]        (default 5; BIG=400 adds a find-one row at n = 400;
#                               COUNT="12 13" picks the enumeration sizes)
set -euo pipefail
runs=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/queens" "$root"
q=$tmp/queens

# wall CMD...: prints the wall seconds of one run (output discarded).
# (GNU time writes "Command exited with non-zero status N" first for clasp's 10/20/30.)
wall() { /usr/bin/time -f %e -o "$tmp/t" "$@" >/dev/null 2>&1 || true; tail -n 1 "$tmp/t"; }
# cpu CMD...: prints the CPU seconds (user + system) of one run.
cpu() { /usr/bin/time -f '%U %S' -o "$tmp/t" "$@" >/dev/null 2>&1 || true; tail -n 1 "$tmp/t" | awk '{print $1 + $2}'; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# pair LABEL "QUEENS CMD" "OTHER CMD" [CLOCK]: alternate runs, print medians
# and ratio; CLOCK is wall (the default) or cpu.
pair() {
	local label=$1 a=$2 b=$3 clock=${4:-wall}
	: >"$tmp/a"; : >"$tmp/b"
	for _ in $(seq "$runs"); do
		$clock $a >>"$tmp/a"
		$clock $b >>"$tmp/b"
	done
	local ma mb
	ma=$(median <"$tmp/a"); mb=$(median <"$tmp/b")
	printf '%-34s queens %7.2fs  %-16s %7.2fs  ratio %5.2f\n' "$label" "$ma" "${b%% *}" "$mb" \
		"$(awk -v a="$ma" -v b="$mb" 'BEGIN {print (b > 0) ? a/b : 0}')"
}

cpuname=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)
echo "machine: $(nproc) cores, $(uname -m), ${cpuname:-unknown CPU}, $(date -u +%Y-%m-%d); $runs runs each, medians"
for n in ${COUNT:-12 13 14}; do
	$q dimacs -n "$n" --encoding pairwise -o "$tmp/q$n.cnf"
	want=$($q sat -n "$n" --count --threads 1)
	got=$(clasp -n 0 -q "$tmp/q$n.cnf" | awk '/^c Models/ {print $4}' || true)
	echo "n=$n: queens: $want; clasp: ${got} models"
	pair "count n=$n (pairwise, 1 thread, CPU)" "$q sat -n $n --count --threads 1" "clasp -n 0 -q $tmp/q$n.cnf" cpu
done
for n in 200 ${BIG:-}; do
	$q dimacs -n "$n" -o "$tmp/big$n.cnf"
	for s in "cadical -q" "minisat" "cryptominisat5 --verb 0"; do
		command -v "${s%% *}" >/dev/null || { echo "${s%% *} not installed: skipped"; continue; }
		if [ "${s%% *}" = minisat ]; then s="minisat -verb=0 $tmp/big$n.cnf $tmp/out"; else s="$s $tmp/big$n.cnf"; fi
		pair "first n=$n ($($q sat -n "$n" --stats 2>&1 >/dev/null | grep -o 'encoding=[a-z]*'))" "$q sat -n $n" "$s"
	done
done
