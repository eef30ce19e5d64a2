package sat_test

import (
	"context"
	"testing"
	"time"

	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat"
)

// TestModel: gini's model of any formula satisfies it, however large the
// variable numbers its header claims; an unsatisfiable formula (the
// pigeonhole of 3 into 2, an empty clause) has none; an ended context is
// its error.
func TestModel(t *testing.T) {
	ctx := context.Background()
	for _, cnf := range []*encode.CNF{
		{Vars: 3, Clauses: [][]int{{1, 2}, {-1, 3}, {-3}}},
		{Vars: 1<<31 - 2, Clauses: [][]int{{1, 1<<31 - 2}, {-1}}},
		{Vars: 5},
	} {
		model, err := sat.Model(ctx, cnf)
		if err != nil || model == nil {
			t.Fatalf("%v: model %v, %v; want one", cnf.Clauses, model, err)
		}
		if ok, clause := cnf.Satisfies(model); !ok {
			t.Errorf("%v: gini's model %v falsifies clause %d", cnf.Clauses, model, clause+1)
		}
	}
	php := &encode.CNF{Vars: 6, Clauses: [][]int{{1, 2}, {3, 4}, {5, 6}, {-1, -3}, {-1, -5}, {-3, -5}, {-2, -4}, {-2, -6}, {-4, -6}}}
	empty := &encode.CNF{Vars: 2, Clauses: [][]int{{1, 2}, {}}}
	for _, cnf := range []*encode.CNF{php, empty} {
		if model, err := sat.Model(ctx, cnf); model != nil || err != nil {
			t.Errorf("%v: model %v, %v; want none", cnf.Clauses, model, err)
		}
	}
	big, _ := encode.Queens(60, encode.Pairwise, nil)
	done, cancel := context.WithTimeout(ctx, time.Nanosecond)
	defer cancel()
	<-done.Done()
	if _, err := sat.Model(done, big); err == nil {
		t.Error("an ended context: no error")
	}
}
