#!/usr/bin/env bash
# bench/sat-mem.sh: peak memory (max RSS, GNU time) and wall time of
#
#   sat     queens sat -n N -o /dev/null      one solution: gini loaded
#                                             from the encoder's stream
#   dimacs  queens dimacs -n N -o /dev/null   the DIMACS file, streamed
#
# for n = 400, 1000, 2000 (auto encoding: commander). Before streaming,
# sat -n 1000 peaked at 1.8 GB and sat -n 2000 at 7.4 GB; dimacs -n 1000
# at 0.7 GB.
#
# Usage: bench/sat-mem.sh [SIZES...]   (default: 400 1000 2000)
# Needs GNU time (apt-get install -y time). A benchmark, not a test: run
# it on a quiet machine and quote medians (RUNS=3 runs each, default 1).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sizes=${*:-400 1000 2000}
runs=${RUNS:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/queens" "$root"

# measure LABEL CMD...: max RSS in MiB and wall seconds, median of $runs.
measure() {
	local label=$1
	shift
	: >"$tmp/all"
	for _ in $(seq "$runs"); do
		if ! /usr/bin/time -f '%M %e' -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err"; then
			printf '%-7s n=%-5s failed: %s\n' "$label" "$n" "$(tail -n 1 "$tmp/err")"
			return
		fi
		cat "$tmp/t" >>"$tmp/all"
	done
	mib=$(awk '{print $1/1024}' "$tmp/all" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
	secs=$(awk '{print $2}' "$tmp/all" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
	printf '%-7s n=%-5s %8.1f MiB %7.2f s\n' "$label" "$n" "$mib" "$secs"
}

for n in $sizes; do
	measure sat "$tmp/queens" sat -n "$n" -o /dev/null
	measure dimacs "$tmp/queens" dimacs -n "$n" -o /dev/null
done
