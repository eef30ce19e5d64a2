#!/usr/bin/env bash
# scale.sh samples what a count costs per engine, for the sizing table of
# docs/scale.md: each line runs queens on one thread under /usr/bin/time
# and prints the CPU seconds (user + system) and the peak RSS. A whole
# count is checked against the published table; a sample of shards of a
# larger n is extrapolated to the whole count as (mean CPU of the shards
# sampled) x K, which assumes the sampled shards are typical (round-robin
# shards of many pieces are: see "Sizing").
#
# Usage: bench/scale.sh whole ENGINE N...         whole counts
#        bench/scale.sh shards ENGINE N K I...    shards I of K
# ENGINE is constellations or join. Environment: QUEENS_BIN, a binary to use.
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
build_queens
mode=${1:?usage: scale.sh whole|shards ENGINE ...} engine=${2:?engine}
shift 2
# measure ARGS...: runs queens ARGS on one thread; sets out, cpu, rss_mib.
measure() {
	out=$(/usr/bin/time -f '%U %S %M' -o "$tmp/time" "$queens" backtrack --count --threads 1 --engine "$engine" "$@")
	read -r user sys rss <"$tmp/time"
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')
	rss_mib=$((rss / 1024))
}
case $mode in
whole)
	for n in "$@"; do
		measure -n "$n"
		want=$(awk -v n="$n" '$1 == n {print $2}' "$repo/board/counts.tsv")
		[[ $out == "$want solutions" ]] || { echo "n=$n: got '$out', want $want" >&2; exit 1; }
		echo "$engine n=$n whole: ${cpu} s CPU, peak RSS ${rss_mib} MiB"
	done
	;;
shards)
	n=$1 k=$2
	shift 2
	total=0
	for i in "$@"; do
		measure -n "$n" --shard "$i/$k" --json
		echo "$engine n=$n shard $i/$k: ${cpu} s CPU, peak RSS ${rss_mib} MiB, $(grep -o '"covered":[0-9]*' <<<"$out") pieces"
		total=$(awk -v a="$total" -v b="$cpu" 'BEGIN {print a + b}')
	done
	awk -v t="$total" -v c=$# -v k="$k" -v n="$n" -v e="$engine" \
		'BEGIN {printf "%s n=%d: mean %.1f s a shard x %d shards = %.2f core-hours (extrapolated)\n", e, n, t / c, k, t / c * k / 3600}'
	;;
*)
	echo "usage: scale.sh whole|shards ENGINE ..." >&2
	exit 2
	;;
esac
