//go:build linux && !android && (amd64 || arm64) && !nogpu

package gpu

import (
	"fmt"
	"runtime"
	"sync"
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
	} {
		sym, err := purego.Dlsym(lib, f.name)
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

// device is an open CUDA device with the kernel loaded and buffers for
// one batch; its methods run on the OS thread that opened it (the caller
// locks it), where the device's context is current.
type device struct {
	d          *driver
	dev        int32
	name       string
	mod, fn    uintptr
	tasks, out uint64 // device buffers
	capacity   int    // tasks they hold
	n          int32
}

// openDevice opens device ordinal, loads the kernel and allocates room
// for batch tasks of an n×n board.
func openDevice(ordinal, batch, n int) (_ *device, err error) {
	d, err := loadDriver()
	if err != nil {
		return nil, err
	}
	g := &device{d: d, capacity: batch, n: int32(n), dev: -1}
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
	if err := d.check("cuMemAlloc_v2", d.cuMemAlloc(&g.tasks, uint64(batch)*uint64(unsafe.Sizeof(task{})))); err != nil {
		return nil, err
	}
	if err := d.check("cuMemAlloc_v2", d.cuMemAlloc(&g.out, uint64(batch)*8)); err != nil {
		return nil, err
	}
	return g, nil
}

// load JIT-compiles the embedded PTX for the device and finds the kernel;
// a JIT failure comes back with the JIT's error log.
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
	return d.check("cuModuleGetFunction", d.cuModuleGetFunction(&g.fn, g.mod, kernelName))
}

// search runs the kernel on tasks and copies its counts to out.
func (g *device) search(tasks []task, out []uint64) error {
	if len(tasks) == 0 {
		return nil
	}
	if len(tasks) > g.capacity || len(out) < len(tasks) {
		return fmt.Errorf("gpu search: %d tasks for room for %d (a defect)", len(tasks), g.capacity)
	}
	d := g.d
	size := uint64(len(tasks)) * uint64(unsafe.Sizeof(task{}))
	if err := d.check("cuMemcpyHtoD_v2", d.cuMemcpyHtoD(g.tasks, unsafe.Pointer(&tasks[0]), size)); err != nil {
		return err
	}
	count, n := uint32(len(tasks)), g.n
	args := &struct {
		tasks, out uint64
		count      uint32
		n          int32
		params     [4]unsafe.Pointer
	}{tasks: g.tasks, out: g.out, count: count, n: n}
	args.params = [4]unsafe.Pointer{unsafe.Pointer(&args.tasks), unsafe.Pointer(&args.out), unsafe.Pointer(&args.count), unsafe.Pointer(&args.n)}
	var pin runtime.Pinner
	pin.Pin(args)
	grid := (count + blockSize - 1) / blockSize
	err := d.check("cuLaunchKernel", d.cuLaunchKernel(g.fn, grid, 1, 1, blockSize, 1, 1, 0, 0, &args.params[0], nil))
	pin.Unpin()
	if err != nil {
		return err
	}
	if err := d.check("cuCtxSynchronize", d.cuCtxSynchronize()); err != nil {
		return err
	}
	return d.check("cuMemcpyDtoH_v2", d.cuMemcpyDtoH(unsafe.Pointer(&out[0]), g.out, uint64(len(tasks))*8))
}

// close frees what openDevice acquired.
func (g *device) close() {
	d := g.d
	if g.out != 0 {
		d.cuMemFree(g.out)
	}
	if g.tasks != 0 {
		d.cuMemFree(g.tasks)
	}
	if g.mod != 0 {
		d.cuModuleUnload(g.mod)
	}
	if g.dev >= 0 {
		d.cuCtxSetCurrent(0)
		d.cuDevicePrimaryCtxRelease(g.dev)
	}
}
