package drat_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/queens-dev/queens/drat"
)

// TestCheckProofFormats: one refutation of x1 & -x1 in each format
// CheckProof tells apart, and the format it says it checked.
func TestCheckProofFormats(t *testing.T) {
	f := &drat.Formula{Vars: 2, Clauses: [][]int{{1, 2}, {1, -2}, {-1, 2}, {-1, -2}}}
	for _, tc := range []struct{ name, proof, format string }{
		{"text DRAT", "1 0\n0\n", "DRAT"},
		{"text DRAT with deletion", "1 0\nd 1 2 0\n0\n", "DRAT"},
		{"binary DRAT", "a\x02\x00a\x00", "binary DRAT"},
		{"RUP trace", "%RUPD32 2 4\n1 0\n0\n", "DRAT"},
		{"LRAT", "5 1 0 1 2 0\n6 0 5 3 4 0\n", "LRAT"},
		{"LRAT, deletion first", "4 d 0\n5 1 0 1 2 0\n6 0 5 3 4 0\n", "LRAT"},
		{"LRAT after a comment", "c from a converter\n5 1 0 1 2 0\n6 0 5 3 4 0\n", "LRAT"},
		// drat-trim starts LRAT with one deletion line of every unused
		// clause: longer than any peek.
		{"LRAT, long deletion first", "4 d" + strings.Repeat(" ", 1<<20) + " 0\n5 1 0 1 2 0\n6 0 5 3 4 0\n", "LRAT"},
		{"LRAT, long first step", "5 1 0" + strings.Repeat(" ", 1<<20) + " 1 2 0\n6 0 5 3 4 0\n", "LRAT"},
		{"text DRAT, two lemmas on a line", "1 0 0\n", "DRAT"},
		{"text DRAT, negative first", "-1 0\n-2 0 0\n", "DRAT"},
		{"text DRAT, long first lemma", "1" + strings.Repeat(" 1", 1<<20) + " 0\n0\n", "DRAT"},
		// Two clauses on the first line read as an LRAT step (id 5 above
		// the 4 clauses, hint 1 below it); the next line cannot be one.
		{"text DRAT, two clauses a line, id-like", "5 1 0 1 0\n0\n", "DRAT"},
		{"text DRAT, two clauses a line, hint above the id", "5 1 0 7 0\n1 0\n0\n", "DRAT"},
		// 64 such lines and more: LRAT as far as the start shows, so
		// checked as LRAT, which fails, then as DRAT.
		{"text DRAT, LRAT-like for 70 lines", lratLike(70) + "0\n", "DRAT"},
		{"text DRAT, deletion first", "d 1 0\n1 0\n0\n", "DRAT"},
		{"binary LRAT", "a\x0a\x02\x00\x02\x04\x00a\x0c\x00\x0a\x06\x08\x00", "binary LRAT"},
		{"binary LRAT, with a deletion", "a\x0a\x02\x00\x02\x04\x00d\x02\x04\x00a\x0c\x00\x0a\x06\x08\x00", "binary LRAT"},
		{"text FRAT", "o 1 1 2 0\na 5 1 0 l 1 2 0\na 6 0\nf 6 0\n", "FRAT"},
		{"text FRAT, no hints, deletion first", "d 9 1 0\na 5 1 0\nd 5 1 0\na 6 1 0\na 7 0\n", "FRAT"},
		{"text FRAT, added first", "a 5 1 0\na 6 0\n", "FRAT"},
		{"binary FRAT", "o\x01\x02\x04\x00a\x05\x02\x00l\x02\x04\x00a\x06\x00", "binary FRAT"},
		{"binary FRAT, added first", "a\x05\x02\x00l\x02\x04\x00a\x06\x00f\x06\x00", "binary FRAT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := drat.CheckProof(context.Background(), f, strings.NewReader(tc.proof))
			if err != nil {
				t.Fatal(err)
			}
			if res.Format != tc.format {
				t.Errorf("format %q, want %q", res.Format, tc.format)
			}
		})
	}
	// A wrong proof in each format is refused.
	for _, proof := range []string{"2 0\n", "%RUPD32 2 4\n2 0\n", "5 2 0 1 0\n6 0 5 0\n",
		"a\x0a\x04\x00\x02\x00a\x0c\x00\x0a\x00", "o 1 1 2 0\na 5 1 2 0\na 6 0\n", "a\x05\x02\x04\x00a\x06\x00f\x06\x00",
		lratLike(70), "a 5 1 0\n", "a\x05\x02\x00"} {
		if _, err := drat.CheckProof(context.Background(), f, strings.NewReader(proof)); err == nil {
			t.Errorf("proof %q accepted", proof)
		}
	}
}

// lratLike returns k lines of two DRAT lemmas each, "id 1 0 1 0" with
// ids from 5 up, that read as LRAT steps too.
func lratLike(k int) string {
	var b strings.Builder
	for i := range k {
		fmt.Fprintf(&b, "%d 1 0 1 0\n", 5+i)
	}
	return b.String()
}
