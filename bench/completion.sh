#!/usr/bin/env bash
# bench/completion.sh: where random n-Queens Completion instances turn hard.
#
# For a board size N and K = 0, STEP, 2*STEP, ... N pre-placed random
# non-attacking queens (queens dimacs --random-place K --seed S, seeds
# 1..SEEDS), it solves each instance with gini (queens sat -n N --place
# ..., in process, including the referee's check of an UNSAT answer by
# the backtracker) and with each external solver installed (cadical,
# kissat, minisat, cryptominisat5: the exported CNF), and prints per K
# the backtracker's labels (the "c status" lines: sat/unsat/unknown) and
# the median wall time of each solver. A run over TIMEOUT seconds counts
# as TIMEOUT (and as its time).
#
# Usage: bench/completion.sh [N [STEP [SEEDS]]]   (default 30 5 3: < 1 minute)
#        ENCODING=seq TIMEOUT=20 bench/completion.sh 60 4 5
# Needs GNU time (apt-get install -y time) and coreutils timeout.
set -euo pipefail
n=${1:-30}
step=${2:-5}
seeds=${3:-3}
limit=${TIMEOUT:-10}
enc=${ENCODING:-auto}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/queens" "$root"
q=$tmp/queens

solvers=(gini)
for s in cadical kissat minisat cryptominisat5; do
	command -v "$s" >/dev/null && solvers+=("$s")
done

# wall CMD...: wall seconds of one run, or TIMEOUT.
wall() {
	if timeout "$limit" /usr/bin/time -f %e -o "$tmp/t" "$@" >/dev/null 2>&1; then :; else
		[ "$?" = 124 ] && { echo "$limit"; return; }
	fi
	tail -n 1 "$tmp/t"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

printf '# n = %d, encoding %s, %d seeds per K, median wall seconds (timeout %ss)\n' "$n" "$enc" "$seeds" "$limit"
printf '%4s %-14s' K "sat/unsat/unk"
for s in "${solvers[@]}"; do printf ' %12s' "$s"; done
echo
for ((k = 0; k <= n; k += step)); do
	nsat=0 nunsat=0 nunk=0 made=0
	for s in "${solvers[@]}"; do : >"$tmp/times.$s"; done
	for ((seed = 1; seed <= seeds; seed++)); do
		f=$tmp/k$k-s$seed.cnf
		"$q" dimacs -n "$n" --encoding "$enc" --random-place "$k" --seed "$seed" -o "$f" 2>/dev/null || continue
		made=$((made + 1))
		case $(grep -m1 '^c status' "$f") in
		"c status sat"*) nsat=$((nsat + 1)) ;;
		"c status unsat"*) nunsat=$((nunsat + 1)) ;;
		*) nunk=$((nunk + 1)) ;;
		esac
		place=$(sed -n 's/^c placed //p' "$f" | tr ' ' '\n' | { grep -v '^none$' || true; } | sed 's/^/--place /' | tr '\n' ' ')
		for s in "${solvers[@]}"; do
			if [ "$s" = gini ]; then
				# shellcheck disable=SC2086
				wall "$q" sat -n "$n" --encoding "$enc" $place --timeout "${limit}s" >>"$tmp/times.$s"
			else
				wall "$s" "$f" >>"$tmp/times.$s"
			fi
		done
	done
	[ "$made" -gt 0 ] || { printf '%4d (no placement of %d queens found)\n' "$k" "$k"; continue; }
	printf '%4d %-14s' "$k" "$nsat/$nunsat/$nunk"
	for s in "${solvers[@]}"; do printf ' %12s' "$(median <"$tmp/times.$s")"; done
	echo
done
