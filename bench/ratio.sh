#!/usr/bin/env bash
# ratio.sh: the half-board join against the constellation engine at the
# sizes where counting costs core-days (issue: "ahead at every size people
# count"). For each n it draws S random shards of each engine (a seeded
# draw, printed), runs each on one thread under /usr/bin/time, the join on
# every SIMD path this CPU has (QUEENS_SIMD=avx512, avx2, go), and prints
#
#   the whole-count CPU estimate of each engine and path: the mean CPU of
#   its shards x its K (the shards of a round-robin deal are alike: see
#   docs/scale.md "Sizing"),
#   the ratio join / constellations of those estimates, and
#   the join's pairs per solution: the shards' nodes over their totals.
#
# with the CPU's model and the paths it has. A line's nodes and total are
# read as its engine wrote them (the engines' counts are checked by the
# tests and by merge --verify; this script measures).
#
# Usage: bench/ratio.sh N:KJ:KC ...   (KJ, KC: the join's and the
#        constellations' shard counts for N; pick them so that a shard takes
#        1-4 minutes of one core: 20:64:64 21:256:256 22:2048:2048
#        23:8192:16384 on an AMD EPYC)
# Environment: SAMPLES (default 3), SEED (default: from $RANDOM, printed),
# PATHS (default: the ones the CPU has), QUEENS_BIN (a binary to use).
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
build_queens
samples=${SAMPLES:-3}
seed=${SEED:-$RANDOM}
flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
if [[ -z ${PATHS:-} ]]; then
	PATHS=go
	[[ $flags == *" avx2"* ]] && PATHS="avx2 $PATHS"
	[[ $flags == *avx512f* && $flags == *avx512bw* ]] && PATHS="avx512 $PATHS"
fi
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') | join paths: $PATHS | seed $seed | $samples shards an engine"
RANDOM=$seed

# run LABEL N K I [ENV...]: one shard on one thread; appends "cpu nodes
# total" to $tmp/LABEL-N.
run() {
	local label=$1 n=$2 k=$3 i=$4 engine=join
	shift 4
	[[ $label == constellations ]] && engine=constellations
	env "$@" /usr/bin/time -f '%U %S' -o "$tmp/time" "$queens" backtrack -n "$n" --count --threads 1 \
		--engine "$engine" --shard "$i/$k" --json --progress-every 0 >"$tmp/line"
	read -r user sys <"$tmp/time"
	local nodes total
	nodes=$(grep -o '"nodes":[0-9]*' "$tmp/line" | cut -d: -f2)
	total=$(grep -o '"total":"[0-9]*"' "$tmp/line" | tr -dc 0-9)
	echo "$user $sys $nodes $total" >>"$tmp/$label-$n"
	echo "  $label n=$n shard $i/$k: $(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.1f", u + s}') s CPU" >&2
}

# estimate LABEL N K: the whole-count CPU seconds from LABEL's shards.
estimate() {
	awk -v k="$3" '{c += $1 + $2; m++} END {printf "%.1f", c / m * k}' "$tmp/$1-$2"
}

for spec in "$@"; do
	IFS=: read -r n kj kc <<<"$spec"
	[[ -n $n && -n $kj && -n $kc ]] || { echo "ratio.sh: want N:KJ:KC, got $spec" >&2; exit 2; }
	for _ in $(seq "$samples"); do
		i=$(((RANDOM * 32768 + RANDOM) % kj))
		for p in $PATHS; do
			run "join-$p" "$n" "$kj" "$i" QUEENS_SIMD="$p"
		done
		run constellations "$n" "$kc" $(((RANDOM * 32768 + RANDOM) % kc))
	done
	con=$(estimate constellations "$n" "$kc")
	pairs=$(awk '{p += $3; t += $4} END {printf "%.0f", p / t}' "$tmp/join-${PATHS%% *}-$n")
	line="n=$n: constellations ${con} s"
	for p in $PATHS; do
		j=$(estimate "join-$p" "$n" "$kj")
		line+=" | join $p ${j} s, $(awk -v a="$j" -v b="$con" 'BEGIN {printf "%.3f", a / b}')x"
	done
	echo "$line | $pairs pairs a solution"
done
