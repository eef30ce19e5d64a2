// Package sets compares multisets of N-Queens solutions: exactly, holding
// them in memory ([Compare], [Differences]), or in constant memory by an
// order-independent [Fingerprint]. It is the set arithmetic of package
// compare without the engines: it imports no solver and runs no process.
package sets

import (
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/queens-dev/queens/board"
)

// Diff is the exact difference between two multisets of solutions: what
// the first has more of, and what the second has more of. A solution that
// appears twice in one and once in the other is listed once on the side
// that has it twice.
type Diff struct {
	OnlyA, OnlyB []board.Solution
}

// Empty reports whether the two multisets were equal.
func (d Diff) Empty() bool { return len(d.OnlyA) == 0 && len(d.OnlyB) == 0 }

// Compare compares two streams exactly, holding both in memory; use it
// for small sets (a few hundred thousand solutions), and [Fingerprint]
// for large ones. The lists in the result are sorted. An error in either
// stream is returned as a [*StreamError] saying which stream it ended,
// with no Diff: a stream that failed is not an empty set.
func Compare(a, b iter.Seq2[board.Solution, error]) (Diff, error) {
	ds, err := Differences(a, b)
	if err != nil {
		return Diff{}, err
	}
	var d Diff
	for _, x := range ds {
		for range x.A - x.B {
			d.OnlyA = append(d.OnlyA, x.Solution)
		}
		for range x.B - x.A {
			d.OnlyB = append(d.OnlyB, x.Solution)
		}
	}
	return d, nil
}

// Difference is a solution of which two multisets hold different
// numbers of copies, A and B.
type Difference struct {
	Solution board.Solution
	A, B     int
}

// Differences returns the solutions of which streams a and b hold
// different numbers of copies, in the order of [board.Solution.Compare].
// An error in either stream is returned as a [*StreamError].
func Differences(a, b iter.Seq2[board.Solution, error]) ([]Difference, error) {
	ca, sols, err := tally(a, nil)
	if err != nil {
		return nil, &StreamError{Stream: "a", Err: err}
	}
	cb, sols, err := tally(b, sols)
	if err != nil {
		return nil, &StreamError{Stream: "b", Err: err}
	}
	var out []Difference
	for k, s := range sols {
		if ca[k] != cb[k] {
			out = append(out, Difference{s, ca[k], cb[k]})
		}
	}
	slices.SortFunc(out, func(x, y Difference) int { return x.Solution.Compare(y.Solution) })
	return out, nil
}

// StreamError is the error that ended one of the streams compared.
type StreamError struct {
	Stream string // "a" or "b"
	Err    error
}

func (e *StreamError) Error() string { return "stream " + e.Stream + ": " + e.Err.Error() }
func (e *StreamError) Unwrap() error { return e.Err }

// tally counts the copies of each solution in seq, keeping one copy of
// each in sols (made if nil); it stops at the first error of seq.
func tally(seq iter.Seq2[board.Solution, error], sols map[string]board.Solution) (map[string]int, map[string]board.Solution, error) {
	if sols == nil {
		sols = map[string]board.Solution{}
	}
	counts := map[string]int{}
	for s, err := range seq {
		if err != nil {
			return nil, nil, err
		}
		k := key(s)
		counts[k]++
		if _, ok := sols[k]; !ok {
			sols[k] = s.Clone()
		}
	}
	return counts, sols, nil
}

func key(s board.Solution) string {
	var b strings.Builder
	for _, c := range s {
		b.WriteString(strconv.Itoa(c))
		b.WriteByte(',')
	}
	return b.String()
}
