package backtrack

import (
	"context"
	"fmt"
	"testing"

	"github.com/queens-dev/queens/board"
)

// report adds the search's work per iteration to the benchmark.
func report(b *testing.B, stats Stats) {
	b.ReportMetric(float64(stats.Nodes)/float64(b.N), "nodes/op")
	b.ReportMetric(float64(stats.Solutions)/float64(b.N), "solutions/op")
}

func add(total *Stats, s Stats) {
	total.Nodes += s.Nodes
	total.Solutions += s.Solutions
}

func BenchmarkFirst(b *testing.B) {
	for _, tc := range []struct {
		n  int
		st Strategy
	}{{8, Lex}, {20, Lex}, {24, Lex}, {25, Heuristic}, {100, Heuristic}, {1000, Heuristic}} {
		b.Run(fmt.Sprintf("n=%d/%v", tc.n, tc.st), func(b *testing.B) {
			var total Stats
			for b.Loop() {
				_, stats, _ := First(context.Background(), tc.n, Options{Strategy: tc.st})
				add(&total, stats)
			}
			report(b, total)
		})
	}
}

func BenchmarkAll(b *testing.B) {
	for _, n := range []int{8, 10, 12} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var total Stats
			for b.Loop() {
				stats, _ := Search(context.Background(), n, Options{Strategy: Lex}, func(board.Solution) bool { return true })
				add(&total, stats)
			}
			report(b, total)
		})
	}
}

// BenchmarkTrace measures what the trace hook costs: "off" is a search
// with no observer, "noop" one whose observer does nothing. Compare
// "off" with BenchmarkAll/n=10 of a build without hooks, or its ns/node
// with "noop": the difference between off and noop is the price of
// building and delivering the events, which nobody pays when off.
func BenchmarkTrace(b *testing.B) {
	const n = 10
	for _, tc := range []struct {
		name    string
		observe func(Event)
	}{{"off", nil}, {"noop", func(Event) {}}} {
		b.Run(tc.name, func(b *testing.B) {
			var total Stats
			for b.Loop() {
				stats, _ := Search(context.Background(), n, Options{Strategy: Lex, Observe: tc.observe}, func(board.Solution) bool { return true })
				add(&total, stats)
			}
			report(b, total)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(total.Nodes), "ns/node")
		})
	}
	// The reference: the bare textbook loop with no hook at all.
	b.Run("bare", func(b *testing.B) {
		var nodes uint64
		for b.Loop() {
			nodes += bare(n)
		}
		b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
	})
}

// bare counts the queens the lexicographic search places on an n×n board,
// the same algorithm as Lex without observer, statistics or cancellation.
func bare(n int) uint64 {
	col, diag, anti := make([]bool, n), make([]bool, 2*n-1), make([]bool, 2*n-1)
	var nodes uint64
	var walk func(row int)
	walk = func(row int) {
		if row == n {
			return
		}
		for c := range n {
			if col[c] || diag[row+c] || anti[row-c+n-1] {
				continue
			}
			nodes++
			col[c], diag[row+c], anti[row-c+n-1] = true, true, true
			walk(row + 1)
			col[c], diag[row+c], anti[row-c+n-1] = false, false, false
		}
	}
	walk(0)
	return nodes
}

// TestBareNodes keeps the benchmark's reference honest: it places exactly
// as many queens as Lex.
func TestBareNodes(t *testing.T) {
	for n := 1; n <= 9; n++ {
		stats, _ := Search(context.Background(), n, Options{Strategy: Lex}, func(board.Solution) bool { return true })
		if got := bare(n); got != stats.Nodes {
			t.Errorf("bare(%d) = %d nodes, Lex %d", n, got, stats.Nodes)
		}
	}
}
