#!/usr/bin/env bash
# device-check.sh is the one run of package gpu on a machine with an NVIDIA
# GPU, which may have no Go: it runs two cgo-free binaries built elsewhere
# (they need no more of the machine than its C library's loader, which
# loads libcuda), from the repository root,
#
#   CGO_ENABLED=0 go test -c -o gpu.test ./gpu
#   CGO_ENABLED=0 go build -o queens .
#
# brought along beside the repository (both are git-ignored: name them in
# what the copy to the machine carries). In order, each step with a time
# limit, 575 s in all at worst (give the command 600 s):
#
#   1. the binaries are there (else it says how to build them, exit 2);
#   2. the device and driver (nvidia-smi);
#   3. with the CUDA toolkit: ptxas -v of the committed kernel.ptx for sm_90
#      (registers, shared memory, stack frame, spills of both kernels) and
#      the SASS of both (kernel-sm90.sass), and nvcc's own PTX of
#      kernel.cu, tested too;
#   4. the GPU tests: every piece of n = 8..16 against the CPU counter,
#      n = 13 at four task depths against the Go twin, n = 17 and 18 against
#      the published table, with each design;
#   5. the table: n = 16..21 timed with the first and the second design
#      (DesignTask, DesignLoop), each line the wall time and where it went
#      (host split, waits, copies, kernel), launches, tasks, registers,
#      local and shared memory, grid, and the counts against the table; n =
#      19 and 20 also with DesignLoop at other task depths and at 4 and 8
#      blocks per multiprocessor (occupancy); a failing count
#      fails its line only, and a size expected to overrun the budget is
#      skipped and named;
#   6. a mixed count: n = 18 in 4 shards, two on the CPU, one on each GPU
#      kernel, merged by queens merge (which checks them all) and compared
#      with the table;
#   7. the CPU's join paths: bench/count.sh with this queens at n = 16 and
#      17 (JOIN_SIZES), one run, every matcher path the host CPU runs
#      (avx512 where it has AVX-512 with VPOPCNTQ, which the development
#      machines lack) against nq_ref (needs gcc, GNU time and nq_ref.c,
#      found as count.sh says; the copy to a device machine takes the
#      working tree only, so copy nq_ref.c to the root, untracked, before
#      the run; without it the step says what is missing).
#
# Everything goes to stdout and to $OUT/device-check.log; the table to
# $OUT/table.txt, ptxas's report to $OUT/ptxas.txt, the SASS and nvcc's PTX
# beside them ($OUT defaults to a temporary folder). A summary at the end
# gives each step's exit status.
#
# Usage: gpu/device-check.sh [--dry-run]   (--dry-run: check the binaries,
# then print the commands instead of running them)
# Environment: GPU_TEST, QUEENS (the binaries; default ./gpu.test, ./queens),
# TABLE (16-21), SWEEP (19,20), BUDGET (the table's seconds, 170), MERGE_N
# (18), SHARDS (4), TESTS (the -test.run pattern of step 4), JOIN_SIZES
# (16 17). With a fake
# libcuda.so.1 on LD_LIBRARY_PATH (gpu/testdata/fakecuda.cpp, built as
# TestFakeDriver does) and small sizes it runs anywhere, e.g. TABLE=8-11
# SWEEP=11 BUDGET=60 MERGE_N=11 TESTS='^TestCountCancel$'.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
gputest=${GPU_TEST:-$repo/gpu.test}
queens=${QUEENS:-$repo/queens}
table=${TABLE:-16-21}
sweep=${SWEEP:-19,20}
budget=${BUDGET:-170}
merge_n=${MERGE_N:-18}
shards=${SHARDS:-4}
join_sizes=${JOIN_SIZES:-16 17}
tests=${TESTS:-'^Test(Available|KernelEmbedded|CountPieces|CountKnown|CountCancel)$'}
dry=0
case ${1:-} in
--dry-run) dry=1 ;;
"") ;;
*)
	echo "usage: gpu/device-check.sh [--dry-run]" >&2
	exit 2
	;;
esac

# 1. The binaries, before anything else.
missing=
for b in "$gputest" "$queens"; do
	if [[ ! -x $b ]]; then
		missing="$missing $b"
	elif [[ $(head -c 4 "$b" | od -An -c | tr -d ' ') != 177ELF ]]; then
		missing="$missing $b(not-an-ELF-binary)"
	fi
done
if [[ -n $missing ]]; then
	cat >&2 <<EOF
device-check.sh: missing:$missing
Build them from the repository root, on any linux/amd64 machine with Go
(cgo-free, so that they run with whatever C library the GPU machine has;
it needs no Go and no CUDA toolkit), and bring them along with the
repository (both are git-ignored: carry them):

  CGO_ENABLED=0 go test -c -o gpu.test ./gpu
  CGO_ENABLED=0 go build -o queens .

or point GPU_TEST and QUEENS at them.
EOF
	exit 2
fi
gputest=$(realpath "$gputest")
queens=$(realpath "$queens")

out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
exec > >(tee "$out/device-check.log") 2>&1
summary=()

step() { echo; echo "=== $* ($(date -u +%T))"; }

# have TOOL: whether TOOL is on PATH (always, in a dry run, so that it
# plans every step and the limits it prints add up to the worst case).
have() { ((dry)) || command -v "$1" >/dev/null; }

