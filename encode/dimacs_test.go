package encode_test

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
)

func TestReadDIMACS(t *testing.T) {
	tests := []struct {
		name, in string
		line     int   // 0: no error
		want     error // wrapped by the ParseError, if not nil
		clauses  [][]int
	}{
		{"minimal", "p cnf 2 2\n1 -2 0\n2 0\n", 0, nil, [][]int{{1, -2}, {2}}},
		{"comments blanks crlf tabs", "c hi\r\n\np cnf 3 1\r\nc mid\n1\t-3  0\n", 0, nil, [][]int{{1, -3}}},
		{"clause over lines", "p cnf 3 2\n1 2\n3 0 -1 0\n", 0, nil, [][]int{{1, 2, 3}, {-1}}},
		{"empty clause", "p cnf 0 1\n0\n", 0, nil, [][]int{{}}},
		{"empty formula", "p cnf 0 0\n", 0, nil, [][]int{}},
		{"no header", "1 2 0\n", 1, encode.ErrHeader, nil},
		{"empty input", "", 1, encode.ErrHeader, nil},
		{"two headers", "p cnf 1 1\np cnf 1 1\n1 0\n", 2, encode.ErrHeader, nil},
		{"bad header", "p cnf x 1\n", 1, encode.ErrHeader, nil},
		{"bad header words", "p dnf 1 1\n", 1, encode.ErrHeader, nil},
		{"negative count", "p cnf 1 -1\n", 1, encode.ErrHeader, nil},
		{"absurd vars", "p cnf 99999999999 1\n1 0\n", 1, encode.ErrHeader, nil},
		{"absurd clauses, few given", "p cnf 2 99999999999\n1 0\n", 2, encode.ErrCount, nil},
		{"too few clauses", "p cnf 2 3\n1 0\n2 0\n", 3, encode.ErrCount, nil},
		{"too many clauses", "p cnf 2 1\n1 0\n2 0\n", 3, encode.ErrCount, nil},
		{"unterminated", "p cnf 2 2\n1 0\n2\n", 3, nil, nil},
		{"literal out of range", "p cnf 2 1\n1 -3 0\n", 2, encode.ErrLiteral, nil},
		{"not a number", "p cnf 2 1\n1 x 0\n", 2, encode.ErrLiteral, nil},
		{"huge literal", "p cnf 2 1\n123456789012345678901234 0\n", 2, encode.ErrLiteral, nil},
		{"min int literal", "p cnf 2 1\n-9223372036854775808 0\n", 2, encode.ErrLiteral, nil},
		{"clause before header", "c x\n1 0\np cnf 1 1\n", 2, encode.ErrHeader, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cnf, err := encode.ReadDIMACS(strings.NewReader(tt.in))
			if tt.line == 0 {
				if err != nil {
					t.Fatalf("ReadDIMACS: %v", err)
				}
				if !slices.EqualFunc(cnf.Clauses, tt.clauses, slices.Equal) {
					t.Errorf("clauses = %v, want %v", cnf.Clauses, tt.clauses)
				}
				return
			}
			var pe *encode.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("ReadDIMACS = %v, want a *ParseError", err)
			}
			if pe.Line != tt.line || tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("ReadDIMACS = %v (line %d), want line %d wrapping %v", err, pe.Line, tt.line, tt.want)
			}
		})
	}
}

// FuzzReadDIMACS: the reader never panics, and what it accepts it writes
// back and reads again unchanged.
func FuzzReadDIMACS(f *testing.F) {
	f.Add("p cnf 2 2\n1 -2 0\n2 0\n")
	f.Add("c x\np cnf 3 1\n1 2\n3 0\n")
	f.Add("p cnf 0 1\n0\n")
	f.Add("p cnf 9999999999 1\n1 0")
	f.Fuzz(func(t *testing.T, in string) {
		cnf, err := encode.ReadDIMACS(strings.NewReader(in))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := encode.WriteDIMACS(&buf, cnf); err != nil {
			t.Fatal(err)
		}
		back, err := encode.ReadDIMACS(&buf)
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, buf.String())
		}
		if back.Vars != cnf.Vars || !slices.EqualFunc(back.Clauses, cnf.Clauses, slices.Equal) {
			t.Fatalf("round trip changed the CNF")
		}
	})
}

