#!/usr/bin/env bash
# count.sh times the solution counter, one thread, against the C reference
# counter nq_ref (a plain bitboard search with mirror halving), the two run
# alternately RUNS times per size, and prints the medians and their ratio.
# It also times the count on all cores and with --unique, checks every
# printed count against board/counts.tsv and reports the peak memory.
#
# Usage: bench/count.sh [--with-17]
# Environment: RUNS (default 5); NQ_REF_C, the path of nq_ref.c (default
# ../shared/bench/nq_ref.c beside the repository); QUEENS_BIN, a queens
# binary to time instead of building one from the repository.
set -euo pipefail

runs=${RUNS:-5}
sizes="15 16"
if [[ ${1:-} == --with-17 ]]; then
	sizes="15 16 17"
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
ref_src=${NQ_REF_C:-$repo/../shared/bench/nq_ref.c}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# What the script needs, said before anything runs: the C reference is not
# part of the repository, so a fresh clone must be told where it is.
fail() {
	echo "count.sh: $*" >&2
	exit 2
}
if [[ ! -f $ref_src ]]; then
	fail "no C reference counter at $ref_src: nq_ref.c is not part of the repository; set NQ_REF_C to its path (NQ_REF_C=/path/to/nq_ref.c bench/count.sh)"
fi
command -v gcc >/dev/null || fail "gcc is needed to build $ref_src (Debian package gcc)"
[[ -x /usr/bin/time ]] || fail "GNU time (/usr/bin/time) is needed for the peak memory (Debian package time)"
if [[ -z ${QUEENS_BIN:-} ]]; then
	command -v go >/dev/null || fail "go is needed to build queens (or set QUEENS_BIN to a queens binary)"
fi
gcc -O3 -march=native -o "$tmp/nq_ref" "$ref_src" || fail "gcc could not build $ref_src"
if [[ -n ${QUEENS_BIN:-} ]]; then
	queens=$QUEENS_BIN
else
	(cd "$repo" && go build -o "$tmp/queens" .)
	queens=$tmp/queens
fi

# run WANT CMD...: runs CMD once, checks that its output is WANT, prints
# the wall time in milliseconds and keeps the peak RSS (KiB) in $tmp/rss.
run() {
	local want=$1 start end got
	shift
	start=$(date +%s%N)
	/usr/bin/time -f %M -o "$tmp/rss" "$@" >"$tmp/out"
	end=$(date +%s%N)
	got=$(cat "$tmp/out")
	if [[ $got != "$want" ]]; then
		echo "count.sh: $* printed '$got', want '$want'" >&2
		exit 1
	fi
	echo $(((end - start) / 1000000))
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "runs per figure: $runs (medians, wall ms)"
printf '%3s %10s %10s %7s %10s %8s %10s %8s %8s\n' n nq_ref queens-1t ratio all-cores speedup unique-1t +cost rss-MiB
for n in $sizes; do
	total=$(awk -F'\t' -v n="$n" '$1 == n { print $2 }' "$repo/board/counts.tsv")
	unique=$(awk -F'\t' -v n="$n" '$1 == n { print $3 }' "$repo/board/counts.tsv")
	: >"$tmp/q1" >"$tmp/ref" >"$tmp/qall" >"$tmp/quniq"
	rss=0
	for ((i = 0; i < runs; i++)); do
		run "$total solutions" "$queens" backtrack -n "$n" --count --threads 1 >>"$tmp/q1"
		rss=$(( $(cat "$tmp/rss") > rss ? $(cat "$tmp/rss") : rss ))
		run "$n $total" "$tmp/nq_ref" "$n" >>"$tmp/ref"
		run "$total solutions" "$queens" backtrack -n "$n" --count >>"$tmp/qall"
		run "$total solutions ($unique unique)" "$queens" backtrack -n "$n" --count --unique --threads 1 >>"$tmp/quniq"
		rss=$(( $(cat "$tmp/rss") > rss ? $(cat "$tmp/rss") : rss ))
	done
	q1=$(median <"$tmp/q1")
	ref=$(median <"$tmp/ref")
	qall=$(median <"$tmp/qall")
	quniq=$(median <"$tmp/quniq")
	printf '%3s %10s %10s %7s %10s %8s %10s %8s %8s\n' "$n" "$ref" "$q1" "$(ratio "$q1" "$ref")" \
		"$qall" "$(ratio "$q1" "$qall")" "$quniq" "$(ratio "$quniq" "$q1")" "$((rss / 1024))"
done
echo "ratio = queens-1t / nq_ref; speedup = queens-1t / all-cores; +cost = unique-1t / queens-1t"