# run NAME SECONDS CMD...: runs CMD with a time limit (or prints it, with
# --dry-run), its output without the test runner's progress lines, and
# records its exit status for the summary.
run() {
	local name=$1 limit=$2 rc
	shift 2
	if ((dry)); then
		echo "would run (limit ${limit}s): $*"
		summary+=("$name: dry run")
		return 0
	fi
	timeout --kill-after=5 "$limit" "$@" 2>&1 | grep -Ev '^=== (RUN|PAUSE|CONT)|^ +--- PASS'
	rc=${PIPESTATUS[0]}
	((rc == 124 || rc == 137)) && echo "($name: stopped at its ${limit}s limit)"
	summary+=("$name: exit $rc")
	return $rc
}

step "2. device"
echo "binaries: $gputest, $queens; table n = $table, sweep $sweep, budget ${budget}s; merge n = $merge_n in $shards shards"
if have nvidia-smi; then
	run nvidia-smi 10 nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total,clocks.max.sm --format=csv
else
	echo "no nvidia-smi"
fi
nproc

cd "$repo/gpu" || exit 1 # the tests read kernel.cu and testdata/ from here
step "3. ptxas and nvcc"
nvptx=
if have ptxas; then
	((dry)) || ptxas --version | tail -1
	run ptxas 20 sh -c "ptxas -arch=sm_90 -v -o '$out/kernel-sm90.cubin' kernel.ptx 2>&1 | tee '$out/ptxas.txt'"
	if ! ((dry)) && command -v cuobjdump >/dev/null && [[ -s $out/kernel-sm90.cubin ]]; then
		cuobjdump -sass "$out/kernel-sm90.cubin" >"$out/kernel-sm90.sass" 2>&1
		awk '/Function :/ { f = $3 } /^ +\/\*[0-9a-f]+\*\// { n[f]++ } END { for (f in n) print f ": " n[f] " SASS instructions" }' "$out/kernel-sm90.sass"
		rm -f "$out/kernel-sm90.cubin"
	fi
else
	echo "no ptxas: registers and spills come from the driver (the table's regs/local/shared column)"
fi
if have nvcc; then
	((dry)) || nvcc --version | tail -2
	if run nvcc-ptx 30 env PTX_COMPILER=nvcc sh ptx.sh "$out/kernel-nvcc.ptx"; then
		nvptx=$out/kernel-nvcc.ptx
		((dry)) || grep -m1 '^\.version' "$nvptx"
		if have ptxas; then
			run ptxas-nvcc 15 sh -c "ptxas -arch=sm_90 -v -o /dev/null '$nvptx' 2>&1 | tee -a '$out/ptxas.txt'"
		fi
	fi
else
	echo "no nvcc: the committed kernel.ptx ($(grep -m1 '^\.version' kernel.ptx)) is the only kernel"
fi

step "4. GPU tests (per piece against the CPU, n = 17, 18 against the table)"
run "GPU tests" 100 "$gputest" -test.v -test.timeout 95s -test.run "$tests"
if [[ -n $nvptx ]]; then
	step "4b. GPU tests with nvcc's kernel"
	run "GPU tests (nvcc's PTX)" 30 "$gputest" -test.v -test.timeout 25s -test.run '^Test(CountKnown|KernelEmbedded)$/^n=17/' -ptx "$nvptx"
fi

step "5. table: n = $table, both designs"
run table $((budget + 20)) "$gputest" -test.v -test.timeout $((budget + 15))s -test.run '^TestDeviceTable$' \
	-table "$table" -table-sweep "$sweep" -table-budget "${budget}s" -table-out "$out/table.txt"

step "6. mixed count: n = $merge_n in $shards shards, CPU and GPU"
cd "$out" || exit 1
for ((i = 0; i < shards; i++)); do
	case $((i % 4)) in
	1) how=(--gpu) ;;
	2) how=(--gpu --gpu-kernel loop) ;;
	*) how=() ;;
	esac
	start=$(date +%s%N)
	run "shard $i/$shards ${how[*]:-cpu}" 25 "$queens" backtrack -n "$merge_n" --count --json --shard "$i/$shards" "${how[@]}" -o "shard-$i.json"
	echo "shard $i/$shards ${how[*]:-cpu}: $((($(date +%s%N) - start) / 1000000)) ms"
done
want=$(awk -F'\t' -v n="$merge_n" '$1 == n { print $2 " solutions (" $3 " unique)" }' "$repo/board/counts.tsv")
if ((dry)); then
	echo "would run (limit 20s): $queens merge shard-*.json (want $want), twice"
else
	timeout 10 "$queens" merge --stats shard-*.json
	got=$(timeout 10 "$queens" merge shard-*.json 2>&1)
	if [[ $got == "$want"* ]]; then summary+=("merge: $want"); else summary+=("merge: WRONG: $got; want $want"); fi
	cat shard-*.json >shards.jsonl 2>/dev/null && rm -f shard-*.json
fi

step "7. the join's matcher paths on this CPU: n = $join_sizes"
run "join paths" 60 env QUEENS_BIN="$queens" SIZES="$join_sizes" RUNS=1 CONSTEL_MAX=0 bash "$repo/bench/count.sh"

step summary
printf '%s\n' "${summary[@]}"
echo "files in $out: $(cd "$out" && ls | tr '\n' ' ')"
