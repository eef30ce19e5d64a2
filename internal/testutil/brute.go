// Package testutil holds the one brute-force N-Queens solver that the tests
// of every package check their engines against. It shares no code with the
// engines: it tries every permutation of the columns (so every row and
// column holds one queen by construction), prunes a prefix only by the
// definition of a diagonal attack, and keeps a full board when
// [board.Valid] accepts it and it holds the pre-placed queens. It also
// holds what tests of several packages share besides: a RUP proof
// checker, rotation classes counted by hand and the fake GPU driver's
// build.
package testutil

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"testing"

	"github.com/queens-dev/queens/board"
)

// Solutions returns every solution of the n×n board that contains the
// queens of placed, in lexicographic order. It is meant for n <= 12.
func Solutions(n int, placed []board.Queen) []board.Solution {
	var out []board.Solution
	for s, err := range All(context.Background(), n, placed) {
		if err != nil {
			panic(err) // unreachable: the background context never ends
		}
		out = append(out, slices.Clone(s))
	}
	return out
}

// All streams the solutions of [Solutions], in the same order; the
// solution passed to yield is reused, so clone it to keep it. A done ctx
// ends the stream with ctx's error.
func All(ctx context.Context, n int, placed []board.Queen) iter.Seq2[board.Solution, error] {
	return func(yield func(board.Solution, error) bool) {
		s := make(board.Solution, n)
		used := make([]bool, n)
		var rec func(row int) bool
		rec = func(row int) bool {
			if row == n {
				if board.Valid(s) && s.Contains(placed) {
					return yield(s, nil)
				}
				return true
			}
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return false
			}
			for col := range n {
				if used[col] || attacked(s[:row], col) {
					continue
				}
				used[col] = true
				s[row] = col
				ok := rec(row + 1)
				used[col] = false
				if !ok {
					return false
				}
			}
			return true
		}
		if n > 0 {
			rec(0)
		}
	}
}

// attacked reports whether a queen in column col of the row after prefix
// shares a diagonal with a queen of prefix.
func attacked(prefix board.Solution, col int) bool {
	row := len(prefix)
	for r, c := range prefix {
		if d := col - c; d == row-r || d == r-row {
			return true
		}
	}
	return false
}

// Count returns the number of solutions of [Solutions] and how many of
// them are canonical ([board.IsCanonical]): the total and unique counts.
func Count(n int, placed []board.Queen) (total, unique uint64) {
	for s := range All(context.Background(), n, placed) {
		total++
		if board.IsCanonical(s) {
			unique++
		}
	}
	return total, unique
}

// Values returns the solutions of seq as a plain stream for a range loop,
// failing t (Fatal) at the first error of seq.
func Values(t testing.TB, seq iter.Seq2[board.Solution, error]) iter.Seq[board.Solution] {
	return func(yield func(board.Solution) bool) {
		for s, err := range seq {
			if err != nil {
				t.Helper()
				t.Fatalf("stream of solutions: %v", err)
			}
			if !yield(s) {
				return
			}
		}
	}
}

// QuarterTurn returns s turned a quarter: the queen on (r, c) goes to
// (c, n-1-r). It is built by hand, not from board's transforms, so that
// tests of those have something independent to compare with.
func QuarterTurn(s board.Solution) board.Solution {
	out := make(board.Solution, len(s))
	for r, c := range s {
		out[c] = len(s) - 1 - r
	}
	return out
}

// RotationClasses counts the classes of sols (all the solutions of one
// board) under the four rotations, by building each orbit with
// [QuarterTurn].
func RotationClasses(sols []board.Solution) uint64 {
	seen := map[string]bool{}
	classes := uint64(0)
	for _, s := range sols {
		if seen[fmt.Sprint(s)] {
			continue
		}
		classes++
		for img, i := s, 0; i < 4; img, i = QuarterTurn(img), i+1 {
			seen[fmt.Sprint(img)] = true
		}
	}
	return classes
}
