// cuda_host.h defines the few CUDA names kernel.cu uses, for running its
// kernels on the CPU (host.cpp, fakecuda.cpp), and includes it. A grid
// runs one thread after the other; count_loop's shared arrays are static
// (one block at a time), and atomicAdd hands each thread at most
// host_quota tasks before it answers "none left" (UINT_MAX), so that the
// tasks spread over every thread of the grid as they would on a GPU.
#pragma once
#include <climits>

#define __global__
#define __device__
#define __shared__ static
#define __launch_bounds__(n)
#define __forceinline__ inline
struct dim3 {
	unsigned int x, y, z;
};
static dim3 blockIdx, blockDim, threadIdx;
static inline int __popc(unsigned int x) { return __builtin_popcount(x); }
static inline int __ffs(unsigned int x) { return __builtin_ffs((int)x); }

static unsigned int host_quota = UINT_MAX, host_served; // tasks the running thread may take, has taken
static inline unsigned int atomicAdd(unsigned int *p, unsigned int v)
{
	if (host_served >= host_quota)
		return UINT_MAX;
	host_served++;
	unsigned int old = *p;
	*p += v;
	return old;
}

#include "../kernel.cu"

// run_loop runs count_loop over a grid of blocks × LOOP_BLOCK threads,
// each thread given an equal share of the tasks at most.
static void run_loop(unsigned int blocks, const struct task *tasks, unsigned long long *out, unsigned int count, int n,
		     unsigned int *next)
{
	unsigned long long threads = (unsigned long long)blocks * LOOP_BLOCK;
	host_quota = (unsigned int)((count + threads - 1) / threads);
	blockDim.x = LOOP_BLOCK;
	for (unsigned int b = 0; b < blocks; b++)
		for (unsigned int t = 0; t < LOOP_BLOCK; t++) {
			blockIdx.x = b;
			threadIdx.x = t;
			host_served = 0;
			count_loop(tasks, out, count, n, next);
		}
	host_quota = UINT_MAX;
}
