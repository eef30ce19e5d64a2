package compare_test

import (
	"context"
	"testing"
	"time"

	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/encode"
)

// TestRefereeModel: the referee's model of any formula satisfies it and
// refutes an UNSATISFIABLE answer about it; of an unsatisfiable formula
// there is none, and gini's UNSATISFIABLE confirms nothing.
func TestRefereeModel(t *testing.T) {
	ctx := context.Background()
	ref := compare.Referee{Budget: 5 * time.Second}
	cnf, _ := encode.Queens(8, encode.Seq, nil)
	cnf.Clauses = cnf.Clauses[1:] // weaker than the puzzle: still satisfiable
	model, err := ref.Model(ctx, cnf)
	if err != nil || model == nil {
		t.Fatalf("a satisfiable formula: model %v, %v", model, err)
	}
	if ok, clause := cnf.Satisfies(model); !ok {
		t.Errorf("the referee's model falsifies clause %d", clause+1)
	}
	for v := 1; v <= 8; v++ { // no queen in the first row
		cnf.Clauses = append(cnf.Clauses, []int{-v})
	}
	if model, err := ref.Model(ctx, cnf); model != nil || err != nil {
		t.Errorf("an unsatisfiable formula: model %v, %v; want none", model, err)
	}
}
