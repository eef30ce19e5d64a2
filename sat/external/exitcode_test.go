package external_test

import (
	"context"
	"errors"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat/external"
)

// TestExternalExitStatus30 covers clasp, which exits 30 (satisfiable, and
// the search space exhausted) when the formula has exactly one model.
func TestExternalExitStatus30(t *testing.T) {
	cnf, _ := encode.Queens(1, "pairwise", nil)
	s, err := external.New(cnf, script(t, "echo 's SATISFIABLE'; echo 'v 1 0'; exit 30"))
	if err != nil {
		t.Fatal(err)
	}
	sol, err := s.Next(context.Background())
	if err != nil || !board.Valid(sol) {
		t.Errorf("Next = %v, %v; want the one solution", sol, err)
	}
}

func TestNewErrors(t *testing.T) {
	cnf, _ := encode.Queens(4, "pairwise", nil)
	for _, cmd := range []string{"", "no-such-solver-xyz -q"} {
		if _, err := external.New(cnf, cmd); !errors.Is(err, external.ErrSolverNotFound) {
			t.Errorf("New(%q) = %v, want ErrSolverNotFound", cmd, err)
		}
	}
}
