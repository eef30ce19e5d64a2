package sat_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/testutil"
	"github.com/queens-dev/queens/sat"
)

// TestModelOf: for every encoding, with and without pre-placed queens,
// the model ModelOf gives for each solution lists
// every variable once, in order, satisfies every clause, places the
// solution's queens, and is the only model with that board (the CNF, the
// board's units and the model blocked has none); a board that is no
// solution has none.
func TestModelOf(t *testing.T) {
	ctx := context.Background()
	for _, enc := range encode.Encodings() {
		for _, tc := range []struct {
			n     int
			place []board.Queen
		}{{1, nil}, {4, nil}, {5, nil}, {6, []board.Queen{{Row: 0, Col: 1}}}, {8, nil}} {
			what := fmt.Sprintf("%s n=%d place %v", enc, tc.n, tc.place)
			cnf, err := encode.Queens(tc.n, enc, tc.place)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range testutil.Solutions(tc.n, tc.place) {
				if tc.n == 8 && i%10 != 0 {
					continue // every tenth of the 92
				}
				model, err := sat.ModelOf(ctx, cnf, s)
				if err != nil || len(model) != cnf.Vars {
					t.Fatalf("%s %v: %d literals, %v; want %d", what, s, len(model), err, cnf.Vars)
				}
				for v, lit := range model {
					if lit != v+1 && lit != -(v+1) {
						t.Fatalf("%s %v: literal %d in place %d", what, s, lit, v+1)
					}
				}
				if ok, c := cnf.Satisfies(model); !ok {
					t.Errorf("%s %v: clause %d false", what, s, c+1)
				}
				if got, err := encode.Decode(tc.n, model); err != nil || !slices.Equal(got, s) {
					t.Errorf("%s: the model of %v decodes to %v, %v", what, s, got, err)
				}
				other := *cnf
				other.Clauses = slices.Clip(cnf.Clauses)
				for _, lit := range encode.Model(s) {
					other.Clauses = append(other.Clauses, []int{lit})
				}
				block := make([]int, len(model))
				for i, lit := range model {
					block[i] = -lit
				}
				other.Clauses = append(other.Clauses, block)
				if m, err := sat.Model(ctx, &other); err != nil || m != nil {
					t.Errorf("%s %v: a second model with the same board: %v, %v", what, s, m, err)
				}
			}
			if tc.n >= 4 {
				bad := make(board.Solution, tc.n) // every queen in column 0
				if m, err := sat.ModelOf(ctx, cnf, bad); err != nil || m != nil {
					t.Errorf("%s: ModelOf(no solution) = %v, %v; want nil", what, m, err)
				}
			}
		}
	}
}
