package compare_test

import (
	"context"
	"errors"
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
	cnf, err := encode.Queens(8, encode.Seq, nil)
	if err != nil {
		t.Fatal(err)
	}
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

// TestRefereeModelSize: a formula beyond the model search's limits is
// refused before gini starts (its memory is a few hundred bytes a
// variable), whatever the header's claim; within them it is searched.
func TestRefereeModelSize(t *testing.T) {
	ctx := context.Background()
	wide := &encode.CNF{Vars: 1 << 30}
	for v := 1; v <= compare.ModelMaxVars+1; v++ {
		wide.Clauses = append(wide.Clauses, []int{v * 7})
	}
	if _, err := (compare.Referee{}).Model(ctx, wide); !errors.Is(err, compare.ErrModelSize) {
		t.Errorf("%d variables used: %v, want ErrModelSize", compare.ModelMaxVars+1, err)
	}
	long := &encode.CNF{Vars: 3, Clauses: make([][]int, compare.ModelMaxLiterals/2+1)}
	for i := range long.Clauses {
		long.Clauses[i] = []int{1, -2}
	}
	if _, err := (compare.Referee{}).Model(ctx, long); !errors.Is(err, compare.ErrModelSize) {
		t.Errorf("%d literals: %v, want ErrModelSize", compare.ModelMaxLiterals+2, err)
	}
	wide.Clauses = wide.Clauses[:compare.ModelMaxVars]
	if model, err := (compare.Referee{}).Model(ctx, wide); err != nil || model == nil {
		t.Errorf("%d variables used of 2^30: model %v, %v; want one", compare.ModelMaxVars, model != nil, err)
	}
}
