package gpu

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/queens-dev/queens/board"
)

// The flags of the device check's table (gpu/device-check.sh); without
// -table, TestDeviceTable skips.
var (
	tableSizes  = flag.String("table", "", "time GPU counts of the board sizes `LO-HI` with each design, and print a table (the device check)")
	tableSweep  = flag.String("table-sweep", "", "for these comma-separated `sizes`, also time DesignLoop with one row fewer and one and two more per task, and with 4 and 8 blocks per multiprocessor")
	tableBudget = flag.Duration("table-budget", 5*time.Minute, "time for the whole table: a count expected to overrun what is left is skipped, one that does is stopped")
	tableOut    = flag.String("table-out", "", "also write the table to this `file`")
)

// TestDeviceTable times whole counts of the sizes of -table with the
// first and the second design (and, for the sizes of -table-sweep, the
// second with other task depths and occupancies), smallest first, and prints one line
// each: the wall time and where it went, the launches and tasks, what the
// driver says of the kernel, and whether the counts are the published
// ones (a count that is not fails the test, and the table goes on). A
// count expected to take longer than what is left of -table-budget (7
// times the last size's) is skipped and says so.
func TestDeviceTable(t *testing.T) {
	if *tableSizes == "" {
		t.Skip("no -table: the device check's table is not timed")
	}
	needGPU(t)
	lo, hi, err := parseSizes(*tableSizes)
	if err != nil {
		t.Fatal(err)
	}
	sweep := map[int]bool{}
	for f := range strings.SplitSeq(*tableSweep, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
			sweep[n] = true
		}
	}
	var out strings.Builder
	line := func(format string, args ...any) {
		s := fmt.Sprintf(format, args...)
		fmt.Println(s)
		out.WriteString(s + "\n")
	}
	line("%-3s %-5s %4s %9s %9s %9s %9s %9s %9s %9s %8s %10s  %s", "n", "kern", "rows", "wall", "setup", "split", "wait", "copy-in", "kernel", "copy-out", "launches", "tasks", "regs/local/shared grid=SMs*blocks; counts")
	deadline := time.Now().Add(*tableBudget)
	last := map[Design]time.Duration{}
	for n := lo; n <= hi; n++ {
		type run struct {
			design       Design
			rows, blocks int
		}
		runs := []run{{DesignLoop, 0, 0}, {DesignTask, 0, 0}} // the second design first: the budget may not cover both at the largest size
		if sweep[n] {
			for _, d := range []int{-1, 1, 2} {
				if r := DefaultRows(n) + d; r >= 3 && r <= MaxRows {
					runs = append(runs, run{DesignLoop, r, 0})
				}
			}
			runs = append(runs, run{DesignLoop, 0, 4}, run{DesignLoop, 0, 8})
		}
		for _, r := range runs {
			left := time.Until(deadline)
			sweeping := r.rows != 0 || r.blocks != 0
			if want := 7 * last[r.design]; !sweeping && want > left {
				line("%-3d %-5v skipped: about %v expected, %v left", n, r.design, want.Round(time.Second), left.Round(time.Second))
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), left)
			res, err := Count(ctx, n, Options{Design: r.design, Rows: r.rows, BlocksPerSM: r.blocks})
			cancel()
			if err != nil {
				line("%-3d %-5v failed: %v", n, r.design, err)
				t.Errorf("n=%d %v rows=%d: %v", n, r.design, r.rows, err)
				if !sweeping {
					last[r.design] = left // nothing larger of this design
				}
				continue
			}
			if !sweeping {
				last[r.design] = res.Elapsed
			}
			known, _ := board.Known(n)
			verdict := "= table"
			if res.Total != known.Total || res.Unique != known.Unique {
				verdict = fmt.Sprintf("WRONG, table %d (%d unique)", known.Total, known.Unique)
				t.Errorf("n=%d %v rows=%d: %d (%d unique), want %d (%d unique)", n, r.design, r.rows, res.Total, res.Unique, known.Total, known.Unique)
			}
			k, tm := res.Kernel, res.Timing
			line("%-3d %-5v %4d %9s %9s %9s %9s %9s %9s %9s %8d %10d  %d/%d/%d grid=%d=%d*%d; %d (%d unique) %s",
				n, r.design, res.Rows, ms(res.Elapsed), ms(tm.Setup), ms(tm.Split), ms(tm.Wait), ms(tm.CopyIn), ms(tm.Kernel), ms(tm.CopyOut),
				res.Launches, res.Tasks, k.Registers, k.LocalBytes, k.SharedBytes, k.Grid, k.SMs, k.BlocksPerSM, res.Total, res.Unique, verdict)
		}
	}
	if *tableOut != "" {
		if err := os.WriteFile(*tableOut, []byte(out.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// ms formats d in milliseconds.
func ms(d time.Duration) string { return strconv.FormatFloat(d.Seconds()*1000, 'f', 1, 64) + "ms" }

// parseSizes reads "LO-HI" (or one size), each in 1..MaxN.
func parseSizes(s string) (lo, hi int, err error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		b = a
	}
	if lo, err = strconv.Atoi(a); err == nil {
		hi, err = strconv.Atoi(b)
	}
	if err != nil || lo < 1 || hi > MaxN || lo > hi {
		return 0, 0, fmt.Errorf("-table %q: want LO-HI within 1..%d", s, MaxN)
	}
	return lo, hi, nil
}

func TestParseSizes(t *testing.T) {
	for _, c := range []struct {
		in     string
		lo, hi int
		ok     bool
	}{{"16-21", 16, 21, true}, {"18", 18, 18, true}, {"21-16", 0, 0, false}, {"0-3", 0, 0, false}, {"16-33", 0, 0, false}, {"x", 0, 0, false}} {
		lo, hi, err := parseSizes(c.in)
		if (err == nil) != c.ok || lo != c.lo || hi != c.hi {
			t.Errorf("parseSizes(%q) = %d, %d, %v", c.in, lo, hi, err)
		}
	}
}
