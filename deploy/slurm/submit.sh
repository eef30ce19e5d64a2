#!/bin/bash
# submit.sh: submit the count as a job array (count.sbatch) and the merge
# (merge.sbatch) to run after it, however its tasks end. Prints the two job ids.
#
#   QUEENS_N=20 QUEENS_SHARDS=64 deploy/slurm/submit.sh [SBATCH OPTION...]
#
# Environment: QUEENS the binary (default: queens on PATH), QUEENS_N the board
# size (default 20), QUEENS_SHARDS the number of shards K (default 64),
# QUEENS_CPUS the CPUs (threads) of each shard (default 2), QUEENS_PARTS the
# directory of the results (default parts-n$QUEENS_N, relative to the current
# directory, where the logs go too), QUEENS_ENGINE the counter (constellations
# by default, or join: the independent second count). The options given go to
# both sbatch calls (for example --partition or --account).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${QUEENS:=queens}" "${QUEENS_N:=20}" "${QUEENS_SHARDS:=64}" "${QUEENS_CPUS:=2}"
: "${QUEENS_PARTS:=parts-n$QUEENS_N}"
export QUEENS QUEENS_N QUEENS_SHARDS QUEENS_PARTS
[[ -z ${QUEENS_ENGINE:-} || $QUEENS_ENGINE == constellations || $QUEENS_ENGINE == join ]] || {
	echo "submit.sh: QUEENS_ENGINE=$QUEENS_ENGINE: want constellations or join" >&2
	exit 2
}
for v in QUEENS_N QUEENS_SHARDS QUEENS_CPUS; do
	[[ ${!v} =~ ^[1-9][0-9]{0,5}$ ]] || {
		echo "submit.sh: $v=${!v}: want a whole number from 1" >&2
		exit 2
	}
done
mkdir -p "$QUEENS_PARTS"
array=$(sbatch --parsable --array="0-$((QUEENS_SHARDS - 1))" --cpus-per-task="$QUEENS_CPUS" "$@" "$here/count.sbatch")
array=${array%%;*} # --parsable prints JOBID[;CLUSTER]
merge=$(sbatch --parsable --dependency="afterany:$array" "$@" "$here/merge.sbatch")
merge=${merge%%;*}
echo "$array $merge"
