//go:build linux && !android && (amd64 || arm64) && !nogpu

package gpu

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/ebitengine/purego"
)

// libcuda is the CUDA driver library, installed with the NVIDIA driver.
const libcuda = "libcuda.so.1"

// driver holds the functions of the CUDA driver API that the counter
// calls, by their exported symbol names (cuda.h maps cuMemAlloc to
// cuMemAlloc_v2 and so on). The context is the device's primary context,
// which every CUDA version since 7 keeps with the same symbols; cuCtxCreate
// changed signature in CUDA 13 (cuCtxCreate_v4).
type driver struct {
	cuInit                    func(flags uint32) int32
	cuDriverGetVersion        func(version *int32) int32
	cuDeviceGetCount          func(count *int32) int32
	cuDeviceGet               func(dev *int32, ordinal int32) int32
	cuDeviceGetName           func(name *byte, length int32, dev int32) int32
	cuDevicePrimaryCtxRetain  func(ctx *uintptr, dev int32) int32
	cuDevicePrimaryCtxRelease func(dev int32) int32
	cuCtxSetCurrent           func(ctx uintptr) int32
	cuCtxSynchronize          func() int32
	cuModuleLoadDataEx        func(mod *uintptr, image *byte, numOptions uint32, options *int32, values *uintptr) int32
	cuModuleGetFunction       func(fn *uintptr, mod uintptr, name string) int32
	cuModuleUnload            func(mod uintptr) int32
	cuMemAlloc                func(dptr *uint64, size uint64) int32
	cuMemFree                 func(dptr uint64) int32
	cuMemcpyHtoD              func(dst uint64, src unsafe.Pointer, size uint64) int32
	cuMemcpyDtoH              func(dst unsafe.Pointer, src uint64, size uint64) int32
	cuLaunchKernel            func(fn uintptr, gx, gy, gz, bx, by, bz, sharedMem uint32, stream uintptr, params *unsafe.Pointer, extra *unsafe.Pointer) int32
	cuGetErrorName            func(code int32, s **byte) int32
	cuGetErrorString          func(code int32, s **byte) int32

	// For DesignLoop and KernelInfo.
	cuDeviceGetAttribute func(v *int32, attr int32, dev int32) int32
	cuFuncGetAttribute   func(v *int32, attr int32, fn uintptr) int32
	cuOccupancyMaxBlocks func(blocks *int32, fn uintptr, blockSize int32, dynamicShared uint64) int32
	cuMemHostAlloc       func(p *unsafe.Pointer, size uint64, flags uint32) int32
	cuMemFreeHost        func(p unsafe.Pointer) int32
	cuStreamCreate       func(stream *uintptr, flags uint32) int32
	cuStreamDestroy      func(stream uintptr) int32
	cuStreamSynchronize  func(stream uintptr) int32
	cuMemcpyHtoDAsync    func(dst uint64, src unsafe.Pointer, size uint64, stream uintptr) int32
	cuMemcpyDtoHAsync    func(dst unsafe.Pointer, src uint64, size uint64, stream uintptr) int32
	cuMemsetD32Async     func(dst uint64, v uint32, count uint64, stream uintptr) int32
	cuEventCreate        func(ev *uintptr, flags uint32) int32
	cuEventDestroy       func(ev uintptr) int32
	cuEventRecord        func(ev uintptr, stream uintptr) int32
	cuEventElapsedTime   func(ms *float32, start, end uintptr) int32
}

