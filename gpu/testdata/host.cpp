// host.cpp runs kernel.cu on the CPU, for TestKernelOnHost: it defines the
// few CUDA names the kernel uses, includes it, and calls count_tasks once
// per thread of a one-block-per-task grid. Input on stdin: int32 n, uint32
// count, then count struct task; output on stdout: count uint64 counts.
#include <cstdio>
#include <cstdint>
#include <vector>

#define __global__
#define __device__
#define __forceinline__ inline
struct dim3 {
	unsigned int x, y, z;
};
static dim3 blockIdx, blockDim, threadIdx;
static inline int __popc(unsigned int x) { return __builtin_popcount(x); }

#include "../kernel.cu"

int main()
{
	int32_t n;
	uint32_t count;
	if (fread(&n, 4, 1, stdin) != 1 || fread(&count, 4, 1, stdin) != 1)
		return 2;
	std::vector<task> tasks(count);
	std::vector<unsigned long long> out(count + 1, 7); // one spare: no write past count
	if (fread(tasks.data(), sizeof(task), count, stdin) != count)
		return 2;
	blockDim.x = 32;
	for (unsigned int b = 0; b <= count / 32; b++)
		for (unsigned int t = 0; t < 32; t++) {
			blockIdx.x = b;
			threadIdx.x = t;
			count_tasks(tasks.data(), out.data(), count, n);
		}
	if (out[count] != 7)
		return 3;
	fwrite(out.data(), 8, count, stdout);
	return 0;
}
