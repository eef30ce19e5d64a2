#!/usr/bin/env bash
# bench/merge.sh: the memory and time of queens merge on lines shaped like
# those of the n = 28 plan (docs/scale.md: K = 2^24 shards of a split 4096
# ways, 11 or 12 pieces each, some 830 bytes a line).
#
# It writes shards 0..M-1 of that count (M = 1,000,000 by default; the
# lines of a Go test, TestGenerateMergeLines, are those a shard writes,
# their tallies zero), merges the first M/4 and all M with GNU time, and
# prints peak RSS, time per million lines and the memory per line (the
# difference of the two, over the lines between). The merge ends "missing
# shard" (the other 16.7 M shards are absent), having read and checked
# every line: the work of a whole merge, but the final sum.
#
# Usage: bench/merge.sh [M]        (default 1000000: some 5 minutes, 830 MB of disk;
#                                   M of 400000 or more: a record lists the first 65,536 lines)
# Needs GNU time (apt-get install -y time).
set -euo pipefail
m=${1:-1000000}
source "$(dirname "$0")/lib.sh"
build_queens
(cd "$repo" && QUEENS_MERGE_FILE="$tmp/all.jsonl" QUEENS_MERGE_LINES=$m go test ./shard -run TestGenerateMergeLines -count=1 -timeout 2h >/dev/null)
head -n $((m / 4)) "$tmp/all.jsonl" >"$tmp/quarter.jsonl"
measure() { # lines file -> "KB seconds"
	/usr/bin/time -f "%M %U %e" -o "$tmp/time" "$queens" merge --format json --threads 1 "$2" >/dev/null 2>&1 || true
	read -r kb user wall < <(tail -n 1 "$tmp/time")
	echo "$1 lines: peak RSS $((kb / 1024)) MiB, $user s CPU, $wall s wall: $(awk -v u="$user" -v n="$1" 'BEGIN { printf "%.0f", u * 1e6 / n }') CPU-s per million lines" >&2
	echo "$kb"
}
kq=$(measure $((m / 4)) "$tmp/quarter.jsonl")
ka=$(measure "$m" "$tmp/all.jsonl")
awk -v a="$ka" -v q="$kq" -v n=$((m - m / 4)) 'BEGIN { b = (a - q) * 1024 / n; printf "memory per line: %.0f bytes (16.8 M lines: about %.1f GiB)\n", b, (q * 1024 + b * (16777216 - n / 3)) / 2^30 }'
