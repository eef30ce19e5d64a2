#!/usr/bin/env bash
# bench/merge.sh: the memory and time of queens merge on lines shaped like
# those of the n = 28 plan (docs/scale.md: K = 2^24 shards of a split 4096
# ways, 11 or 12 pieces each, some 870 bytes a line).
#
# A generator (TestGenerateMergeLines of package shard: the lines a shard
# writes, with made-up tallies of a known sum) writes shards 0..M-1 into
# merge's stdin through a pipe, nothing on disk (16.8 M lines are 14.6 GB);
# merge --threads 1 reads them under GNU time, which gives its peak RSS
# and CPU time (the generator's are its own).
#
# M = 16777216 (2^24) is every shard: the whole merge of the plan, whose
# total and unique counts must be those the generator added up. A smaller
# M ends "missing shard" (the other shards are absent), having read and
# checked every line: the work of a whole merge but the final sum; it is
# run with M/4 lines too, and the difference gives the memory per line.
#
# bench/merge.sh files [M] measures instead what the plans write: M lines
# (default 2^20) written to disk, merged from one file per line (a parts
# directory of M *.jsonl files, as count.sbatch and the Kubernetes Jobs
# write them) and from 16 files, each under GNU time: CPU seconds, peak
# RSS, lines per second, and the CPU's model. It needs some 1 KiB of disk
# and an inode a line (2^22 lines: 4.2 M inodes), removed at exit.
#
# Usage: bench/merge.sh [M]   (default 1000000: about 1 minute of CPU;
#                              16777216: the whole merge, some 8.5 CPU-minutes
#                              of merge and 6 of the generator on an AMD EPYC,
#                              420 MiB of memory, no disk)
# Needs GNU time (apt-get install -y time).
set -euo pipefail
if [[ ${1:-} == files ]]; then
	m=${2:-1048576}
	if ! [[ $m =~ ^[1-9][0-9]*$ ]] || ((m > 16777216)); then
		echo "usage: bench/merge.sh files [lines: 1 to 16777216]" >&2
		exit 2
	fi
	source "$(dirname "$0")/lib.sh"
	build_queens
	(cd "$repo" && go test -c -o "$tmp/shard.test" ./shard)
	QUEENS_MERGE_FILE=$tmp/all QUEENS_MERGE_LINES=$m "$tmp/shard.test" -test.run '^TestGenerateMergeLines$' >/dev/null
	mkdir "$tmp/one" "$tmp/few"
	(cd "$tmp/one" && split -l 1 -a 8 --additional-suffix=.jsonl "$tmp/all" l)
	(cd "$tmp/few" && split -n l/16 -a 2 --additional-suffix=.jsonl "$tmp/all" l)
	rm "$tmp/all"
	echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $m lines"
	for d in one few; do
		/usr/bin/time -f "%M %U %S %e" -o "$tmp/time" "$queens" merge --format json --threads 1 "$tmp/$d" >"$tmp/out" 2>"$tmp/err" || true
		grep -q "absent\|matches\|unknown" "$tmp/out" "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
		read -r kb user sys wall < <(tail -n 1 "$tmp/time")
		what="one file per line"
		[[ $d == few ]] && what="16 files"
		awk -v w="$what" -v kb="$kb" -v u="$user" -v s="$sys" -v e="$wall" -v n="$m" 'BEGIN {
			printf "%s: %.1f CPU-s (%.1f user, %.1f system), %.1f s wall, peak RSS %d MiB, %.0f lines per CPU-s; per 2^24 lines: %.1f CPU-minutes\n",
				w, u + s, u, s, e, kb / 1024, n / (u + s), (u + s) * 16777216 / n / 60 }'
	done
	exit 0
fi
m=${1:-1000000}
if ! [[ $m =~ ^[1-9][0-9]*$ ]] || ((m > 16777216)); then
	echo "usage: bench/merge.sh [lines: 1 to 16777216]" >&2
	exit 2
fi
source "$(dirname "$0")/lib.sh"
build_queens
(cd "$repo" && go test -c -o "$tmp/shard.test" ./shard)
measure() { # lines -> peak RSS in KB; the figures on stderr
	QUEENS_MERGE_FILE=/dev/fd/3 QUEENS_MERGE_LINES=$1 "$tmp/shard.test" -test.run '^TestGenerateMergeLines$' 3>&1 >/dev/null 2>"$tmp/gen" |
		/usr/bin/time -f "%M %U %S %e" -o "$tmp/time" "$queens" merge --format json --threads 1 - >"$tmp/out" 2>"$tmp/err" || true
	read -r kb user sys wall < <(tail -n 1 "$tmp/time")
	echo "$1 lines: peak RSS $((kb / 1024)) MiB, $user s user + $sys s system CPU, $wall s wall:" \
		"$(awk -v u="$user" -v s="$sys" -v n="$1" 'BEGIN { printf "%.1f", (u + s) * 1e6 / n }') CPU-s per million lines" >&2
	echo "$kb"
}
if ((m == 16777216)); then
	measure "$m" >/dev/null
	want=$(tail -n 1 "$tmp/gen") # "total T unique U"
	got=$(sed -n 's/.*"total":\([0-9]*\),"unique":\([0-9]*\),.*/total \1 unique \2/p' "$tmp/out")
	if [[ -z $got || $got != "$want" ]]; then
		echo "merge gave \"$got\", the lines add up to \"$want\":" >&2
		cat "$tmp/out" "$tmp/err" >&2
		exit 1
	fi
	echo "the merge of all $m lines found $got, as the lines add up to"
	exit 0
fi
kq=$(measure $((m / 4)))
ka=$(measure "$m")
grep -q "missing shard" "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
awk -v a="$ka" -v q="$kq" -v n=$((m - m / 4)) 'BEGIN { b = (a - q) * 1024 / n; printf "memory per line: %.0f bytes (16.8 M lines: about %.1f GiB)\n", b, (q * 1024 + b * (16777216 - n / 3)) / 2^30 }'
