package shard

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/queens-dev/queens/backtrack"
)

// BenchmarkRun counts a whole board as one shard, without and with a
// checkpoint (one synced rewrite of the file per piece), to show what
// the bookkeeping costs next to the count.
func BenchmarkRun(b *testing.B) {
	for _, n := range []int{10, 12, 13} {
		for _, ckpt := range []bool{false, true} {
			b.Run(fmt.Sprintf("n=%d/checkpoint=%v", n, ckpt), func(b *testing.B) {
				s := Spec{N: n, Shards: 1, Version: "bench"}
				dir := b.TempDir()
				var nodes uint64
				i := 0
				for b.Loop() {
					opt := Options{Threads: 1}
					if ckpt {
						i++
						c, err := OpenCheckpoint(filepath.Join(dir, fmt.Sprint(i)), s)
						if err != nil {
							b.Fatal(err)
						}
						opt.OnPiece = c.Record
						defer c.Close()
					}
					r, err := Run(context.Background(), s, opt)
					if err != nil {
						b.Fatal(err)
					}
					nodes += r.Nodes.Lo
				}
				b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			})
		}
	}
}

// BenchmarkSplitSpread counts every sub-part of n = 16..18, m = 8 sub-parts
// per constellation, on one thread, and reports how unevenly the work
// falls: the largest sub-part and the largest shard (of K shards that
// take about 11 pieces each, as K = 2^24 shards of n = 28 with
// shard.AutoSplit(28) = 4096 do) over the mean, by nodes (queens placed,
// which the time follows), the 99th percentile shard over the mean, and
// the time of all the sub-parts over that of the whole constellations
// (what walking to the subtrees costs). docs/scale.md extrapolates n = 28
// from it.
func BenchmarkSplitSpread(b *testing.B) {
	const m, perShard = 8, 11
	for _, n := range []int{16, 17, 18} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				cs, _ := backtrack.Subproblems(n)
				cs = cs[:len(cs)-1] // the symmetric piece is never split
				start := time.Now()
				for _, c := range cs {
					if _, err := c.Count(context.Background(), n); err != nil {
						b.Fatal(err)
					}
				}
				whole := time.Since(start)
				start = time.Now()
				var nodes []float64 // by position in the split
				for _, c := range cs {
					for _, p := range c.Split(m) {
						t, err := p.Count(context.Background(), n)
						if err != nil {
							b.Fatal(err)
						}
						nodes = append(nodes, float64(t.Nodes))
					}
				}
				parts := time.Since(start)
				k := len(nodes) / perShard
				shards := make([]float64, k)
				for i, x := range nodes {
					shards[i%k] += x
				}
				b.ReportMetric(maxOverMean(nodes), "part-max/mean")
				b.ReportMetric(maxOverMean(shards), "shard-max/mean")
				slices.Sort(shards)
				b.ReportMetric(shards[len(shards)*99/100]/mean(shards), "shard-p99/mean")
				b.ReportMetric(float64(k), "shards")
				b.ReportMetric(parts.Seconds()/whole.Seconds(), "time-parts/whole")
			}
		})
	}
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func maxOverMean(xs []float64) float64 { return slices.Max(xs) / mean(xs) }

// planShard is shard i of the n = 28 plan.
func planShard(i int) Spec {
	return Spec{N: 28, Index: i, Shards: 1 << 24, Version: "bench", Split: 4096}
}