func TestDecode(t *testing.T) {
	four := encode.Model(board.Solution{1, 3, 0, 2})
	tests := []struct {
		name  string
		n     int
		model []int
		want  error
	}{
		{"ok", 4, four, nil},
		{"ok with auxiliaries", 4, append(slices.Clone(four), 17, -18), nil},
		{"wrong n, smaller", 5, four, encode.ErrModelSize},
		{"missing variable", 4, four[1:], encode.ErrModelSize},
		{"two in a row", 4, append([]int{1}, four[1:]...), encode.ErrNotPlacement},
		{"empty row", 4, append([]int{-1, -2, -3, -4}, four[4:]...), encode.ErrNotPlacement},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := encode.Decode(tt.n, tt.model)
			if tt.want == nil {
				if err != nil || !s.Equal(board.Solution{1, 3, 0, 2}) {
					t.Errorf("Decode = %v, %v", s, err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("Decode = %v, want %v", err, tt.want)
			}
		})
	}
	_, err := encode.Decode(4, append([]int{1}, four[1:]...))
	if want := "queens at 1:1 and 1:2 share a row"; !strings.Contains(err.Error(), want) {
		t.Errorf("Decode error %q does not say %q", err, want)
	}
}

// FuzzDecode: any list of literals decodes to a placement with one queen
// per row that re-encodes to the same board literals, or to an error.
func FuzzDecode(f *testing.F) {
	f.Add(4, []byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, n int, raw []byte) {
		n = 1 + (n%8+8)%8
		model := make([]int, 0, len(raw))
		for i, b := range raw {
			lit := int(b%byte(n*n+2)) + 1
			if i%2 == 1 {
				lit = -lit
			}
			model = append(model, lit)
		}
		s, err := encode.Decode(n, model)
		if err != nil {
			return
		}
		if len(s) != n {
			t.Fatalf("Decode gave %d rows for n=%d", len(s), n)
		}
		back, err := encode.Decode(n, encode.Model(s))
		if err != nil || !back.Equal(s) {
			t.Fatalf("Decode(Model(%v)) = %v, %v", s, back, err)
		}
	})
}

// TestReadDIMACSHeaderClaims: a header's counts cost nothing. A tiny file
// claiming 10^12 variables is refused before anything is allocated for
// them, and one claiming the most variables and clauses allowed reads in a
// few kilobytes.
func TestReadDIMACSHeaderClaims(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"p cnf 1000000000000 1\n1 0\n", encode.ErrHeader},
		{fmt.Sprintf("p cnf %d 1000000000000000\n1 -2 0\n", encode.MaxVars), encode.ErrCount},
		{fmt.Sprintf("p cnf %d 1\n%d 0\n", encode.MaxVars, encode.MaxVars), nil},
	}
	for _, tt := range tests {
		var err error
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		allocs := testing.AllocsPerRun(10, func() { _, err = encode.ReadDIMACS(strings.NewReader(tt.in)) })
		runtime.ReadMemStats(&after)
		if !errors.Is(err, tt.want) {
			t.Errorf("ReadDIMACS(%q) = %v, want %v", tt.in, err, tt.want)
		}
		// 11 runs (AllocsPerRun warms up once): the reader's 64 KiB
		// buffer each, and a few small slices.
		perRun := (after.TotalAlloc - before.TotalAlloc) / 11
		if perRun > 128<<10 || allocs > 30 {
			t.Errorf("ReadDIMACS(%q): %d bytes and %.0f allocations per run; want at most 128 KiB, 30", tt.in, perRun, allocs)
		}
	}
}
