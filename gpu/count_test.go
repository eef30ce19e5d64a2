package gpu

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
)

func TestOptionsRefused(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		n    int
		opt  Options
		want error
	}{
		{"n=0", 0, Options{}, board.ErrSize},
		{"n=-3", -3, Options{}, board.ErrSize},
		{"n=33", MaxN + 1, Options{}, board.ErrSize},
		{"rows=2", 8, Options{Rows: 2}, ErrOptions},
		{"rows=17", 8, Options{Rows: MaxRows + 1}, ErrOptions},
		{"rows=-1", 8, Options{Rows: -1}, ErrOptions},
		{"batch=-1", 8, Options{Batch: -1}, ErrOptions},
		{"batch=huge", 8, Options{Batch: MaxBatch + 1}, ErrOptions},
		{"device=-1", 8, Options{Device: -1}, ErrOptions},
		{"design=7", 8, Options{Design: 7}, ErrOptions},
		{"blocks=-1", 8, Options{BlocksPerSM: -1}, ErrOptions},
		{"blocks=huge", 8, Options{BlocksPerSM: MaxBlocksPerSM + 1}, ErrOptions},
		{"threads=huge", 8, Options{Threads: min(1<<62, math.MaxInt)}, ErrOptions},
		{"not canonical", 8, Options{Pieces: []backtrack.Subproblem{{Top: 7, Bottom: 0, Left: 3, Right: 5}}}, ErrPiece},
		{"not a constellation", 8, Options{Pieces: []backtrack.Subproblem{{Top: 1, Bottom: 1, Left: 1, Right: 1}}}, ErrPiece},
		{"off the board", 8, Options{Pieces: []backtrack.Subproblem{{Top: 1, Bottom: 99, Left: 2, Right: 5}}}, ErrPiece},
		{"twice", 8, Options{Pieces: []backtrack.Subproblem{symmetricPiece(8), symmetricPiece(8)}}, ErrPiece},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Reference(ctx, c.n, c.opt); !errors.Is(err, c.want) {
				t.Errorf("Reference(%d, %+v) error = %v, want %v", c.n, c.opt, err, c.want)
			}
			if _, err := Count(ctx, c.n, c.opt); !errors.Is(err, c.want) {
				t.Errorf("Count(%d, %+v) error = %v, want %v", c.n, c.opt, err, c.want)
			}
		})
	}
}

// TestReferenceShards counts the pieces of n = 12 in three shards, as
// the shard package lists them, and checks that the shards' tallies add up
// to the board's counts and the pieces match backtrack's.
func TestReferenceShards(t *testing.T) {
	const n = 12
	sps, want := cpuPieces(t, n)
	var total24, unique24 uint64
	for k := range 3 {
		var mine []backtrack.Subproblem
		var wantMine []backtrack.Tally
		for i := k; i < len(sps); i += 3 {
			mine = append(mine, sps[i])
			wantMine = append(wantMine, want[i])
		}
		res, err := Reference(context.Background(), n, Options{Pieces: mine, Threads: 2, Batch: 100})
		if err != nil {
			t.Fatalf("shard %d: %v", k, err)
		}
		samePieces(t, n, mine, res.Pieces, wantMine)
		for _, p := range res.Pieces {
			total24 += p.Total24
			unique24 += p.Unique24
		}
	}
	known, _ := board.Known(n)
	if total24 != 24*known.Total || unique24 != 24*known.Unique {
		t.Errorf("shards of n=%d sum to %d/24 (%d/24 unique), want %d (%d unique)", n, total24, unique24, known.Total, known.Unique)
	}
}

func TestReferenceEmpty(t *testing.T) {
	res, err := Reference(context.Background(), 10, Options{Pieces: []backtrack.Subproblem{}})
	if err != nil || res.Total != 0 || res.Unique != 0 || len(res.Pieces) != 0 || res.Launches != 0 {
		t.Errorf("Reference(10, no pieces) = %+v, %v; want zero counts", res, err)
	}
}

func TestReferenceCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Reference(ctx, 14, Options{Batch: 10})
	if !errors.Is(err, context.Canceled) || res.Total != 0 || res.Pieces != nil {
		t.Errorf("Reference(cancelled) = %d, %d pieces, %v; want 0, none, %v", res.Total, len(res.Pieces), err, context.Canceled)
	}
}

// failing is an executor's search that fails on its second batch.
type failing struct{ calls *int }

func (f failing) search(tasks []task, out []uint64, _ *Timing) error {
	if *f.calls++; *f.calls == 2 {
		return errors.New("device fell off the bus")
	}
	for i := range tasks {
		out[i] = search(&tasks[i], 13)
	}
	return nil
}

// TestRunStopsOnError checks that a failing batch stops the count with
// its error and every goroutine of run finishes (no hang).
func TestRunStopsOnError(t *testing.T) {
	_, ps, opt, err := plan(13, Options{Rows: 6, Batch: 50, Threads: 3})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	if _, err := run(context.Background(), 13, opt, ps, newSyncExec(opt.Batch, failing{&calls}.search)); err == nil || err.Error() != "device fell off the bus" {
		t.Errorf("run with a failing batch: %v, want its error", err)
	}
}

func TestDefaultRows(t *testing.T) {
	for n := 1; n <= MaxN; n++ {
		if r := DefaultRows(n); r < 3 || r > MaxRows {
			t.Errorf("DefaultRows(%d) = %d, want 3..%d", n, r, MaxRows)
		}
	}
}

// TestOnPiece checks that OnPiece sees every piece exactly once, with the
// tally the result gives it, and that its error stops the count.
func TestOnPiece(t *testing.T) {
	const n = 12
	for _, opt := range []Options{{}, {Rows: 4, Batch: 50, Threads: 3}} {
		seen := map[int]backtrack.Tally{}
		opt.OnPiece = func(i int, tl backtrack.Tally) error {
			if _, ok := seen[i]; ok {
				t.Errorf("OnPiece(%d) twice", i)
			}
			seen[i] = tl
			return nil
		}
		res, err := Reference(context.Background(), n, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) != len(res.Pieces) {
			t.Errorf("rows=%d: OnPiece saw %d pieces of %d", opt.Rows, len(seen), len(res.Pieces))
		}
		for i, tl := range res.Pieces {
			if seen[i] != tl {
				t.Errorf("rows=%d: OnPiece(%d) got %+v, result has %+v", opt.Rows, i, seen[i], tl)
			}
		}
	}
	stop := errors.New("checkpoint full")
	calls := 0
	_, err := Reference(context.Background(), n, Options{Rows: 4, Batch: 50, OnPiece: func(int, backtrack.Tally) error {
		calls++
		return stop
	}})
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("Reference with a failing OnPiece: %v after %d calls, want %v after 1", err, calls, stop)
	}
}

// symmetricPiece returns the symmetric piece of the n×n count.
func symmetricPiece(n int) backtrack.Subproblem {
	sps, _ := backtrack.Subproblems(n)
	return sps[len(sps)-1]
}
