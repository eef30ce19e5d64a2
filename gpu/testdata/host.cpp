// host.cpp runs kernel.cu on the CPU, for TestKernelOnHost (cuda_host.h
// defines the CUDA names the kernels use): count_tasks once per thread of
// a one-thread-per-task grid, or with the argument "loop" count_loop on a
// grid of 3 blocks. Input on stdin: int32 n, uint32 count, then count
// struct task; output on stdout: count uint64 counts.
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda_host.h"

int main(int argc, char **argv)
{
	int32_t n;
	uint32_t count;
	if (fread(&n, 4, 1, stdin) != 1 || fread(&count, 4, 1, stdin) != 1)
		return 2;
	std::vector<task> tasks(count);
	std::vector<unsigned long long> out(count + 1, 7); // one spare: no write past count
	if (fread(tasks.data(), sizeof(task), count, stdin) != count)
		return 2;
	if (argc > 1 && std::string(argv[1]) == "loop") {
		unsigned int next = 0;
		run_loop(3, tasks.data(), out.data(), count, n, &next);
		if (next < count)
			return 4; // every task taken
	} else {
		blockDim.x = 32;
		for (unsigned int b = 0; b <= count / 32; b++)
			for (unsigned int t = 0; t < 32; t++) {
				blockIdx.x = b;
				threadIdx.x = t;
				count_tasks(tasks.data(), out.data(), count, n);
			}
	}
	if (out[count] != 7)
		return 3;
	fwrite(out.data(), 8, count, stdout);
	return 0;
}
