package board

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

// Counts is one row of the published table: the number of solutions on an
// n×n board (OEIS A000170) and the number of them that are distinct up to
// rotation and reflection (OEIS A002562).
type Counts struct {
	N      int
	Total  uint64
	Unique uint64
}

//go:embed counts.tsv
var countsTSV string

var published = mustParseCounts(countsTSV)

// Published returns the published counts for n = 1..27 in order of n. The
// caller may modify the returned slice.
func Published() []Counts { return append([]Counts(nil), published...) }

// Known returns the published counts for n, and false if n is not in the
// table (n < 1 or n > 27).
func Known(n int) (Counts, bool) {
	if n < 1 || n > len(published) {
		return Counts{}, false
	}
	return published[n-1], true
}

// mustParseCounts reads the embedded table; a malformed table is a build
// defect, caught by the package's tests, so it panics.
func mustParseCounts(text string) []Counts {
	var out []Counts
	for i, line := range strings.Split(text, "\n") {
		if line == "" || line[0] == '#' || strings.HasPrefix(line, "n\t") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			panic(fmt.Sprintf("board: counts.tsv line %d: want 3 fields", i+1))
		}
		n, err1 := strconv.Atoi(f[0])
		t, err2 := strconv.ParseUint(f[1], 10, 64)
		u, err3 := strconv.ParseUint(f[2], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil || n != len(out)+1 {
			panic(fmt.Sprintf("board: counts.tsv line %d: bad row %q", i+1, line))
		}
		out = append(out, Counts{n, t, u})
	}
	return out
}
