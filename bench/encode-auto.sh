#!/usr/bin/env bash
# bench/encode-auto.sh: which encoding should auto pick? For each n and
# encoding, `queens sat -n N --encoding E` (find one solution with gini,
# the CLI's fixed seed) is run RUNS times; the script prints the median
# wall time, the median CPU time (user + system: steadier than wall time
# on a loaded machine) and the largest max RSS (GNU time). Encodings above
# their size limit (encode.MaxN) are skipped.
#
# Usage: bench/encode-auto.sh [RUNS] [SIZES...]   (default: 3; 50 200 400 1000)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-3}
shift || true
sizes=${*:-50 200 400 1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/queens" "$root"
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
limit() { case $1 in pairwise) echo 200 ;; bimander) echo 400 ;; binary) echo 1000 ;; *) echo 2000 ;; esac; }

printf '%-6s %-10s %9s %9s %10s\n' n encoding wall_s cpu_s max_MiB
for n in $sizes; do
	for enc in auto pairwise seq commander product binary bimander; do
		if [ "$enc" != auto ] && [ "$n" -gt "$(limit "$enc")" ]; then
			continue
		fi
		: >"$tmp/s"; : >"$tmp/c"; : >"$tmp/m"
		for _ in $(seq "$runs"); do
			/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$tmp/queens" sat -n "$n" --encoding "$enc" >/dev/null
			read -r secs user sys kib <"$tmp/t"
			echo "$secs" >>"$tmp/s"
			awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}' >>"$tmp/c"
			echo "$kib" >>"$tmp/m"
		done
		printf '%-6s %-10s %9.2f %9.2f %10.0f\n' "$n" "$enc" "$(median <"$tmp/s")" "$(median <"$tmp/c")" "$(sort -n "$tmp/m" | tail -n 1 | awk '{print $1/1024}')"
	done
done
