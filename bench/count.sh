#!/usr/bin/env bash
# count.sh times `queens backtrack -n N --count --threads 1` with both
# counting engines (join: the half-board join; constellations: the
# bitboard counter) against the C reference counter nq_ref (a plain
# bitboard search with mirror halving), all run alternately RUNS times per
# size, and prints the medians of their CPU time (user + system, from GNU
# time) and the ratios to nq_ref, beside the targets of issue 32. The join
# is timed on each of its matcher's paths that this CPU runs
# (QUEENS_SIMD=avx512, avx2, go) and built with -tags purego, one row
# each, and the first line names the CPU and its SIMD flags. n = 19 is
# timed against nq_ref at n = 18 times 7, its measured growth. On the
# default path it also times the join on two threads (speedup = wall time
# on one thread / on two) and reports the peak RSS of every run, under the
# default memory limit and under --memory 256MiB; it checks every printed
# count against the published table.
#
# Usage: bench/count.sh
# Environment: SIZES (default "16 17 18"; add 19 for the slow one), RUNS
# (default 3), PATHS (default: every path this CPU runs, then purego),
# CONSTEL_MAX (default 18: the constellation counter is timed up to this n
# only, as it takes minutes at 19), NQ_REF_C (the path of nq_ref.c;
# default nq_ref.c at the repository's root if there, as on a machine that
# gets a copy of the working tree only, else ../shared/bench/nq_ref.c beside
# the repository), QUEENS_BIN (a
# queens binary to time instead of building one; no purego row then).
set -euo pipefail

runs=${RUNS:-3}
sizes=${SIZES:-16 17 18}
constel_max=${CONSTEL_MAX:-18}
repo=$(cd "$(dirname "$0")/.." && pwd)
ref_src=${NQ_REF_C:-$repo/../shared/bench/nq_ref.c}
if [[ -z ${NQ_REF_C:-} && -r $repo/nq_ref.c ]]; then ref_src=$repo/nq_ref.c; fi
counts=$repo/board/counts.tsv

need() {
	echo "count.sh: $*" >&2
	exit 2
}
[[ -x /usr/bin/time ]] || need "needs GNU time as /usr/bin/time (apt-get install time)"
[[ -r $ref_src ]] || need "needs the reference counter's source nq_ref.c: set NQ_REF_C=PATH (it is ../shared/bench/nq_ref.c beside the repository on the project's machines)"
command -v gcc >/dev/null || need "needs gcc to build nq_ref (gcc -O3 -march=native)"
for n in $sizes; do
	[[ $n =~ ^(1[0-9]|2[0-2])$ ]] || need "SIZES: $n is not a board size from 10 to 22"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O3 -march=native -o "$tmp/nq_ref" "$ref_src" || need "gcc could not build $ref_src"
if [[ -n ${QUEENS_BIN:-} ]]; then
	queens=$QUEENS_BIN
else
	(cd "$repo" && go build -o "$tmp/queens" .) || need "go build failed (needs Go, see go.mod)"
	queens=$tmp/queens
	(cd "$repo" && go build -tags purego -o "$tmp/queens-purego" .) || need "go build -tags purego failed"
fi

# The paths to time: those this CPU runs (QUEENS_SIMD), then the purego
# build; the first is the default path.
if [[ -z ${PATHS:-} ]]; then
	PATHS=
	for p in avx512 avx2 go; do
		if QUEENS_SIMD=$p "$queens" backtrack -n 4 --count >/dev/null 2>&1; then PATHS+="$p "; fi
	done
	[[ -x $tmp/queens-purego ]] && PATHS+=purego
fi
read -r -a paths <<<"$PATHS"
((${#paths[@]})) || need "PATHS is empty"
for p in "${paths[@]}"; do
	case $p in
	purego) [[ -x $tmp/queens-purego ]] || need "PATHS: purego needs a build (unset QUEENS_BIN)" ;;
	avx512 | avx2 | go) ;;
	*) need "PATHS: unknown path $p (want avx512, avx2, go or purego)" ;;
	esac
done

# run WANT CMD...: runs CMD once under GNU time, checks that its output is
# WANT and prints "CPU-ms WALL-ms RSS-KiB".
run() {
	local want=$1 got
	shift
	/usr/bin/time -v -o "$tmp/time" "$@" >"$tmp/out"
	got=$(cat "$tmp/out")
	if [[ $got != "$want" ]]; then
		echo "count.sh: $* printed '$got', want '$want'" >&2
		exit 1
	fi
	awk -F': ' '
		/User time/ { u = $2 } /System time/ { s = $2 }
		/Maximum resident set size/ { m = $2 }
		/Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + p[i] }
		END { printf "%d %d %d\n", (u + s) * 1000, w * 1000, m }' "$tmp/time"
}

