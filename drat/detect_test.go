package drat_test

import (
	"context"
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
	for _, proof := range []string{"2 0\n", "%RUPD32 2 4\n2 0\n", "5 2 0 1 0\n6 0 5 0\n"} {
		if _, err := drat.CheckProof(context.Background(), f, strings.NewReader(proof)); err == nil {
			t.Errorf("proof %q accepted", proof)
		}
	}
}
