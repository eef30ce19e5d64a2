package main_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat"
)

// Example is the code of docs/library.md, "Using queens as a Go library"
// (TestREADMELibrary keeps the two the same): solve natively,
// count, solve as SAT and cross-check the two engines.
func Example() {
	ctx := context.Background()

	// The backtracker: the first solution of the 8×8 board, drawn.
	s, _, err := backtrack.First(ctx, 8, backtrack.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Print(s.Board())

	// The bitboard counter: all solutions and the distinct ones.
	res, err := backtrack.Count(ctx, 10, backtrack.CountOptions{Unique: true})
	fmt.Println(res.Total, res.Unique, err)

	// The same puzzle as CNF, solved by gini; every solution streams with
	// its error, and board.Valid checks it independently.
	cnf, err := encode.Queens(6, "pairwise", []board.Queen{{Row: 0, Col: 1}})
	if err != nil {
		panic(err)
	}
	for sol, err := range sat.All(ctx, cnf) {
		fmt.Println(sol, err, board.Valid(sol))
	}

	// Both engines, every solution of n = 7, compared exactly.
	d, err := compare.Sets(backtrack.All(ctx, 7, backtrack.Options{}), sat.All(ctx, mustEncode(7)))
	fmt.Println(d.Empty(), err)
	// Output:
	//     1 2 3 4 5 6 7 8
	//  1  Q . . . . . . .
	//  2  . . . . Q . . .
	//  3  . . . . . . . Q
	//  4  . . . . . Q . .
	//  5  . . Q . . . . .
	//  6  . . . . . . Q .
	//  7  . Q . . . . . .
	//  8  . . . Q . . . .
	// 724 92 <nil>
	// [1 3 5 0 2 4] <nil> true
	// true <nil>
}

func mustEncode(n int) *encode.CNF {
	cnf, err := encode.Queens(n, "pairwise", nil)
	if err != nil {
		panic(err)
	}
	return cnf
}

// TestREADMELibrary checks that docs/library.md, "Using queens as a Go
// library" (the README links it), shows the code of Example as it is.
func TestREADMELibrary(t *testing.T) {
	page, err := os.ReadFile("docs/library.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(page), "# Using queens as a Go library\n")
	_, code, ok2 := strings.Cut(section, "```go\n")
	code, _, ok3 := strings.Cut(code, "```\n")
	if !ok || !ok2 || !ok3 {
		t.Fatal(`docs/library.md has no "# Using queens as a Go library" page with a go block`)
	}
	if !strings.Contains(string(src), code) {
		t.Errorf("docs/library.md's example is not the code of Example in example_test.go; it shows:\n%s", code)
	}
}