// loadDriver opens libcuda, binds the functions and initializes the
// driver, once per process.
var loadDriver = sync.OnceValues(func() (*driver, error) {
	lib, err := purego.Dlopen(libcuda, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoDevice, err)
	}
	d := new(driver)
	for _, f := range []struct {
		fptr any
		name string
	}{
		{&d.cuInit, "cuInit"},
		{&d.cuDriverGetVersion, "cuDriverGetVersion"},
		{&d.cuDeviceGetCount, "cuDeviceGetCount"},
		{&d.cuDeviceGet, "cuDeviceGet"},
		{&d.cuDeviceGetName, "cuDeviceGetName"},
		{&d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
		{&d.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"},
		{&d.cuCtxSetCurrent, "cuCtxSetCurrent"},
		{&d.cuCtxSynchronize, "cuCtxSynchronize"},
		{&d.cuModuleLoadDataEx, "cuModuleLoadDataEx"},
		{&d.cuModuleGetFunction, "cuModuleGetFunction"},
		{&d.cuModuleUnload, "cuModuleUnload"},
		{&d.cuMemAlloc, "cuMemAlloc_v2"},
		{&d.cuMemFree, "cuMemFree_v2"},
		{&d.cuMemcpyHtoD, "cuMemcpyHtoD_v2"},
		{&d.cuMemcpyDtoH, "cuMemcpyDtoH_v2"},
		{&d.cuLaunchKernel, "cuLaunchKernel"},
		{&d.cuGetErrorName, "cuGetErrorName"},
		{&d.cuGetErrorString, "cuGetErrorString"},
		{&d.cuDeviceGetAttribute, "cuDeviceGetAttribute"},
		{&d.cuFuncGetAttribute, "cuFuncGetAttribute"},
		{&d.cuOccupancyMaxBlocks, "cuOccupancyMaxActiveBlocksPerMultiprocessor"},
		{&d.cuMemHostAlloc, "cuMemHostAlloc"},
		{&d.cuMemFreeHost, "cuMemFreeHost"},
		{&d.cuStreamCreate, "cuStreamCreate"},
		{&d.cuStreamDestroy, "cuStreamDestroy_v2"},
		{&d.cuStreamSynchronize, "cuStreamSynchronize"},
		{&d.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"},
		{&d.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"},
		{&d.cuMemsetD32Async, "cuMemsetD32Async"},
		{&d.cuEventCreate, "cuEventCreate"},
		{&d.cuEventDestroy, "cuEventDestroy_v2"},
		{&d.cuEventRecord, "cuEventRecord"},
		{&d.cuEventElapsedTime, "cuEventElapsedTime_v2|cuEventElapsedTime"}, // CUDA 12.8 added _v2
	} {
		var sym uintptr
		err := errors.New("no symbol")
		for name := range strings.SplitSeq(f.name, "|") {
			if sym, err = purego.Dlsym(lib, name); err == nil {
				break
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %s has no %s: %w", ErrNoDevice, libcuda, f.name, err)
		}
		purego.RegisterFunc(f.fptr, sym)
	}
	if err := d.check("cuInit", d.cuInit(0)); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoDevice, err)
	}
	return d, nil
})

// check returns nil for CUDA_SUCCESS and a *CUDAError for any other code.
func (d *driver) check(call string, code int32) error {
	if code == 0 {
		return nil
	}
	e := &CUDAError{Call: call, Code: int(code)}
	var s *byte
	if d.cuGetErrorName(code, &s) == 0 {
		e.Name = cString(s)
	}
	if d.cuGetErrorString(code, &s) == 0 {
		e.Text = cString(s)
	}
	return e
}

// cString copies the NUL-terminated C string at p (nil: "").
func cString(p *byte) string {
	if p == nil {
		return ""
	}
	var b []byte
	for i := 0; i < 4096; i++ {
		c := *(*byte)(unsafe.Add(unsafe.Pointer(p), i))
		if c == 0 {
			break
		}
		b = append(b, c)
	}
	return string(b)
}

// available reports whether device 0 can be used: a driver that loads and
// at least one device.
func available() error {
	d, err := loadDriver()
	if err != nil {
		return err
	}
	var count int32
	if err := d.check("cuDeviceGetCount", d.cuDeviceGetCount(&count)); err != nil {
		return fmt.Errorf("%w: %w", ErrNoDevice, err)
	}
	if count < 1 {
		return fmt.Errorf("%w: the CUDA driver sees no device", ErrNoDevice)
	}
	return nil
}

// device is an open CUDA device with the design's kernel loaded and room
// for two batches (slots); its methods run on the OS thread that opened
// it (the caller locks it), where the device's context is current, but
// buffer, which only hands out host memory.
type device struct {
	d        *driver
	dev      int32
	name     string
	design   Design
	mod, fn  uintptr
	capacity int // tasks a slot holds
	n        int32
	info     KernelInfo
	slots    [2]slot
}

// slot is the room for one batch. With DesignLoop each slot has its own
// stream, device buffers, pinned host buffers and events; with DesignTask
// the two share the device buffers of slot 0 (a batch is searched when it
// is started) and the host buffers are Go memory.
type slot struct {
	stream     uintptr
	tasks, out uint64 // device buffers
	next       uint64 // count_loop's task index
	host       []task
	hostOut    []uint64
	pinned     [2]unsafe.Pointer // host and hostOut, when pinned
	events     [4]uintptr        // before the copy in, the kernel, the copy out, and after
	count      int               // tasks started
	tm         Timing            // DesignTask: the host's timing of the batch
}

// openDevice opens device ordinal, loads the design's kernel and
// allocates room for two batches of batch tasks of an n×n board; blocks
// is Options.BlocksPerSM.
func openDevice(ordinal, batch, n int, design Design, blocks int) (_ *device, err error) {
	d, err := loadDriver()
	if err != nil {
		return nil, err
	}
	g := &device{d: d, capacity: batch, n: int32(n), dev: -1, design: design}
	defer func() {
		if err != nil {
			g.close()
		}
	}()
	var count int32
	if err := d.check("cuDeviceGetCount", d.cuDeviceGetCount(&count)); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoDevice, err)
	}
	if ordinal >= int(count) {
		return nil, fmt.Errorf("%w: device %d of %d", ErrNoDevice, ordinal, count)
	}
	var dev int32
	if err := d.check("cuDeviceGet", d.cuDeviceGet(&dev, int32(ordinal))); err != nil {
		return nil, err
	}
	var name [256]byte
	if err := d.check("cuDeviceGetName", d.cuDeviceGetName(&name[0], int32(len(name)), dev)); err != nil {
		return nil, err
	}
	g.name = cString(&name[0])
	var ctx uintptr
	if err := d.check("cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain(&ctx, dev)); err != nil {
		return nil, err
	}
	g.dev = dev
	if err := d.check("cuCtxSetCurrent", d.cuCtxSetCurrent(ctx)); err != nil {
		return nil, err
	}
	if err := g.load(); err != nil {
		return nil, err
	}
	if err := g.describe(blocks); err != nil {
		return nil, err
	}
	if design == DesignTask {
		return g, g.allocTask()
	}
	return g, g.allocLoop()
}

