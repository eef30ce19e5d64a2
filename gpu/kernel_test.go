package gpu

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

// TestTaskLayout checks that task is laid out as struct task in kernel.cu
// (whose static_assert checks its size there).
func TestTaskLayout(t *testing.T) {
	var x task
	if got := unsafe.Sizeof(x); got != 40 {
		t.Errorf("sizeof(task) = %d, want 40", got)
	}
	for _, f := range []struct {
		name      string
		got, want uintptr
	}{
		{"d1", unsafe.Offsetof(x.d1), 0}, {"d2", unsafe.Offsetof(x.d2), 8}, {"free", unsafe.Offsetof(x.free), 16},
		{"piece", unsafe.Offsetof(x.piece), 20}, {"rows", unsafe.Offsetof(x.rows), 24},
	} {
		if f.got != f.want {
			t.Errorf("offsetof(task.%s) = %d, want %d", f.name, f.got, f.want)
		}
	}
	src, err := os.ReadFile("kernel.cu")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte("#define MAX_ROWS 16 ")) || MaxRows != 16 {
		t.Errorf("kernel.cu's MAX_ROWS and MaxRows = %d differ", MaxRows)
	}
}

// tasksOf lists the tasks of every piece of an n×n board split to rows,
// and what the Go twin of the kernel counts for each.
func tasksOf(t *testing.T, n, rows int) ([]task, []uint64) {
	t.Helper()
	_, ps, _, err := plan(n, Options{Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	var tasks []task
	s := newSplitter(n, rows, func(x *task) { tasks = append(tasks, *x) })
	for i, p := range ps {
		if p.ok {
			s.piece = uint32(i)
			s.split(p.free, p.d1, p.d2, p.rem)
		}
	}
	want := make([]uint64, len(tasks))
	for i := range tasks {
		want[i] = search(&tasks[i], n)
	}
	return tasks, want
}

// TestKernelOnHost compiles kernel.cu as C++ for the CPU, with the few
// CUDA names it uses defined by testdata/host.cpp, and checks that it
// counts every task as search does: the kernel's own source, tested
// without a GPU. It skips when no C++ compiler is on PATH.
func TestKernelOnHost(t *testing.T) {
	cxx, err := exec.LookPath("g++")
	if err != nil {
		if cxx, err = exec.LookPath("clang++"); err != nil {
			t.Skip("no g++ or clang++ on PATH: kernel.cu not checked on the host")
		}
	}
	bin := filepath.Join(t.TempDir(), "host")
	if out, err := exec.Command(cxx, "-std=c++17", "-O2", "-Wall", "-Werror", "-o", bin, "testdata/host.cpp").CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cxx, err, out)
	}
	for _, c := range []struct{ n, rows int }{{8, 3}, {11, 5}, {12, 8}, {13, 9}, {14, MaxRows}} {
		tasks, want := tasksOf(t, c.n, c.rows)
		var in bytes.Buffer
		binary.Write(&in, binary.LittleEndian, int32(c.n))
		binary.Write(&in, binary.LittleEndian, uint32(len(tasks)))
		in.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(tasks))), len(tasks)*int(unsafe.Sizeof(task{}))))
		cmd := exec.Command(bin)
		cmd.Stdin = &in
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("n=%d rows=%d: host kernel: %v %s", c.n, c.rows, err, stderr.String())
		}
		if len(out) != 8*len(tasks) {
			t.Fatalf("n=%d rows=%d: host kernel wrote %d bytes, want %d", c.n, c.rows, len(out), 8*len(tasks))
		}
		bad := 0
		for i := range tasks {
			if got := binary.LittleEndian.Uint64(out[8*i:]); got != want[i] {
				if bad++; bad <= 5 {
					t.Errorf("n=%d rows=%d task %d %+v: kernel %d, search %d", c.n, c.rows, i, tasks[i], got, want[i])
				}
			}
		}
		t.Logf("n=%d rows=%d: %d tasks agree", c.n, c.rows, len(tasks)-bad)
	}
}
