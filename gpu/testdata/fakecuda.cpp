// fakecuda.cpp is a stand-in libcuda.so.1 for TestFakeDriver: the driver
// API functions package gpu calls, with the same symbols and signatures,
// backed by host memory, and a cuLaunchKernel that runs kernel.cu's
// count_tasks or count_loop on the CPU over the grid. Streams are real
// objects but run their work at once, in order; events read a clock. It
// checks what a real driver would reject (a bad launch shape, an unknown
// kernel or stream, PTX without the entry points, pinned memory freed as
// device memory) and counts what is left allocated, for fake_leaks, and
// the launches and the streams they ran on, for fake_stats.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <set>

#include "cuda_host.h"

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

static int ctx_refs, live_allocs, modules, streams, events, pinned;
static void *current;
static int ctx_token, mod_token, fn_token, loop_token;
static std::set<void *> stream_set, event_set, pinned_set;
static int launches[2];	  // count_tasks, count_loop
static std::set<void *> launch_streams; // the streams count_loop ran on

static bool valid_stream(void *s) { return s == nullptr || stream_set.count(s) > 0; }

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
	if (!strstr((const char *)image, ".entry count_tasks") || !strstr((const char *)image, ".entry count_loop")) {
		for (unsigned int i = 0; i + 1 < n; i++) // CU_JIT_ERROR_LOG_BUFFER then its size
			if (options[i] == 5 && options[i + 1] == 6)
				snprintf((char *)values[i], (size_t)values[i + 1], "fake: no entry count_tasks or count_loop in the PTX");
		return INVALID_PTX;
	}
	modules++;
	*mod = &mod_token;
	return SUCCESS;
}
CUresult cuModuleGetFunction(void **fn, void *mod, const char *name)
{
	if (mod != &mod_token)
		return NOT_FOUND;
	if (strcmp(name, "count_tasks") == 0)
		*fn = &fn_token;
	else if (strcmp(name, "count_loop") == 0)
		*fn = &loop_token;
	else
		return NOT_FOUND;
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
	if (pinned_set.count((void *)p))
		return INVALID_VALUE;
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
	bool loop = f == &loop_token;
	if ((f != &fn_token && !loop) || gx == 0 || gy != 1 || gz != 1 || bx == 0 || bx > 1024 || by != 1 || bz != 1 ||
	    shared != 0 || !valid_stream(stream) || extra != nullptr || params == nullptr)
		return INVALID_VALUE;
	const struct task *tasks = (const struct task *)*(CUdeviceptr *)params[0];
	unsigned long long *out = (unsigned long long *)*(CUdeviceptr *)params[1];
	unsigned int count = *(unsigned int *)params[2];
	int n = *(int *)params[3];
	if (loop) {
		// A persistent grid: no more blocks than the tasks fill, count_loop's
		// block size, on a stream of the caller's.
		unsigned int *next = (unsigned int *)*(CUdeviceptr *)params[4];
		if (bx != LOOP_BLOCK || (unsigned long long)(gx - 1) * bx >= count || stream == nullptr || *next != 0)
			return INVALID_VALUE;
		launches[1]++;
		launch_streams.insert(stream);
		run_loop(gx, tasks, out, count, n, next);
		return SUCCESS;
	}
	if ((unsigned long long)gx * bx < count || (unsigned long long)(gx - 1) * bx >= count || stream != nullptr)
		return INVALID_VALUE; // the grid should just cover the tasks
	launches[0]++;
	blockDim.x = bx;
	for (unsigned int b = 0; b < gx; b++)
		for (unsigned int t = 0; t < bx; t++) {
			blockIdx.x = b;
			threadIdx.x = t;
			count_tasks(tasks, out, count, n);
		}
	return SUCCESS;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int dev)
{
	if (dev != 0 || attr != 16) // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
		return INVALID_VALUE;
	*v = 2;
	return SUCCESS;
}
CUresult cuFuncGetAttribute(int *v, int attr, void *f)
{
	if (f != &fn_token && f != &loop_token)
		return INVALID_VALUE;
	switch (attr) {
	case 1: *v = f == &loop_token ? 2 * MAX_ROWS * LOOP_BLOCK * 4 : 0; return SUCCESS; // shared bytes
	case 3: *v = f == &loop_token ? 0 : 160; return SUCCESS;			       // local bytes
	case 4: *v = 40; return SUCCESS;						       // registers
	}
	return INVALID_VALUE;
}
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, void *f, int block, size_t shared)
{
	if (f != &loop_token || block != LOOP_BLOCK || shared != 0)
		return INVALID_VALUE;
	*blocks = 3;
	return SUCCESS;
}
CUresult cuMemHostAlloc(void **p, size_t size, unsigned int flags)
{
	if (!current || flags != 0)
		return INVALID_VALUE;
	*p = size <= (1u << 30) ? malloc(size) : nullptr;
	if (!*p)
		return OUT_OF_MEMORY;
	pinned++;
	pinned_set.insert(*p);
	return SUCCESS;
}
CUresult cuMemFreeHost(void *p)
{
	if (!pinned_set.erase(p))
		return INVALID_VALUE;
	free(p);
	pinned--;
	return SUCCESS;
}
CUresult cuStreamCreate(void **s, unsigned int flags)
{
	if (!current || flags > 1)
		return INVALID_VALUE;
	*s = malloc(1);
	stream_set.insert(*s);
	streams++;
	return SUCCESS;
}
CUresult cuStreamDestroy_v2(void *s)
{
	if (!stream_set.erase(s))
		return INVALID_VALUE;
	free(s);
	streams--;
	return SUCCESS;
}
CUresult cuStreamSynchronize(void *s) { return s && valid_stream(s) ? SUCCESS : INVALID_VALUE; }
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, void *s)
{
	if (!s || !valid_stream(s) || !pinned_set.count((void *)src)) // async copies from pinned memory only
		return INVALID_VALUE;
	memcpy((void *)dst, src, n);
	return SUCCESS;
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, void *s)
{
	if (!s || !valid_stream(s) || !pinned_set.count(dst))
		return INVALID_VALUE;
	memcpy(dst, (const void *)src, n);
	return SUCCESS;
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int v, size_t n, void *s)
{
	if (!s || !valid_stream(s))
		return INVALID_VALUE;
	for (size_t i = 0; i < n; i++)
		((unsigned int *)dst)[i] = v;
	return SUCCESS;
}
CUresult cuEventCreate(void **e, unsigned int flags)
{
	if (!current || flags != 0)
		return INVALID_VALUE;
	*e = malloc(sizeof(double));
	event_set.insert(*e);
	events++;
	return SUCCESS;
}
CUresult cuEventDestroy_v2(void *e)
{
	if (!event_set.erase(e))
		return INVALID_VALUE;
	free(e);
	events--;
	return SUCCESS;
}
CUresult cuEventRecord(void *e, void *s)
{
	if (!event_set.count(e) || !valid_stream(s))
		return INVALID_VALUE;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	*(double *)e = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
	return SUCCESS;
}
CUresult cuEventElapsedTime(float *ms, void *a, void *b)
{
	if (!event_set.count(a) || !event_set.count(b))
		return INVALID_VALUE;
	*ms = (float)(*(double *)b - *(double *)a);
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
// allocations, modules loaded, streams, events and pinned buffers.
int fake_leaks(void) { return ctx_refs + live_allocs + modules + streams + events + pinned; }
// fake_stats returns the launches of count_tasks and count_loop so far, and
// the streams count_loop ran on, and forgets them.
void fake_stats(int *tasks, int *loop, int *streams_used)
{
	*tasks = launches[0];
	*loop = launches[1];
	*streams_used = (int)launch_streams.size();
	launches[0] = launches[1] = 0;
	launch_streams.clear();
}
}
