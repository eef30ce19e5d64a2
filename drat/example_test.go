package drat_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/queens-dev/queens/drat"
)

// Check a DRAT proof for a formula held in memory: x1 and x2 cannot be
// equal, and cannot differ either.
func ExampleCheckDRAT() {
	f := &drat.Formula{Vars: 2, Clauses: [][]int{{1, 2}, {-1, -2}, {1, -2}, {-1, 2}}}
	res, err := drat.CheckDRAT(context.Background(), f, strings.NewReader("1 0\n0\n"))
	fmt.Println(res.Lemmas, res.Checked, err)

	// A wrong lemma is named with its line.
	_, err = drat.CheckDRAT(context.Background(), &drat.Formula{Vars: 2, Clauses: [][]int{{1, 2}, {1, -2}}},
		strings.NewReader("-1 0\n0\n"))
	var le *drat.LemmaError
	fmt.Println(errors.As(err, &le), le.Index, le.Line, err)
	// Output:
	// 2 1 <nil>
	// true 1 1 lemma 1 (line 1: -1 0) is not RUP or RAT (RAT pivot -1)
}

// Check reads a DIMACS CNF and a DRAT proof, here a truncated one.
func ExampleCheck() {
	cnf := "p cnf 2 4\n1 2 0\n-1 -2 0\n1 -2 0\n-1 2 0\n"
	_, err := drat.Check(context.Background(), strings.NewReader(cnf), strings.NewReader("1 0\n"))
	fmt.Println(errors.Is(err, drat.ErrNoEmptyClause))
	// Output:
	// true
}

// ConvertDRAT turns a checked DRAT proof into LRAT, which CheckLRAT checks
// from its hints alone.
func ExampleConvertDRAT() {
	f := &drat.Formula{Vars: 2, Clauses: [][]int{{1, 2}, {-1, -2}, {1, -2}, {-1, 2}}}
	var lrat strings.Builder
	if _, err := drat.ConvertDRAT(context.Background(), f, strings.NewReader("1 0\n0\n"), &lrat); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fmt.Print(lrat.String())
	res, err := drat.CheckLRAT(context.Background(), f, strings.NewReader(lrat.String()))
	fmt.Println(res.Checked, err)
	// Output:
	// 5 1 0 1 3 0
	// 6 0 5 2 4 0
	// 2 <nil>
}
