#!/usr/bin/env bash
# shards.sh measures how evenly a count splits into K shards, the figure
# to choose K by: it runs every shard of an n×n count as its own process
# (one thread each, one after the other, as a cluster's workers would run
# them), merges the lines and prints merge's imbalance: the largest shard
# over the mean, by wall time and by queens placed (the work, which does
# not depend on the machine or its noise). The merged count is checked
# against the published table.
#
# Usage: bench/shards.sh [N [K...]]   (default: N = 16, K = 64 256 1024)
# Environment: QUEENS_BIN, a queens binary to use instead of building one.
set -euo pipefail

n=${1:-16}
shift || true
ks=${*:-64 256 1024}
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
build_queens

printf '%-6s %-6s %-14s %-14s %s\n' n K "imbalance/time" "imbalance/work" "time (s, summed)"
for k in $ks; do
	for ((i = 0; i < k; i++)); do
		"$queens" backtrack -n "$n" --count --shard "$i/$k" --json --threads 1
	done >"$tmp/shards-$k.jsonl"
	"$queens" merge --stats "$tmp/shards-$k.jsonl" >"$tmp/out" 2>"$tmp/stats"
	grep -q '^matches the published count' "$tmp/out" || { cat "$tmp/out" "$tmp/stats"; exit 1; }
	read -r bytime bywork < <(sed -n 's/^merge: imbalance (largest shard \/ mean) \([0-9.]*\) by time, \([0-9.]*\) by queens placed$/\1 \2/p' "$tmp/stats")
	total=$(sed -n 's/^merge: .* time=\([^ ]*\) (summed.*/\1/p' "$tmp/stats")
	printf '%-6s %-6s %-14s %-14s %s\n' "$n" "$k" "$bytime" "$bywork" "$total"
done
