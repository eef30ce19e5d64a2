#!/bin/bash
# jobs.sh writes the Kubernetes Jobs of a count of n = N in K shards, C
# shards a Job, to stdout: Job j (queens-nN-j, j from 0) is count-job.yaml
# with C completions (fewer for the last) and --shard-base -j*C, so that its
# pod of completion index I counts shard j*C + I; then the merge Job,
# merge-job.yaml for all K results (or the results directory, above
# 1000 shards: a Job's arguments cannot list millions of files).
#
#   deploy/k8s/jobs.sh N K C [ENGINE] | kubectl apply -f -
#
# ENGINE is --engine's: constellations (default) or join. Above 10^5
# completions a Job needs maxFailedIndexes and parallelism of at most 10^4,
# which it gets here (the API server refuses it otherwise). Environment:
# QUEENS_IMAGE the image (default: count-job.yaml's).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "jobs.sh: $*" >&2; exit 2; }
(($# == 3 || $# == 4)) || die "usage: jobs.sh N K C [constellations|join]"
n=$1 k=$2 c=$3 engine=${4:-constellations}
for v in n k c; do
	[[ ${!v} =~ ^[1-9][0-9]{0,7}$ ]] || die "$v=${!v}: want a whole number from 1"
done
((n >= 4 && n <= 32)) || die "N=$n: want 4 to 32"
((k <= 33554432)) || die "K=$k: want at most 2^25 shards"
((c <= k)) || die "C=$c: want at most K=$k shards a Job"
[[ $engine == constellations || $engine == join ]] || die "ENGINE=$engine: want constellations or join"
jobs=$(((k + c - 1) / c))
((jobs <= 1000)) || die "$jobs Jobs: want at most 1000 (raise C)"
# Memory, in MiB. A count pod: the constellation counter needs a few MiB a
# thread, so count-job.yaml's 256Mi; the join holds its halves within what
# the limit leaves (its --memory default reads the cgroup's limit), and
# needs about 480 MiB a thread for n = 20 to 22 and up to 2 GiB a thread
# from n = 23 (docs/scale.md), on count-job.yaml's 4 threads. The merge
# Job: the streaming merge's 24 bytes a shard (416 MiB measured at 2^24
# shards; 32 here) on top of what its recount of the count's
# pieces needs, which is a count pod's. A pod's request is the templates'
# 64Mi while its limit is their 256Mi, and its limit above that.
countmem=256
if [[ $engine == join ]]; then
	((n < 20)) || countmem=2048
	((n < 23)) || countmem=8192
fi
mergemem=$((countmem + k * 32 / 1048576))
countreq=$((countmem > 256 ? countmem : 64)) mergereq=$((mergemem > 256 ? mergemem : 64))
image=${QUEENS_IMAGE:-}
[[ -z $image || $image =~ ^[A-Za-z0-9./:@_-]+$ ]] || die "QUEENS_IMAGE=$image: not an image name"
for ((j = 0; j < jobs; j++)); do
	size=$((j + 1 < jobs ? c : k - j * c))
	par=$((size > 100000 ? 10000 : size)) failed=$((size > 100000 ? 10000 : size))
	echo ---
	sed -e '/^#/d' -e "s/name: queens-n20-0 .*/name: queens-n$n-$j/" \
		-e "s/completions: 16 .*/completions: $size/" -e "s/parallelism: 16 .*/parallelism: $par/" \
		-e "s/maxFailedIndexes: 16 .*/maxFailedIndexes: $failed/" -e "s/{name: JOB, value: \"0\"}.*/{name: JOB, value: \"$j\"}/" \
		-e "s/-n, \"20\"/-n, \"$n\"/" -e "s/--engine, constellations/--engine, $engine/" \
		-e "s/--shard-count, \"16\", --shard-base=0,/--shard-count, \"$k\", --shard-base=$((-j * c)),/" \
		-e "s|/results/n20-|/results/n$n-|g" ${image:+-e "s|image: [^ ]*|image: $image|"} \
		-e "s/limits: {memory: 256Mi}/limits: {memory: ${countmem}Mi}/" \
		-e "s/memory: 64Mi}/memory: ${countreq}Mi}/" "$here/count-job.yaml"
done
echo ---
awk -v n="$n" -v k="$k" -v c="$c" -v image="$image" -v mem="$mergemem" -v req="$mergereq" '
/^#/ { next }
/limits: {memory: 256Mi}/ { sub(/256Mi/, mem "Mi") }
/requests:/ { sub(/memory: 64Mi/, "memory: " req "Mi") }
/name: queens-n20-merge/ { sub(/queens-n20-merge/, "queens-n" n "-merge") }
image != "" && /image:/ { sub(/image: [^ ]*/, "image: " image) }
/args: \[merge/ {
	sub(/n20-merged/, "n" n "-merged"); print
	if (k > 1000) { print "          /results]   # every result file under it: merge must read directories"; skip = 1; next }
	line = "         "
	for (s = 0; s < k; s++) {
		line = line " /results/n" n "-j" int(s / c) "-" (s % c) ".jsonl" (s + 1 < k ? "," : "]")
		if (length(line) > 100 || s + 1 == k) { print line; line = "         " }
	}
	skip = 1; next
}
skip && /resources:/ { skip = 0 }
!skip { print }
' "$here/merge-job.yaml"
