package shard

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReadProgress reads a count in the middle: two shards finished (a
// line each), one stopped halfway (a checkpoint), one not started; of
// whole constellations and of sub-parts (SchemeSplit).
func TestReadProgress(t *testing.T) {
	for _, split := range []int{0, 8} {
		t.Run(fmt.Sprintf("split=%d", split), func(t *testing.T) { testReadProgress(t, split) })
	}
}

func testReadProgress(t *testing.T, split int) {
	dir := t.TempDir()
	const n, k = 10, 4
	var paths []string
	for i := range 2 {
		r, err := Run(context.Background(), Spec{N: n, Index: i, Shards: k, Version: "v", Split: split}, Options{Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, string(rune('0'+i))+".jsonl")
		if err := os.WriteFile(path, r.AppendLine(nil), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	s := Spec{N: n, Index: 2, Shards: k, Version: "v", Split: split}
	path := filepath.Join(dir, "2.ckpt")
	c, err := OpenCheckpoint(path, s)
	if err != nil {
		t.Fatal(err)
	}
	pieces, parts, _ := s.Pieces()
	half := 0
	ctx, cancel := context.WithCancel(context.Background())
	Run(ctx, s, Options{Threads: 1, OnPiece: func(p Piece) error {
		if half++; half == len(pieces)/2 {
			cancel()
		}
		return c.Record(p)
	}})
	cancel()
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	c.Close()
	paths = append(paths, path, filepath.Join(dir, "2.ckpt.lock"), filepath.Join(dir, "absent.ckpt"))

	p, err := ReadProgress(paths)
	if err != nil {
		t.Fatal(err)
	}
	all0, _, _ := Spec{N: n, Index: 0, Shards: k, Split: split}.Pieces()
	all1, _, _ := Spec{N: n, Index: 1, Shards: k, Split: split}.Pieces()
	wantDone := len(all0) + len(all1) + len(c.Done())
	if p.N != n || p.Shards != k || p.Parts != parts || p.Done != wantDone || len(p.Seen) != 3 || !p.Seen[0].Finished || p.Seen[2].Finished {
		t.Fatalf("ReadProgress = %+v; want n=%d, %d shards, %d parts, %d done, shards 0, 1 finished and 2 not", p, n, k, parts, wantDone)
	}
	if m := p.Missing(); len(m) != 1 || m[0] != 3 {
		t.Errorf("Missing() = %v, want [3]", m)
	}
	// Half the work or more is done: two of four shards and half a third.
	if p.Work < 0.5 || p.Work > 0.75 {
		t.Errorf("Work = %v, want 0.5 to 0.75", p.Work)
	}
	if eta := p.ETA(p.Start.Add(time.Minute)); eta <= 0 || eta > time.Minute {
		t.Errorf("ETA a minute after the start = %v, want (0, 1m]", eta)
	}
	other := runAll(t, 9, 4, "v")
	odd := filepath.Join(dir, "odd.jsonl")
	os.WriteFile(odd, other[0], 0o644)
	if _, err := ReadProgress(append(paths, odd)); !errors.Is(err, ErrMismatch) {
		t.Errorf("ReadProgress with a line of another count: %v; want ErrMismatch", err)
	}
	if _, err := ReadProgress(nil); !errors.Is(err, ErrMissing) {
		t.Errorf("ReadProgress(nothing): %v; want ErrMissing", err)
	}
}