// describe fills g.info from the driver, with blocks per multiprocessor
// for DesignLoop (0: as many as fit).
func (g *device) describe(blocks int) error {
	const (
		funcSharedSizeBytes = 1  // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
		funcLocalSizeBytes  = 3  // CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES
		funcNumRegs         = 4  // CU_FUNC_ATTRIBUTE_NUM_REGS
		devMultiprocessors  = 16 // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
	)
	d := g.d
	var v [4]int32
	for i, a := range []struct {
		call string
		code int32
	}{
		{"cuFuncGetAttribute", d.cuFuncGetAttribute(&v[0], funcNumRegs, g.fn)},
		{"cuFuncGetAttribute", d.cuFuncGetAttribute(&v[1], funcLocalSizeBytes, g.fn)},
		{"cuFuncGetAttribute", d.cuFuncGetAttribute(&v[2], funcSharedSizeBytes, g.fn)},
		{"cuDeviceGetAttribute", d.cuDeviceGetAttribute(&v[3], devMultiprocessors, g.dev)},
	} {
		if err := d.check(a.call, a.code); err != nil {
			return fmt.Errorf("kernel attribute %d: %w", i, err)
		}
	}
	g.info = KernelInfo{Registers: int(v[0]), LocalBytes: int(v[1]), SharedBytes: int(v[2]), SMs: int(v[3]), Block: blockSize}
	if g.design == DesignLoop {
		var fit int32
		if err := d.check("cuOccupancyMaxActiveBlocksPerMultiprocessor", d.cuOccupancyMaxBlocks(&fit, g.fn, loopBlock, 0)); err != nil {
			return err
		}
		if blocks == 0 {
			blocks = max(1, int(fit))
		}
		g.info.Block, g.info.BlocksPerSM = loopBlock, blocks
		g.info.Grid = g.info.BlocksPerSM * max(1, g.info.SMs)
	}
	return nil
}

// allocTask allocates the device buffers DesignTask's slots share.
func (g *device) allocTask() error {
	d, s := g.d, &g.slots[0]
	if err := d.check("cuMemAlloc_v2", d.cuMemAlloc(&s.tasks, uint64(g.capacity)*uint64(unsafe.Sizeof(task{})))); err != nil {
		return err
	}
	return d.check("cuMemAlloc_v2", d.cuMemAlloc(&s.out, uint64(g.capacity)*8))
}

