#!/bin/sh
# ptx.sh compiles kernel.cu to kernel.ptx (run by go generate in gpu/):
# with nvcc when it is on PATH, otherwise with clang's CUDA front end and
# NVPTX back end (no CUDA toolkit needed). Both target compute capability
# 8.0 (A100 and later; an H200, 9.0, JIT-compiles it), and the PTX ISA they
# write (7.0 from clang 14) is one the driver of CUDA 12 or 13 accepts.
# Usage: sh ptx.sh [OUT] (default kernel.ptx); PTX_COMPILER=nvcc or clang
# picks the compiler.
set -eu
out=${1:-kernel.ptx}
use=${PTX_COMPILER:-}
if [ -z "$use" ]; then
	use=clang
	if command -v nvcc >/dev/null 2>&1; then
		use=nvcc
	fi
fi
case $use in
nvcc) exec nvcc -ptx -arch=compute_80 -O3 -o "$out" kernel.cu ;;
clang) ;;
*)
	echo "ptx.sh: PTX_COMPILER=$use: want nvcc or clang" >&2
	exit 2
	;;
esac
if ! command -v clang >/dev/null 2>&1; then
	echo "ptx.sh: neither nvcc nor clang on PATH: cannot build kernel.ptx" >&2
	exit 1
fi
exec clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib \
	-O3 -S -include clang_prelude.h -o "$out" kernel.cu
