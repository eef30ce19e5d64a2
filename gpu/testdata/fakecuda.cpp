// fakecuda.cpp is a stand-in libcuda.so.1 for TestFakeDriver: the driver
// API functions package gpu calls, with the same symbols and signatures,
// backed by host memory, and a cuLaunchKernel that runs kernel.cu's
// count_tasks on the CPU over the grid. It checks what a real driver
// would reject (a bad launch shape, an unknown kernel, PTX without the
// entry point) and counts what is left allocated, for fake_leaks.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define __global__
#define __device__
#define __forceinline__ inline
struct dim3 {
	unsigned int x, y, z;
};
static dim3 blockIdx, blockDim, threadIdx;
static inline int __popc(unsigned int x) { return __builtin_popcount(x); }

#include "../kernel.cu"

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
enum {
	SUCCESS = 0,
	INVALID_VALUE = 1,
	OUT_OF_MEMORY = 2,
	INVALID_DEVICE = 101,
	INVALID_CONTEXT = 201,
	INVALID_PTX = 218,
	NOT_FOUND = 500,
};

static int ctx_refs, live_allocs, modules;
static void *current;
static int ctx_token, mod_token, fn_token;

extern "C" {
CUresult cuInit(unsigned int flags) { return flags == 0 ? SUCCESS : INVALID_VALUE; }
CUresult cuDriverGetVersion(int *v)
{
	*v = 12040;
	return SUCCESS;
}
CUresult cuDeviceGetCount(int *count)
{
	*count = 1;
	return SUCCESS;
}
CUresult cuDeviceGet(int *dev, int ordinal)
{
	if (ordinal != 0)
		return INVALID_DEVICE;
	*dev = 0;
	return SUCCESS;
}
CUresult cuDeviceGetName(char *name, int len, int dev)
{
	if (dev != 0 || len < 1)
		return INVALID_VALUE;
	snprintf(name, len, "fake CUDA (kernel.cu on the host)");
	return SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev)
{
	if (dev != 0)
		return INVALID_DEVICE;
	ctx_refs++;
	*ctx = &ctx_token;
	return SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease_v2(int dev)
{
	if (dev != 0 || ctx_refs == 0)
		return INVALID_CONTEXT;
	ctx_refs--;
	return SUCCESS;
}
CUresult cuCtxSetCurrent(void *ctx)
{
	current = ctx;
	return SUCCESS;
}
CUresult cuCtxSynchronize(void) { return current ? SUCCESS : INVALID_CONTEXT; }
CUresult cuModuleLoadDataEx(void **mod, const void *image, unsigned int n, int *options, void **values)
{
	if (!current)
		return INVALID_CONTEXT;
	if (!strstr((const char *)image, ".entry count_tasks")) {
		for (unsigned int i = 0; i + 1 < n; i++) // CU_JIT_ERROR_LOG_BUFFER then its size
			if (options[i] == 5 && options[i + 1] == 6)
				snprintf((char *)values[i], (size_t)values[i + 1], "fake: no entry count_tasks in the PTX");
		return INVALID_PTX;
	}
	modules++;
	*mod = &mod_token;
	return SUCCESS;
}
CUresult cuModuleGetFunction(void **fn, void *mod, const char *name)
{
	if (mod != &mod_token || strcmp(name, "count_tasks") != 0)
		return NOT_FOUND;
	*fn = &fn_token;
	return SUCCESS;
}
CUresult cuModuleUnload(void *mod)
{
	if (mod != &mod_token)
		return INVALID_VALUE;
	modules--;
	return SUCCESS;
}
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t size)
{
	if (!current)
		return INVALID_CONTEXT;
	void *m = size <= (1u << 30) ? malloc(size) : nullptr; // a 1 GiB device
	if (!m)
		return OUT_OF_MEMORY;
	live_allocs++;
	*p = (CUdeviceptr)m;
	return SUCCESS;
}
CUresult cuMemFree_v2(CUdeviceptr p)
{
	free((void *)p);
	live_allocs--;
	return SUCCESS;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
	memcpy((void *)dst, src, n);
	return SUCCESS;
}
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
	memcpy(dst, (const void *)src, n);
	return SUCCESS;
}
CUresult cuLaunchKernel(void *f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by,
			unsigned int bz, unsigned int shared, void *stream, void **params, void **extra)
{
	if (f != &fn_token || gx == 0 || gy != 1 || gz != 1 || bx == 0 || bx > 1024 || by != 1 || bz != 1 || shared != 0 ||
	    stream != nullptr || extra != nullptr || params == nullptr)
		return INVALID_VALUE;
	const struct task *tasks = (const struct task *)*(CUdeviceptr *)params[0];
	unsigned long long *out = (unsigned long long *)*(CUdeviceptr *)params[1];
	unsigned int count = *(unsigned int *)params[2];
	int n = *(int *)params[3];
	if ((unsigned long long)gx * bx < count || (unsigned long long)(gx - 1) * bx >= count)
		return INVALID_VALUE; // the grid should just cover the tasks
	blockDim.x = bx;
	for (unsigned int b = 0; b < gx; b++)
		for (unsigned int t = 0; t < bx; t++) {
			blockIdx.x = b;
			threadIdx.x = t;
			count_tasks(tasks, out, count, n);
		}
	return SUCCESS;
}
CUresult cuGetErrorName(CUresult r, const char **s)
{
	switch (r) {
	case OUT_OF_MEMORY: *s = "CUDA_ERROR_OUT_OF_MEMORY"; return SUCCESS;
	case INVALID_PTX: *s = "CUDA_ERROR_INVALID_PTX"; return SUCCESS;
	case INVALID_DEVICE: *s = "CUDA_ERROR_INVALID_DEVICE"; return SUCCESS;
	}
	return INVALID_VALUE;
}
CUresult cuGetErrorString(CUresult r, const char **s)
{
	switch (r) {
	case OUT_OF_MEMORY: *s = "out of memory"; return SUCCESS;
	case INVALID_PTX: *s = "a PTX JIT compilation failed"; return SUCCESS;
	case INVALID_DEVICE: *s = "invalid device ordinal"; return SUCCESS;
	}
	return INVALID_VALUE;
}
// fake_leaks returns what a count left behind: contexts retained, device
// allocations and modules loaded.
int fake_leaks(void) { return ctx_refs + live_allocs + modules; }
}