// allocLoop gives each slot a stream, events, device buffers and pinned
// host buffers for DesignLoop.
func (g *device) allocLoop() error {
	d := g.d
	taskBytes, outBytes := uint64(g.capacity)*uint64(unsafe.Sizeof(task{})), uint64(g.capacity)*8
	const streamNonBlocking = 1 // CU_STREAM_NON_BLOCKING
	for i := range g.slots {
		s := &g.slots[i]
		if err := d.check("cuStreamCreate", d.cuStreamCreate(&s.stream, streamNonBlocking)); err != nil {
			return err
		}
		for e := range s.events {
			if err := d.check("cuEventCreate", d.cuEventCreate(&s.events[e], 0)); err != nil {
				return err
			}
		}
		for _, b := range []struct {
			p    *uint64
			size uint64
		}{{&s.tasks, taskBytes}, {&s.out, outBytes}, {&s.next, 4}} {
			if err := d.check("cuMemAlloc_v2", d.cuMemAlloc(b.p, b.size)); err != nil {
				return err
			}
		}
		if err := d.check("cuMemHostAlloc", d.cuMemHostAlloc(&s.pinned[0], taskBytes, 0)); err != nil {
			return err
		}
		s.host = unsafe.Slice((*task)(s.pinned[0]), g.capacity)
		if err := d.check("cuMemHostAlloc", d.cuMemHostAlloc(&s.pinned[1], outBytes, 0)); err != nil {
			return err
		}
		s.hostOut = unsafe.Slice((*uint64)(s.pinned[1]), g.capacity)
	}
	return nil
}

// load JIT-compiles the embedded PTX for the device and finds the
// design's kernel; a JIT failure comes back with the JIT's error log.
func (g *device) load() error {
	d := g.d
	image := append([]byte(kernelPTX), 0)
	log := make([]byte, 8192)
	const (
		jitErrorLogBuffer     = 5 // CU_JIT_ERROR_LOG_BUFFER
		jitErrorLogBufferSize = 6 // CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
	)
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&log[0])
	options := []int32{jitErrorLogBuffer, jitErrorLogBufferSize}
	values := []uintptr{uintptr(unsafe.Pointer(&log[0])), uintptr(len(log))}
	err := d.check("cuModuleLoadDataEx", d.cuModuleLoadDataEx(&g.mod, &image[0], uint32(len(options)), &options[0], &values[0]))
	runtime.KeepAlive(image)
	if err != nil {
		if msg := cString(&log[0]); msg != "" {
			return fmt.Errorf("%w (JIT log: %s)", err, msg)
		}
		return err
	}
	name := kernelName
	if g.design == DesignLoop {
		name = loopKernelName
	}
	return d.check("cuModuleGetFunction", d.cuModuleGetFunction(&g.fn, g.mod, name))
}

// buffer returns slot s's host buffer for a batch.
func (g *device) buffer(s int) []task {
	if g.design == DesignTask {
		return g.slots[s].host[:0] // Go memory, grown by append as needed
	}
	return g.slots[s].host[:0:g.capacity]
}

// start starts the search of tasks in slot s: with DesignLoop, enqueued
// on the slot's stream (copy in, reset the task index, launch, copy out),
// with DesignTask done at once.
func (g *device) start(s int, tasks []task) error {
	sl := &g.slots[s]
	sl.count = len(tasks)
	if len(tasks) == 0 {
		return nil
	}
	if len(tasks) > g.capacity {
		return fmt.Errorf("gpu search: %d tasks for room for %d (a defect)", len(tasks), g.capacity)
	}
	if g.design == DesignTask {
		sl.host = tasks[:0]
		if len(sl.hostOut) < len(tasks) {
			sl.hostOut = make([]uint64, len(tasks))
		}
		sl.tm = Timing{}
		return g.searchTask(tasks, sl.hostOut[:len(tasks)], &sl.tm)
	}
	d := g.d
	if err := d.check("cuEventRecord", d.cuEventRecord(sl.events[0], sl.stream)); err != nil {
		return err
	}
	size := uint64(len(tasks)) * uint64(unsafe.Sizeof(task{}))
	if err := d.check("cuMemcpyHtoDAsync_v2", d.cuMemcpyHtoDAsync(sl.tasks, unsafe.Pointer(&tasks[0]), size, sl.stream)); err != nil {
		return err
	}
	if err := d.check("cuEventRecord", d.cuEventRecord(sl.events[1], sl.stream)); err != nil {
		return err
	}
	if err := d.check("cuMemsetD32Async", d.cuMemsetD32Async(sl.next, 0, 1, sl.stream)); err != nil {
		return err
	}
	grid := min(g.info.Grid, (len(tasks)+loopBlock-1)/loopBlock)
	if err := g.launch(uint32(grid), loopBlock, sl.stream, sl.tasks, sl.out, uint32(len(tasks)), sl.next); err != nil {
		return err
	}
	if err := d.check("cuEventRecord", d.cuEventRecord(sl.events[2], sl.stream)); err != nil {
		return err
	}
	if err := d.check("cuMemcpyDtoHAsync_v2", d.cuMemcpyDtoHAsync(unsafe.Pointer(&sl.hostOut[0]), sl.out, uint64(len(tasks))*8, sl.stream)); err != nil {
		return err
	}
	return d.check("cuEventRecord", d.cuEventRecord(sl.events[3], sl.stream))
}