# on PATH WANT ARGS...: runs queens ARGS with the join on PATH (see run).
on() {
	local p=$1 want=$2
	shift 2
	if [[ $p == purego ]]; then
		run "$want" env -u QUEENS_SIMD "$tmp/queens-purego" "$@"
	else
		run "$want" env QUEENS_SIMD="$p" "$queens" "$@"
	fi
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() {
	if [[ $1 == - || $2 == - ]]; then printf -; return; fi
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else printf "-" }'
}
col() { awk -v c="$1" '{ print $c }' "$2" | median; }
maxof() { awk -v c="$1" '$c > m { m = $c } END { print m }' "$2"; }
# target PATH N: issue 32's most for the join on PATH at N.
target() {
	local t
	case $1 in
	avx512) t=(0.035 0.060 0.020 0.030) ;;
	avx2) t=(0.060 0.113 0.033 0.052) ;;
	*) t=(0.11 0.21 0.06 0.10) ;;
	esac
	case $2 in 16 | 17 | 18 | 19) echo "${t[$2 - 16]}" ;; *) echo - ;; esac
}

flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -xE 'avx2|bmi2|popcnt|avx512f|avx512_vpopcntdq' | tr '\n' ' ')
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); flags: ${flags% }"
echo "runs per figure: $runs, alternating (medians; CPU = user + system ms); paths: ${paths[*]}"
printf '%3s %-6s %9s %9s %7s %7s %9s %7s %7s %8s %8s %8s %8s\n' n path nq_ref join-1t ratio target constel ratio join/c 2t-speed join-MiB 256-MiB con-MiB
for n in $sizes; do
	total=$(awk -F'\t' -v n="$n" '$1 == n { print $2 }' "$counts")
	refn=$n scale=1
	if ((n > 18)); then refn=18 scale=$((7 ** (n - 18))); fi
	reftotal=$(awk -F'\t' -v n="$refn" '$1 == n { print $2 }' "$counts")
	# nq_ref at refn is timed once per run of the script (n = 19 reuses
	# the times of n = 18 when 18 came first).
	fresh=0
	[[ -e $tmp/ref-$refn ]] || fresh=1
	: >"$tmp/c1" >"$tmp/j2" >"$tmp/jm"
	for p in "${paths[@]}"; do : >"$tmp/j1-$p"; done
	for ((i = 0; i < runs; i++)); do
		if ((fresh)); then
			run "$refn $reftotal" "$tmp/nq_ref" "$refn" >>"$tmp/ref-$refn"
		fi
		for p in "${paths[@]}"; do
			on "$p" "$total solutions" backtrack -n "$n" --count --engine join --threads 1 >>"$tmp/j1-$p"
		done
		if ((n <= constel_max)); then
			run "$total solutions" "$queens" backtrack -n "$n" --count --engine constellations --threads 1 >>"$tmp/c1"
		fi
		on "${paths[0]}" "$total solutions" backtrack -n "$n" --count --engine join --threads 2 >>"$tmp/j2"
		if ((i == 0)); then
			on "${paths[0]}" "$total solutions" backtrack -n "$n" --count --engine join --threads 1 --memory 256MiB >>"$tmp/jm"
		fi
	done
	ref=$(awk -v a="$(col 1 "$tmp/ref-$refn")" -v s="$scale" 'BEGIN { printf "%d", a * s }')
	c1=$(col 1 "$tmp/c1")
	[[ -s $tmp/c1 ]] || c1=-
	for p in "${paths[@]}"; do
		j1=$(col 1 "$tmp/j1-$p")
		if [[ $p == "${paths[0]}" ]]; then
			printf '%3s %-6s %9s %9s %7s %7s %9s %7s %7s %8s %8s %8s %8s\n' "$n" "$p" "$ref" "$j1" "$(ratio "$j1" "$ref")" "$(target "$p" "$n")" \
				"$c1" "$(ratio "$c1" "$ref")" "$(ratio "$j1" "$c1")" "$(ratio "$(col 2 "$tmp/j1-$p")" "$(col 2 "$tmp/j2")")" \
				"$(($(maxof 3 "$tmp/j1-$p") / 1024))" "$(($(maxof 3 "$tmp/jm") / 1024))" "$([[ -s $tmp/c1 ]] && echo $(($(maxof 3 "$tmp/c1") / 1024)) || echo -)"
		else
			printf '%3s %-6s %9s %9s %7s %7s %9s %7s %7s %8s %8s %8s %8s\n' "$n" "$p" "$ref" "$j1" "$(ratio "$j1" "$ref")" "$(target "$p" "$n")" \
				- - "$(ratio "$j1" "$c1")" - "$(($(maxof 3 "$tmp/j1-$p") / 1024))" - -
		fi
	done
done
echo "ratio = CPU time / nq_ref's (n > 18: nq_ref at 18 times 7 per size); target: issue 32 for the path;"
echo "path: QUEENS_SIMD (the first the default), purego: built with -tags purego; constellations, 2t and memory on the first;"
echo "join/c = join / constellations; 2t-speed = join's wall time on 1 thread / on 2;"
echo "MiB: peak RSS (join-MiB: the default --memory, 256-MiB: --memory 256MiB, con-MiB: constellations)"
