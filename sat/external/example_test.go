package external_test

import (
	"fmt"
	"strings"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat/external"
)

// Read what a SAT solver printed for the 4-queens CNF and turn the model
// into a board.
func ExampleReadResult() {
	out := "c a solver's comment\ns SATISFIABLE\nv -1 2 -3 -4 -5 -6 -7 8\nv 9 -10 -11 -12 -13 -14 15 -16 0\n"
	res, err := external.ReadResult(strings.NewReader(out))
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := encode.Decode(4, res.Model)
	fmt.Println(res.Status, s, err, board.Valid(s))
	// Output:
	// SATISFIABLE [1 3 0 2] <nil> true
}

// ParseCount reads a model counter's answer in any of the usual styles.
func ExampleParseCount() {
	for _, out := range []string{
		"c ganak\ns mc 92\n",
		"s SATISFIABLE\nc Models         : 92\n",
		"# solutions \n92\n# END\n",
	} {
		n, err := external.ParseCount([]byte(out))
		fmt.Println(n, err)
	}
	// Output:
	// 92 <nil>
	// 92 <nil>
	// 92 <nil>
}
