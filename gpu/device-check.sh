#!/usr/bin/env bash
# device-check.sh is the one run of package gpu on a machine with an NVIDIA
# GPU (which may have no Go and no nvcc). Run it from the repository root
# with two binaries built elsewhere:
#
#   CGO_ENABLED=0 go test -c -o gpu.test ./gpu
#   CGO_ENABLED=0 go build -o queens .          (optional)
#
# It prints the device and driver; compiles kernel.cu with nvcc when there
# is one (and diffs that PTX against the committed kernel.ptx); runs the
# package tests on the GPU with the embedded kernel, then with nvcc's; times
# BenchmarkCount (n = 16, 18, 19 at four task depths); and, when queens has
# --gpu, runs bench/gpu.sh (n = 17..20). Each step has a time limit, 590 s
# in all at worst (a few minutes expected): give the run 600 s. Everything
# goes to stdout and to $OUT/device-check.log, nvcc's PTX to
# $OUT/kernel-nvcc.ptx ($OUT defaults to a temporary folder).
# Usage: gpu/device-check.sh [GPU_TEST [QUEENS]] (default ./gpu.test ./queens)
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
gputest=$(realpath "${1:-$repo/gpu.test}")
queens=$(realpath "${2:-$repo/queens}" 2>/dev/null || true)
out=${OUT:-$(mktemp -d)}
exec > >(tee "$out/device-check.log") 2>&1
step() { echo; echo "=== $* ($(date -u +%T))"; }

step device
nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv 2>&1 || echo "no nvidia-smi"
ls -l /usr/lib/x86_64-linux-gnu/libcuda.so.1 /usr/lib64/libcuda.so.1 2>/dev/null

cd "$repo/gpu" || exit 1 # the tests read kernel.cu and testdata/ from here
nvptx=
step nvcc
if command -v nvcc >/dev/null; then
	nvcc --version | tail -2
	if PTX_COMPILER=nvcc sh ptx.sh "$out/kernel-nvcc.ptx"; then
		nvptx=$out/kernel-nvcc.ptx
		grep -m1 '^\.version' "$nvptx"
		diff kernel.ptx "$nvptx" | diffstat 2>/dev/null || diff kernel.ptx "$nvptx" | head -20
	fi
else
	echo "no nvcc: the committed kernel.ptx ($(grep -m1 '^\.version' kernel.ptx)) is the only kernel"
fi

step "tests, embedded kernel"
timeout 200 "$gputest" -test.v -test.timeout 190s 2>&1 | grep -Ev '^=== RUN|^    --- PASS'
echo "exit status: ${PIPESTATUS[0]}"

if [[ -n $nvptx ]]; then
	step "GPU tests, nvcc's kernel"
	timeout 100 "$gputest" -test.v -test.timeout 90s -test.run 'Count|Available|Embedded' -ptx "$nvptx" 2>&1 | grep -Ev '^=== RUN|^    --- PASS'
	echo "exit status: ${PIPESTATUS[0]}"
fi

step "BenchmarkCount (embedded kernel)"
timeout 150 "$gputest" -test.v -test.run '^$' -test.bench 'Count$' -test.benchtime 1x -test.timeout 140s 2>&1 | grep -v '^=== RUN'
echo "exit status: ${PIPESTATUS[0]}"

if [[ -x $queens ]] && "$queens" backtrack --help 2>&1 | grep -q -- '--gpu'; then
	step "bench/gpu.sh"
	RUNS=1 CPU_MAX=17 QUEENS_BIN=$queens timeout 140 bash "$repo/bench/gpu.sh" 17 18 19 20
else
	step "bench/gpu.sh skipped: no queens binary with --gpu"
fi