// wait returns the counts of slot s's batch once the device has them.
func (g *device) wait(s int, tm *Timing) ([]uint64, error) {
	sl := &g.slots[s]
	if g.design == DesignTask || sl.count == 0 {
		tm.CopyIn += sl.tm.CopyIn
		tm.Kernel += sl.tm.Kernel
		tm.CopyOut += sl.tm.CopyOut
		return sl.hostOut[:sl.count], nil
	}
	d := g.d
	if err := d.check("cuStreamSynchronize", d.cuStreamSynchronize(sl.stream)); err != nil {
		return nil, err
	}
	for i, p := range []*time.Duration{&tm.CopyIn, &tm.Kernel, &tm.CopyOut} {
		var ms float32
		if err := d.check("cuEventElapsedTime", d.cuEventElapsedTime(&ms, sl.events[i], sl.events[i+1])); err != nil {
			return nil, err
		}
		*p += time.Duration(float64(ms) * float64(time.Millisecond))
	}
	return sl.hostOut[:sl.count], nil
}

// searchTask runs DesignTask's kernel on tasks and copies its counts to
// out, one step after the other, timing each on the host.
func (g *device) searchTask(tasks []task, out []uint64, tm *Timing) error {
	d, sl := g.d, &g.slots[0]
	t := time.Now()
	size := uint64(len(tasks)) * uint64(unsafe.Sizeof(task{}))
	if err := d.check("cuMemcpyHtoD_v2", d.cuMemcpyHtoD(sl.tasks, unsafe.Pointer(&tasks[0]), size)); err != nil {
		return err
	}
	tm.CopyIn += time.Since(t)
	t = time.Now()
	count := uint32(len(tasks))
	grid := (count + blockSize - 1) / blockSize
	g.info.Grid = max(g.info.Grid, int(grid))
	if err := g.launch(grid, blockSize, 0, sl.tasks, sl.out, count, 0); err != nil {
		return err
	}
	if err := d.check("cuCtxSynchronize", d.cuCtxSynchronize()); err != nil {
		return err
	}
	tm.Kernel += time.Since(t)
	t = time.Now()
	err := d.check("cuMemcpyDtoH_v2", d.cuMemcpyDtoH(unsafe.Pointer(&out[0]), sl.out, uint64(len(tasks))*8))
	tm.CopyOut += time.Since(t)
	return err
}

// launch launches the kernel on stream: count_tasks(tasks, out, count, n)
// when next is 0, else count_loop(tasks, out, count, n, next).
func (g *device) launch(grid, block uint32, stream uintptr, tasks, out uint64, count uint32, next uint64) error {
	args := &struct {
		tasks, out uint64
		count      uint32
		n          int32
		next       uint64
		params     [5]unsafe.Pointer
	}{tasks: tasks, out: out, count: count, n: g.n, next: next}
	args.params = [5]unsafe.Pointer{unsafe.Pointer(&args.tasks), unsafe.Pointer(&args.out), unsafe.Pointer(&args.count), unsafe.Pointer(&args.n), unsafe.Pointer(&args.next)}
	var pin runtime.Pinner
	pin.Pin(args)
	defer pin.Unpin()
	return g.d.check("cuLaunchKernel", g.d.cuLaunchKernel(g.fn, grid, 1, 1, block, 1, 1, 0, stream, &args.params[0], nil))
}

// close frees what openDevice acquired.
func (g *device) close() {
	d := g.d
	for i := range g.slots {
		s := &g.slots[i]
		if s.stream != 0 {
			d.cuStreamSynchronize(s.stream)
		}
		for _, p := range []uint64{s.next, s.out, s.tasks} {
			if p != 0 {
				d.cuMemFree(p)
			}
		}
		for _, p := range s.pinned {
			if p != nil {
				d.cuMemFreeHost(p)
			}
		}
		for _, e := range s.events {
			if e != 0 {
				d.cuEventDestroy(e)
			}
		}
		if s.stream != 0 {
			d.cuStreamDestroy(s.stream)
		}
	}
	if g.mod != 0 {
		d.cuModuleUnload(g.mod)
	}
	if g.dev >= 0 {
		d.cuCtxSetCurrent(0)
		d.cuDevicePrimaryCtxRelease(g.dev)
	}
}

// kernelInfo returns what the driver said of the kernel and the launches.
func (g *device) kernelInfo() KernelInfo { return g.info }
