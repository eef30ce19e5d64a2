package gpu

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/constellation"

	"github.com/queens-dev/queens/internal/testutil"
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
// CUDA names it uses defined by testdata/cuda_host.h, and checks that both
// its kernels, count_tasks and count_loop, count every task as search
// does: the kernels' own source, tested without a GPU. It skips when no
// C++ compiler is on PATH.
func TestKernelOnHost(t *testing.T) {
	if testutil.Race {
		t.Skip("-race: compiles and runs the kernel as C++, no Go goroutines to check; the plain run does it")
	}
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
	for _, c := range []struct {
		n, rows int
		design  Design
	}{{8, 3, DesignTask}, {11, 5, DesignTask}, {12, 8, DesignTask}, {13, 9, DesignTask}, {14, MaxRows, DesignTask}, {26, 0, DesignTask}, {32, 0, DesignTask},
		{8, 3, DesignLoop}, {11, 5, DesignLoop}, {12, 8, DesignLoop}, {13, 9, DesignLoop}, {14, MaxRows, DesignLoop}, {26, 0, DesignLoop}, {32, 0, DesignLoop}} {
		tasks, want := testTasks(t, c.n, c.rows, 3)
		var in bytes.Buffer
		binary.Write(&in, binary.LittleEndian, int32(c.n))
		binary.Write(&in, binary.LittleEndian, uint32(len(tasks)))
		in.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(tasks))), len(tasks)*int(unsafe.Sizeof(task{}))))
		cmd := exec.Command(bin, c.design.String())
		cmd.Stdin = &in
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("n=%d rows=%d %v: host kernel: %v %s", c.n, c.rows, c.design, err, stderr.String())
		}
		if len(out) != 8*len(tasks) {
			t.Fatalf("n=%d rows=%d: host kernel wrote %d bytes, want %d", c.n, c.rows, len(out), 8*len(tasks))
		}
		bad := 0
		for i := range tasks {
			if got := binary.LittleEndian.Uint64(out[8*i:]); got != want[i] {
				if bad++; bad <= 5 {
					t.Errorf("n=%d rows=%d %v: task %d %+v: kernel %d, search %d", c.n, c.rows, c.design, i, tasks[i], got, want[i])
				}
			}
		}
		t.Logf("n=%d rows=%d %v: %d tasks agree", c.n, c.rows, c.design, len(tasks)-bad)
	}
}

// testTasks returns the tasks of every piece of an n×n board split to
// rows (and what search counts for each), or, for rows 0, tasks made from
// solutions with random rows emptied (placedTasks, from seed).
func testTasks(t *testing.T, n, rows int, seed uint64) ([]task, []uint64) {
	t.Helper()
	if rows > 0 {
		return tasksOf(t, n, rows)
	}
	return placedTasks(t, n, rand.New(rand.NewPCG(seed, uint64(n))))
}

// placedTasks returns tasks of an n×n board made from a solution and its
// images by emptying random rows, 3..MaxRows of them, and what search
// counts for each: tasks whose diagonals use the high bits.
func placedTasks(t *testing.T, n int, rng *rand.Rand) ([]task, []uint64) {
	t.Helper()
	sol, _, err := backtrack.First(context.Background(), n, backtrack.Options{Strategy: backtrack.Heuristic})
	if err != nil {
		t.Fatal(err)
	}
	var tasks []task
	for k := range 64 {
		s := board.Transforms()[k%8].Apply(sol)
		empty := 3 + rng.IntN(MaxRows-2)
		var qs []board.Queen
		for _, row := range rng.Perm(n)[empty:] {
			qs = append(qs, board.Queen{Row: row, Col: s[row]})
		}
		sp := newSplitter(n, empty, func(x *task) { tasks = append(tasks, *x) })
		sp.split(constellation.Placement(n, qs))
	}
	want := make([]uint64, len(tasks))
	for i := range tasks {
		want[i] = search(&tasks[i], n)
	}
	return tasks, want
}

// TestSearchLargeBoards checks search on boards up to n = 32, where the
// diagonals use bits beyond 32 and the rotations wrap: partial placements
// made from a solution (and its images) by emptying random rows, each
// completed by search (through the splitter, as Count does) and by
// backtrack.Count with the placed queens, an independent count.
func TestSearchLargeBoards(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{17, 21, 26, 31, 32} {
		sol, _, err := backtrack.First(context.Background(), n, backtrack.Options{Strategy: backtrack.Heuristic})
		if err != nil {
			t.Fatal(err)
		}
		for k := range 12 {
			s := board.Transforms()[k%8].Apply(sol)
			empty := 3 + rng.IntN(8) // rows the search fills
			var qs []board.Queen
			for _, row := range rng.Perm(n)[empty:] {
				qs = append(qs, board.Queen{Row: row, Col: s[row]})
			}
			want, err := backtrack.Count(context.Background(), n, backtrack.CountOptions{Place: qs, Threads: 1})
			if err != nil {
				t.Fatal(err)
			}
			var got uint64
			sp := newSplitter(n, min(MaxRows, empty-rng.IntN(2)), func(x *task) { got += search(x, n) })
			sp.split(constellation.Placement(n, qs))
			got += sp.host
			if got != want.Total || got == 0 {
				t.Errorf("n=%d, %d rows empty: search counts %d, backtrack %d (want >= 1)", n, empty, got, want.Total)
			}
		}
	}
}
