# shellcheck shell=bash
# sizing.sh: what the tasks and pods of a count ask for, sourced by
# slurm/submit.sh and k8s/jobs.sh (count.sbatch runs from Slurm's copy of
# it and cannot source anything). Bash functions; each prints its answer.
#
#   queens_max_n ENGINE                   the largest n ENGINE counts in shards
#   queens_pieces N ENGINE SPLIT          the pieces of the count's split
#   queens_core_seconds N ENGINE          the CPU seconds of the whole count
#   queens_join_memory N THREADS          a join shard's --memory, MiB
#   queens_count_memory N ENGINE THREADS  a count task's or pod's memory, MiB
#   queens_merge N K ENGINE SPLIT VERIFY MAXCPUS
#                                         "CPUS SECONDS MIB" of the merge
#   queens_storage N K ENGINE SPLIT       a count's volume, MiB
#   queens_slurm_time SECONDS             [D-]HH:MM:SS for sbatch --time
#
# The figures are docs/scale.md's, and deploy's tests check them against it
# and the packages: the engines' limits (backtrack.CountMaxN, join.MaxN),
# the pieces of each split (backtrack.Subproblems, join.Pieces) and the
# core-hours of "Sizing n = 20 to 28, per engine".

# queens_max_n ENGINE: the largest board ENGINE counts in shards.
queens_max_n() {
	case $1 in
	join) echo 28 ;;
	*) echo 32 ;;
	esac
}

# queens_join_memory N THREADS: the memory (MiB) of a join shard's halves
# (--memory) on THREADS threads: up to n = 21 the join's default, the
# quarter tables (KiB: backtrack/join's quarterKiB; 92 MiB at 20, 147 at 21)
# and each thread's piece, 20 MiB up to n = 19, 80 at 20, 320 at 21; 480
# MiB a thread (rounded up to 512) at 22, 2 GiB at 23 to 25, 4 GiB at 26
# and 27, 8 GiB at 28, where one column set of a piece (a unit) holds tens of
# millions of halves (4.6 and 7.3 GB peaks measured: docs/scale.md, "The
# join's pieces up to n = 28"); at least the join's default.
queens_join_memory() {
	local n=$1 threads=$2 share=20 kib=(0 1 1 1 1 1 1 2 4 5 14 20 63 95 325 492 1888 2906 12554 19668 94206 150652)
	((n < 20)) || share=$((20 << 2 * (n - 19)))
	((n < 22)) || share=512
	((n < 23)) || share=2048
	((n < 26)) || share=4096
	((n < 28)) || share=8192
	echo $((threads * share + (n <= 21 ? (kib[n] + 1023) / 1024 : 0)))
}

# queens_count_memory N ENGINE THREADS: the memory (MiB) a count task or
# pod asks for: 256 MiB for the constellation counter (a few MiB a
# thread); for the join twice its --memory (queens gives the halves at most
# half of what the process may use) and 128 MiB, at least 256.
queens_count_memory() {
	local mem=256
	[[ $2 != join ]] || mem=$((2 * $(queens_join_memory "$1" "$3") + 128))
	echo $((mem > 256 ? mem : 256))
}

# queens_pieces N ENGINE SPLIT: the pieces of a count's split: the
# constellations (the symmetric piece included), or SPLIT sub-parts of
# each and the symmetric piece whole; the join's own.
queens_pieces() {
	local cons=(0 2 1 1 3 6 17 35 79 148 273 453 731 1106 1633 2311 3207 4320 5729 7433 9523 11998 14961 18411 22463 27116 32497 38605 45579 53418 62273 72143 83191)
	local joins=(0 2 2 4 3 7 3 7 9 41 9 41 33 225 33 225 129 1153 129 1153 513 26456 8087 514268 118457 545208 463829 554728 502589)
	if [[ $2 == join ]]; then
		echo "${joins[$1]}"
	elif (($3 > 0)); then
		echo $(((cons[$1] - 1) * $3 + 1))
	else
		echo "${cons[$1]}"
	fi
}

