#!/bin/bash
# submit.sh: submit a count as a job array (count.sbatch) and its merge
# (merge.sbatch) to run after it, however its tasks end. Prints the two job ids.
#
#   QUEENS_N=20 QUEENS_SHARDS=64 deploy/slurm/submit.sh [SBATCH OPTION...]
#
# Environment: QUEENS the binary (default: queens on PATH), QUEENS_N the board
# size (default 20), QUEENS_SHARDS the number of shards K (default 64),
# QUEENS_CPUS the CPUs (threads) of each shard (default 2), QUEENS_ENGINE the
# counter (constellations, the default, or join: the independent second
# count), QUEENS_SPLIT the sub-parts per constellation (default auto),
# QUEENS_PARTS the count's directory (default parts-nN-ENGINE in the current
# directory, made absolute; the logs go to the current directory),
# QUEENS_VERIFY the pieces the merge recounts (default 16), QUEENS_MERGE_CPUS
# the most CPUs the merge asks for (default 64).
# It refuses (exit status 2, nothing submitted) a QUEENS_PARTS that holds
# another count: another n, K, engine or split (count.sbatch's check). Each
# task asks for the memory of its engine, n and CPUs, and the merge for the
# CPUs, time and memory of its recount and of reading K lines (deploy/sizing.sh,
# printed on stderr). The options given go to both sbatch calls, after those
# (so they win: for example --partition, --account or a --time of your own).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=SCRIPTDIR/../sizing.sh
. "$here/../sizing.sh"
die() { echo "submit.sh: $*" >&2; exit 2; }
: "${QUEENS:=queens}" "${QUEENS_N:=20}" "${QUEENS_SHARDS:=64}" "${QUEENS_CPUS:=2}" "${QUEENS_ENGINE:=constellations}"
: "${QUEENS_SPLIT:=auto}" "${QUEENS_VERIFY:=16}" "${QUEENS_MERGE_CPUS:=64}"
[[ $QUEENS_ENGINE == constellations || $QUEENS_ENGINE == join ]] || die "QUEENS_ENGINE=$QUEENS_ENGINE: want constellations or join"
for v in QUEENS_N QUEENS_SHARDS QUEENS_CPUS QUEENS_MERGE_CPUS; do
	[[ ${!v} =~ ^[1-9][0-9]{0,7}$ ]] || die "$v=${!v}: want a whole number from 1 (no leading zero)"
done
[[ $QUEENS_VERIFY =~ ^(0|[1-9][0-9]{0,7})$ ]] || die "QUEENS_VERIFY=$QUEENS_VERIFY: want a whole number of pieces (submit.sh sizes the merge by it)"
((QUEENS_N <= $(queens_max_n "$QUEENS_ENGINE"))) || die "QUEENS_N=$QUEENS_N: the $QUEENS_ENGINE engine counts n <= $(queens_max_n "$QUEENS_ENGINE")"
((QUEENS_SHARDS <= 33554432)) || die "QUEENS_SHARDS=$QUEENS_SHARDS: want at most 2^25"
QUEENS_PARTS=$(realpath -m -- "${QUEENS_PARTS:-parts-n$QUEENS_N-$QUEENS_ENGINE}")
export QUEENS QUEENS_N QUEENS_SHARDS QUEENS_ENGINE QUEENS_SPLIT QUEENS_PARTS QUEENS_VERIFY
# count.sbatch's own checks of the settings and the directory, before anything is queued.
QUEENS_CHECK_ONLY=1 bash "$here/count.sbatch" || exit 2
split=$QUEENS_SPLIT
[[ $split != auto ]] || split=$((QUEENS_N < 24 ? 0 : 1 << (QUEENS_N - 16)))
[[ $QUEENS_ENGINE == constellations ]] || split=0
mem=$(queens_count_memory "$QUEENS_N" "$QUEENS_ENGINE" "$QUEENS_CPUS")
read -r mcpus msecs mmem < <(queens_merge "$QUEENS_N" "$QUEENS_SHARDS" "$QUEENS_ENGINE" "$((10#$split))" "$QUEENS_VERIFY" "$QUEENS_MERGE_CPUS")
mtime=$(queens_slurm_time "$msecs")
echo "submit.sh: n=$QUEENS_N in $QUEENS_SHARDS shards, engine $QUEENS_ENGINE, into $QUEENS_PARTS:" \
	"$QUEENS_CPUS CPUs and ${mem}M a task; the merge (--verify $QUEENS_VERIFY) $mcpus CPUs, ${mmem}M, --time=$mtime" >&2
array=$(sbatch --parsable --array="0-$((QUEENS_SHARDS - 1))" --cpus-per-task="$QUEENS_CPUS" --mem="${mem}M" "$@" "$here/count.sbatch")
array=${array%%;*} # --parsable prints JOBID[;CLUSTER]
merge=$(sbatch --parsable --dependency="afterany:$array" --cpus-per-task="$mcpus" --mem="${mmem}M" --time="$mtime" "$@" "$here/merge.sbatch")
merge=${merge%%;*}
echo "$array $merge"
