#!/bin/bash
# jobs.sh writes the Kubernetes objects of a count of n = N in K shards, C
# shards a Job, to stdout: the count's volume (results-claim.yaml,
# queens-nN-ENGINE, sized for K shards), Job j (queens-nN-ENGINE-j, j from
# 0: count-job.yaml with C completions, fewer for the last, and
# --shard-base -j*C, so that its pod of completion index I counts shard
# j*C + I), then the merge Job (merge-job.yaml, queens-nN-ENGINE-merge),
# which reads the count's volume, its lines only.
#
#   deploy/k8s/jobs.sh N K C [ENGINE] | kubectl apply -f -
#   deploy/k8s/jobs.sh confirm N KC KJ | kubectl apply -f -
#
# ENGINE is --engine's: constellations (default) or join, the independent
# second count; every name and path of a count says n and engine, so the two
# counts of a record run side by side. confirm writes the Job
# (confirm-job.yaml, queens-nN-confirm) that checks the two records of n = N,
# counted in KC shards by the constellations and KJ by the join, and
# compares them (queens merge --confirm). Above 10^5 completions a Job needs
# maxFailedIndexes and parallelism of at most 10^4, which it gets here (the
# API server refuses it otherwise). A count pod asks for its engine's
# memory at n on its 4 threads, the merge and confirmation Jobs for the CPUs,
# memory and deadline of their recounts (deploy/sizing.sh). Environment:
# QUEENS_IMAGE the image (default: count-job.yaml's), QUEENS_SPLIT the
# constellations' --split (default auto), QUEENS_VERIFY the pieces the merge
# recounts (default 16), QUEENS_MERGE_CPUS the most CPUs a merge asks for
# (default 64), QUEENS_STORAGE_CLASS the volume's storage class (default: the
# cluster's).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=SCRIPTDIR/../sizing.sh
. "$here/../sizing.sh"
die() { echo "jobs.sh: $*" >&2; exit 2; }
: "${QUEENS_SPLIT:=auto}" "${QUEENS_VERIFY:=16}" "${QUEENS_MERGE_CPUS:=64}"
threads=4 # count-job.yaml's --threads and CPU request
whole() { # whole NAME VALUE MOST: VALUE is a whole number from 1 (no leading zero) to MOST
	if ! [[ $2 =~ ^[1-9][0-9]{0,8}$ ]] || (($2 > $3)); then
		die "$1=$2: want a whole number from 1 to $3"
	fi
}
[[ $QUEENS_VERIFY =~ ^(0|[1-9][0-9]{0,7})$ ]] || die "QUEENS_VERIFY=$QUEENS_VERIFY: want a whole number of pieces"
whole QUEENS_MERGE_CPUS "$QUEENS_MERGE_CPUS" 1024
image=${QUEENS_IMAGE:-}
[[ -z $image || $image =~ ^[A-Za-z0-9./:@_-]{1,255}$ ]] || die "QUEENS_IMAGE=$image: not an image name"
class=${QUEENS_STORAGE_CLASS:-}
[[ -z $class || $class =~ ^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$ ]] || die "QUEENS_STORAGE_CLASS=$class: not a storage class name"
# n=N's split for ENGINE: the constellations' QUEENS_SPLIT, auto resolved as queens does; 0 for the join.
splitFor() {
	if [[ $2 == join ]]; then
		echo 0
	elif [[ $QUEENS_SPLIT == auto ]]; then
		echo $(($1 < 24 ? 0 : 1 << ($1 - 16)))
	elif [[ $QUEENS_SPLIT =~ ^(0|[2-9]|[1-9][0-9]{1,4})$ ]] && ((QUEENS_SPLIT <= 65536)); then
		echo "$QUEENS_SPLIT"
	else
		echo "jobs.sh: QUEENS_SPLIT=$QUEENS_SPLIT: want auto, 0 or 2 to 65536" >&2
		return 2
	fi
}
# job TEMPLATE SED-ARGS...: the template, its comment lines left out, image set.
job() {
	local template=$1
	shift
	echo ---
	sed -e '/^#/d' ${image:+-e "s|image: [^ ]*|image: $image|"} "$@" "$here/$template"
}