# queens_core_seconds N ENGINE: the CPU seconds of a whole count on one
# core (docs/scale.md: measured for n = 16 to 19, "Sizing n = 20 to 28,
# per engine" from 20, the join's the upper end of its range there; the
# constellations carried on at 10.5 times a size past 28, the table's ratio
# from 27 to 28). Below n = 16, a second.
queens_core_seconds() {
	local cs=(1.19 7.55 50.9 396) js=(0.79 4.62 24.79 172.3)
	local ch=(0.83 6.7 57 514 4830 46900 474000 4.99e6 5.25e7) jh=(0.043 0.47 1.8 21 106 1100 9500 95000 8.5e5)
	local n=$1
	if ((n < 16)); then
		echo 1
	elif ((n < 20)); then
		[[ $2 == join ]] && echo "${js[n - 16]}" || echo "${cs[n - 16]}"
	elif [[ $2 == join ]]; then
		awk -v h="${jh[n - 20]}" 'BEGIN { print h * 3600 }'
	else
		awk -v h="${ch[n > 28 ? 8 : n - 20]}" -v up=$((n > 28 ? n - 28 : 0)) 'BEGIN { print h * 3600 * 10.5 ^ up }'
	fi
}

# queens_merge N K ENGINE SPLIT VERIFY MAXCPUS: the CPUs, seconds and memory
# (MiB) the merge of a count of n = N in K shards asks for, recounting VERIFY
# pieces (--verify) of the split (SPLIT sub-parts a constellation, 0 for
# whole ones; the join has its own pieces) on at most MAXCPUS CPUs.
#
# A piece takes the count's core-seconds over its pieces on average; the
# merge gets a CPU for each core-hour of recount, at most one a piece drawn
# (a piece is counted on one thread) and MAXCPUS, and the time of its
# share of the pieces at 10 times the mean each (the largest sub-part is
# 9.7 to 11.4 times the mean at n = 16 to 18, docs/scale.md), plus reading
# the lines at 120 CPU-microseconds each (the streaming merge's 30 from a
# pipe, 3.1 to 3.9 times that from a file a line), plus 10 minutes, in
# whole minutes (rounded up). Its memory is a count task's on as many threads (its
# recount), 32 MiB and 64 bytes a line (416 MiB measured for 2^24 lines).
queens_merge() {
	local n=$1 k=$2 engine=$3 verify=$5 most=$6 cpus secs
	read -r cpus secs < <(awk -v pieces="$(queens_pieces "$n" "$engine" "$4")" -v secs="$(queens_core_seconds "$n" "$engine")" \
		-v k="$k" -v verify="$verify" -v most="$most" 'BEGIN {
		mean = secs / pieces
		v = verify < pieces ? verify : pieces
		cpus = int(v * mean / 3600) + (v * mean % 3600 > 0)
		if (cpus > v) cpus = v
		if (cpus > most) cpus = most
		if (cpus < 1) cpus = 1
		t = int((v + cpus - 1) / cpus) * mean * 10 + k * 120e-6 + 600
		m = int(t / 60)
		printf "%d %d\n", cpus, (m * 60 < t ? m + 1 : m) * 60
	}')
	echo "$cpus $secs $((32 + (k * 64 + 1048575) / 1048576 + $(queens_count_memory "$n" "$engine" "$cpus")))"
}

# queens_storage N K ENGINE SPLIT: the storage (MiB) of a count's volume:
# 1 GiB, and for each of its K shards a line and a checkpoint (a 4 KiB
# block each and 64 bytes a piece) and the record's 256 bytes.
queens_storage() {
	local pieces per
	pieces=$(queens_pieces "$1" "$3" "$4")
	per=$((2 * (4096 + 64 * ((pieces + $2 - 1) / $2)) + 256))
	echo $((1024 + ($2 * per + 1048575) / 1048576))
}

# queens_slurm_time SECONDS: SECONDS as sbatch --time's D-HH:MM:SS.
queens_slurm_time() {
	local s=$1
	printf '%d-%02d:%02d:%02d\n' $((s / 86400)) $((s % 86400 / 3600)) $((s % 3600 / 60)) $((s % 60))
}
