package gpu

import (
	"fmt"
	"testing"

	"github.com/queens-dev/queens/internal/testutil"
)

// TestSearchLoop checks the twin of the second kernel, count_loop, against
// search, task by task, with blocks of 1 to loopBlock lanes in lockstep
// (so that lanes share the stack's levels and the task index as the
// kernel's threads do), including tasks the kernel refuses.
func TestSearchLoop(t *testing.T) {
	if testutil.Race {
		t.Skip("-race: one goroutine's loop, about 40 s under the detector; the plain run checks it whole")
	}
	for _, c := range []struct{ n, rows int }{{8, 3}, {11, 5}, {12, 8}, {13, 9}, {14, MaxRows}, {26, 0}, {32, 0}} {
		tasks, want := testTasks(t, c.n, c.rows, 5)
		refused := tasks[0]
		refused.free = 3 // two empty rows: a task the kernels refuse
		tasks = append(tasks, refused)
		want = append(want, bad)
		for _, lanes := range []int{1, 7, 32, loopBlock} {
			t.Run(fmt.Sprintf("n=%d/rows=%d/lanes=%d", c.n, c.rows, lanes), func(t *testing.T) {
				out := make([]uint64, len(tasks))
				for i := range out {
					out[i] = 12345 // every task is written
				}
				searchLoop(tasks, out, c.n, lanes)
				bad := 0
				for i := range tasks {
					if out[i] != want[i] {
						if bad++; bad <= 5 {
							t.Errorf("task %d %+v: loop %d, search %d", i, tasks[i], out[i], want[i])
						}
					}
				}
			})
		}
	}
}