if [[ ${1:-} == confirm ]]; then
	(($# == 4)) || die "usage: jobs.sh confirm N KC KJ"
	n=$2 kc=$3 kj=$4
	[[ $n =~ ^[1-9][0-9]{0,8}$ ]] || die "N=$n: want a whole number from 1"
	((n <= $(queens_max_n join))) || die "N=$n: the join engine counts n <= $(queens_max_n join)"
	whole KC "$kc" 33554432
	whole KJ "$kj" 33554432
	split=$(splitFor "$n" constellations) || exit 2
	# Both records' recounts, and as many of each record's pieces again with
	# the other engine: each merge's sizing with twice the pieces, one after the other.
	read -r cc cs cm < <(queens_merge "$n" "$kc" constellations "$split" $((2 * QUEENS_VERIFY)) "$QUEENS_MERGE_CPUS")
	read -r jc js jm < <(queens_merge "$n" "$kj" join 0 $((2 * QUEENS_VERIFY)) "$QUEENS_MERGE_CPUS")
	cpus=$((cc > jc ? cc : jc)) mem=$((cm + jm))
	job confirm-job.yaml -e "s/n20-/n$n-/g" -e "s/activeDeadlineSeconds: [0-9]* /activeDeadlineSeconds: $((cs + js)) /" \
		-e "s/--threads, \"1\",/--threads, \"$cpus\",/" -e "s/requests: {cpu: \"1\", memory: [0-9]*Mi}/requests: {cpu: \"$cpus\", memory: ${mem}Mi}/" \
		-e "s/limits: {memory: [0-9]*Mi}/limits: {memory: ${mem}Mi}/"
	exit 0
fi

(($# == 3 || $# == 4)) || die "usage: jobs.sh N K C [constellations|join] | jobs.sh confirm N KC KJ"
n=$1 k=$2 c=$3 engine=${4:-constellations}
[[ $engine == constellations || $engine == join ]] || die "ENGINE=$engine: want constellations or join"
[[ $n =~ ^[1-9][0-9]{0,8}$ ]] || die "N=$n: want a whole number from 1"
((n <= $(queens_max_n "$engine"))) || die "N=$n: the $engine engine counts n <= $(queens_max_n "$engine")"
whole K "$k" 33554432
whole C "$c" "$k"
jobs=$(((k + c - 1) / c))
((jobs <= 1000)) || die "$jobs Jobs: want at most 1000 (raise C)"
split=$(splitFor "$n" "$engine") || exit 2
name=n$n-$engine
# Memory, in MiB: a count pod's for its engine, n and threads; its request
# is the template's 64Mi for the constellations' few MiB, its limit for
# the join; the join's halves get half its limit (--memory).
countmem=$(queens_count_memory "$n" "$engine" "$threads")
countreq=64
[[ $engine != join ]] || countreq=$countmem
read -r mcpus msecs mmem < <(queens_merge "$n" "$k" "$engine" "$split" "$QUEENS_VERIFY" "$QUEENS_MERGE_CPUS")
engineArgs="--engine, constellations, --split, $QUEENS_SPLIT,"
[[ $engine != join ]] || engineArgs="--engine, join, --memory, $(queens_join_memory "$n" "$threads")MiB,"

job results-claim.yaml -e "s/n20-constellations/$name/g" \
	-e "s/requests: {storage: [0-9]*Mi} .*/requests: {storage: $(queens_storage "$n" "$k" "$engine" "$split")Mi}/" \
	${class:+-e "s/^  accessModes:/  storageClassName: $class\n&/"}
for ((j = 0; j < jobs; j++)); do
	size=$((j + 1 < jobs ? c : k - j * c))
	par=$((size > 100000 ? 10000 : size)) failed=$((size > 100 ? 100 : size))
	job count-job.yaml -e "s/n20-constellations/$name/g" -e "s/name: queens-$name-0 .*/name: queens-$name-$j/" \
		-e "s/completions: 16 .*/completions: $size/" -e "s/parallelism: 16 .*/parallelism: $par/" \
		-e "s/maxFailedIndexes: 16 .*/maxFailedIndexes: $failed/" -e "s/{name: JOB, value: \"0\"}.*/{name: JOB, value: \"$j\"}/" \
		-e "s/-n, \"20\"/-n, \"$n\"/" -e "s/--engine, constellations, --split, auto,/$engineArgs/" \
		-e "s/--shard-count, \"16\", --shard-base=0,/--shard-count, \"$k\", --shard-base=$((-j * c)),/" \
		-e "s/requests: {cpu: \"4\", memory: 64Mi}/requests: {cpu: \"$threads\", memory: ${countreq}Mi}/" \
		-e "s/limits: {memory: 256Mi}/limits: {memory: ${countmem}Mi}/"
done
job merge-job.yaml -e "s/n20-constellations/$name/g" -e "s/activeDeadlineSeconds: [0-9]* /activeDeadlineSeconds: $msecs /" \
	-e "s/--verify, \"16\", --threads, \"1\",/--verify, \"$QUEENS_VERIFY\", --threads, \"$mcpus\",/" \
	-e "s/requests: {cpu: \"1\", memory: [0-9]*Mi}/requests: {cpu: \"$mcpus\", memory: ${mmem}Mi}/" \
	-e "s/limits: {memory: [0-9]*Mi}/limits: {memory: ${mmem}Mi}/"
