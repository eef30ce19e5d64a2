#!/usr/bin/env bash
# bench/proof.sh: how long the drat package takes to check the DRAT proofs
# cadical writes, by proof size. Two families of unsatisfiable CNFs (the
# pairwise encoding from queens dimacs):
#
#   all-N     the last call of a full enumeration: the CNF plus one blocking
#             clause per solution (N = 5 .. MAXN)
#   placed-N  queens pre-placed so that no solution extends them (the first
#             such 1, 2 or 3 queens in rows 1..3 that queens backtrack finds;
#             N = 8 .. MAXN)
#
# cadical writes each proof (binary DRAT, its default); then
# go test -bench BenchmarkDir ./drat checks every proof RUNS times and the
# script prints the median time per proof with its lemmas, core lemmas and
# bytes. Needs bash, awk, go and cadical (apt-get install cadical). Usage:
#
#   bench/proof.sh [RUNS]      (default 5; MAXN=11 by default)
set -euo pipefail
runs=${1:-5}
maxn=${MAXN:-11}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v cadical >/dev/null || { echo "bench/proof.sh: cadical not on PATH (apt-get install cadical)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/queens" "$root"
q=$tmp/queens
dir=$tmp/proofs
mkdir "$dir"

# prove NAME: cadical on NAME.cnf must answer UNSAT (exit 20).
prove() {
	local rc=0
	cadical -q "$dir/$1.cnf" "$dir/$1.drat" >/dev/null || rc=$?
	[ "$rc" = 20 ] || { echo "bench/proof.sh: cadical exit $rc on $1 (want 20, UNSAT)" >&2; exit 1; }
}

for n in $(seq 5 "$maxn"); do
	name=$(printf 'all-%02d' "$n")
	"$q" backtrack -n "$n" --all --format perm >"$tmp/sols"
	sols=$(wc -l <"$tmp/sols")
	"$q" dimacs -n "$n" --encoding pairwise | awk -v n="$n" -v sols="$sols" -v f="$tmp/sols" '
		/^p cnf/ { print "p cnf", $3, $4 + sols; next }
		{ print }
		END { while ((getline line < f) > 0) { k = split(line, c, " "); s = ""
			for (r = 1; r <= k; r++) s = s "-" ((r - 1) * n + c[r]) " "
			print s "0" } }' >"$dir/$name.cnf"
	prove "$name"
done

# unsat_placement N: prints --place flags of the first placement in rows
# 1..3 that no solution extends.
unsat_placement() {
	local n=$1 a b c
	for a in $(seq 1 "$n"); do
		[ "$("$q" backtrack -n "$n" --count --place "1:$a")" = "0 solutions" ] && { echo "--place 1:$a"; return; }
	done
	for a in $(seq 1 "$n"); do for b in $(seq 1 "$n"); do
		[ $((a - b)) -ge -1 ] && [ $((a - b)) -le 1 ] && continue
		[ "$("$q" backtrack -n "$n" --count --place "1:$a" --place "2:$b")" = "0 solutions" ] &&
			{ echo "--place 1:$a --place 2:$b"; return; }
	done; done
	for a in $(seq 1 "$n"); do for b in $(seq 1 "$n"); do for c in $(seq 1 "$n"); do
		d1=$((a - b)); d2=$((a - c)); d3=$((b - c))
		[ "${d1#-}" -le 1 ] || [ "${d3#-}" -le 1 ] || [ "$a" = "$c" ] || [ "${d2#-}" = 2 ] && continue
		[ "$("$q" backtrack -n "$n" --count --place "1:$a" --place "2:$b" --place "3:$c")" = "0 solutions" ] &&
			{ echo "--place 1:$a --place 2:$b --place 3:$c"; return; }
	done; done; done
}

for n in $(seq 8 "$maxn"); do
	name=$(printf 'placed-%02d' "$n")
	place=$(unsat_placement "$n")
	[ -n "$place" ] || { echo "c no unsatisfiable placement found for n=$n" >&2; continue; }
	# shellcheck disable=SC2086
	"$q" dimacs -n "$n" --encoding pairwise $place >"$dir/$name.cnf"
	echo "c $name: $place" >&2
	prove "$name"
done

cd "$root"
DRAT_BENCH_DIR=$dir go test ./drat -run '^$' -bench '^BenchmarkDir$' -count "$runs" >"$tmp/bench.txt"
awk '
	/^BenchmarkDir\// {
		name = $1; sub(/^BenchmarkDir\//, "", name); sub(/-[0-9]+$/, "", name)
		for (i = 3; i < NF; i++) {
			if ($(i+1) == "ns/op") t[name] = t[name] " " $i
			if ($(i+1) == "lemmas/op") lem[name] = $i
			if ($(i+1) == "core/op") core[name] = $i
			if ($(i+1) == "proof-bytes/op") by[name] = $i
		}
	}
	END {
		printf "%-10s %9s %9s %10s %10s %12s\n", "proof", "lemmas", "core", "bytes", "median-ms", "us/lemma"
		for (name in t) names[++k] = name
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (names[j] < names[i]) { s = names[i]; names[i] = names[j]; names[j] = s }
		for (i = 1; i <= k; i++) {
			name = names[i]; m = split(substr(t[name], 2), v, " ")
			for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (v[b] < v[a]) { s = v[a]; v[a] = v[b]; v[b] = s }
			med = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
			printf "%-10s %9d %9d %10d %10.3f %12.2f\n", name, lem[name], core[name], by[name], med / 1e6, med / 1e3 / (lem[name] > 0 ? lem[name] : 1)
		}
	}' "$tmp/bench.txt"