// planLine appends to b the line of shard s (a split of the
// constellations: the n = 28 plan is K = 2^24 shards of a split 4096
// ways, 11 or 12 pieces each), as Run would write it, but for its
// tallies: piece j holds 1 + (i+j)%3 classes of 8 solutions (the
// symmetric piece 8 classes of 1), made up but of a form Parse admits.
// It returns the line and its sums.
func planLine(b []byte, s Spec) ([]byte, Sums, error) {
	i := s.Index
	keys, parts, err := s.keys()
	if err != nil {
		return b, Sums{}, err
	}
	r := Result{N: s.N, Shard: i, Shards: s.Shards, Scheme: SchemeSplit, Split: s.Split, Engine: EngineConstellations,
		Parts: parts, Tallies: make([]backtrack.Tally, len(keys)), Version: s.Version, Fingerprint: fingerprint(s, keys),
		Host: fmt.Sprintf("node%04d", i%4096), Threads: 1, Start: time.Unix(1764547200, 0).UTC(), Elapsed: 1800 * time.Second}
	r.setKeys(keys)
	for j, k := range keys {
		c := uint64(1 + (i+j)%3)
		if k.sp.Symmetric() {
			r.Tallies[j] = backtrack.Tally{Unique24: 3 * 8, Nodes: uint64(i + j)}
		} else {
			r.Tallies[j] = backtrack.Tally{Total24: 24 * 8 * c, Unique24: 24 * c, Nodes: uint64(i + j)}
		}
	}
	r.Sums, _ = SumTallies(r.Tallies)
	return r.AppendLine(b), r.Sums, nil
}

// BenchmarkMerge parses and merges lines shaped like those of the n = 28
// plan (see planLine), per line: parse (Parse alone), add
// ([Merger.Add] of a parsed line) and line (both, as merge does on one
// thread). A fresh Merger takes every 4096 lines (shards spread over
// the 2^24).
func BenchmarkMerge(b *testing.B) {
	const pool = 4096
	var lines [][]byte
	var results []Result
	for i := range pool {
		l, _, err := planLine(nil, planShard(i*4093%(1<<24)))
		if err != nil {
			b.Fatal(err)
		}
		r, err := Parse(l)
		if err != nil {
			b.Fatal(err)
		}
		lines, results = append(lines, l), append(results, r)
	}
	b.Run("parse", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := Parse(lines[i%pool]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	for _, parse := range []bool{false, true} {
		name := "add"
		if parse {
			name = "line"
		}
		b.Run(name, func(b *testing.B) {
			var m *Merger
			i := 0
			for b.Loop() {
				if i%pool == 0 {
					m = &Merger{}
				}
				r := results[i%pool]
				if parse {
					var err error
					if r, err = Parse(lines[i%pool]); err != nil {
						b.Fatal(err)
					}
				}
				if err := m.Add(r); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.SetBytes(int64(len(lines[0])))
		})
	}
}

// TestGenerateMergeLines writes lines shaped like those of the n = 28 plan
// (see planLine) for bench/merge.sh: shards 0 to M-1 of
// QUEENS_MERGE_LINES=M into the file QUEENS_MERGE_FILE (a pipe, such as
// /dev/fd/3, streams them), and then "total T unique U" (the count they
// add up to) on stderr. Skipped unless both are set. QUEENS_MERGE_SPEC=N/K/S
// makes them lines of n = N in K shards of a split S ways instead (17/39300/100:
// 11 pieces a line, a small count's merge).
func TestGenerateMergeLines(t *testing.T) {
	path, count := os.Getenv("QUEENS_MERGE_FILE"), os.Getenv("QUEENS_MERGE_LINES")
	if path == "" || count == "" {
		t.Skip("bench/merge.sh sets QUEENS_MERGE_FILE and QUEENS_MERGE_LINES")
	}
	m, err := strconv.Atoi(count)
	if err != nil || m < 1 || m > 1<<24 {
		t.Fatalf("QUEENS_MERGE_LINES=%q: want 1 to %d", count, 1<<24)
	}
	plan := planShard(0)
	if v := os.Getenv("QUEENS_MERGE_SPEC"); v != "" {
		if _, err := fmt.Sscanf(v, "%d/%d/%d", &plan.N, &plan.Shards, &plan.Split); err != nil || m > plan.Shards {
			t.Fatalf("QUEENS_MERGE_SPEC=%q: want N/K/S, K at least QUEENS_MERGE_LINES", v)
		}
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var b []byte
	var sum Sums
	for i := range m {
		var s Sums
		plan.Index = i
		if b, s, err = planLine(b[:0], plan); err != nil {
			t.Fatal(err)
		}
		if sum, err = sum.add(s); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "total %s unique %s\n", fraction24Of(sum.Total24), fraction24Of(sum.Unique24))
}
