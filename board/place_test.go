package board

import (
	"errors"
	"testing"
)

func TestParseQueen(t *testing.T) {
	good := map[string]Queen{"1:1": {0, 0}, "3:7": {2, 6}, " 10 : 2 ": {9, 1}}
	for in, want := range good {
		if got, err := ParseQueen(in); err != nil || got != want {
			t.Errorf("ParseQueen(%q) = %v, %v, want %v", in, got, err, want)
		}
		if q, _ := ParseQueen(in); q.String() != trimAll(in) {
			t.Errorf("ParseQueen(%q).String() = %q", in, q.String())
		}
	}
	for _, in := range []string{"", "x", "1", "1:", ":1", "0:1", "1:0", "-1:2", "a:b", "1:2:3", "1.5:2"} {
		if _, err := ParseQueen(in); !errors.Is(err, ErrPlacement) {
			t.Errorf("ParseQueen(%q) error = %v, want ErrPlacement", in, err)
		}
	}
}

func trimAll(s string) string {
	out := []byte{}
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' {
			out = append(out, s[i])
		}
	}
	return string(out)
}

func TestCheckPlacement(t *testing.T) {
	tests := []struct {
		n   int
		qs  []Queen
		bad bool
	}{
		{8, nil, false},
		{8, []Queen{{0, 0}, {1, 2}}, false},
		{8, []Queen{{0, 0}, {0, 0}}, false}, // the same queen twice
		{8, []Queen{{8, 8}}, true},
		{8, []Queen{{0, 0}, {1, 1}}, true},
		{8, []Queen{{0, 1}, {1, 0}}, true},
		{8, []Queen{{0, 0}, {5, 0}}, true},
		{8, []Queen{{0, 0}, {0, 5}}, true},
		{3, []Queen{{0, 0}, {1, 2}}, false}, // no completion, but not an error
	}
	for _, tt := range tests {
		err := CheckPlacement(tt.n, tt.qs)
		if (err != nil) != tt.bad || (err != nil && !errors.Is(err, ErrPlacement)) {
			t.Errorf("CheckPlacement(%d, %v) = %v, want error %v", tt.n, tt.qs, err, tt.bad)
		}
	}
}

func TestContains(t *testing.T) {
	s := Solution{1, 3, 0, 2}
	if !s.Contains([]Queen{{0, 1}, {3, 2}}) || s.Contains([]Queen{{0, 0}}) || s.Contains([]Queen{{4, 0}}) {
		t.Error("Contains gives wrong answers")
	}
	if qs := s.Queens(); len(qs) != 4 || !s.Contains(qs) {
		t.Errorf("Queens() = %v", qs)
	}
}

// FuzzParseQueen: --place never panics, and what it accepts is a queen
// on the board's quarter plane that prints and parses back unchanged.
func FuzzParseQueen(f *testing.F) {
	for _, s := range []string{"1:1", " 10 : 2 ", "0:1", "1:2:3", "-1:2", "+3:4", "9223372036854775807:1", "1:99999999999999999999", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		q, err := ParseQueen(text)
		if err != nil {
			if !errors.Is(err, ErrPlacement) {
				t.Fatalf("ParseQueen(%q) error %v does not wrap ErrPlacement", text, err)
			}
			return
		}
		if q.Row < 0 || q.Col < 0 {
			t.Fatalf("ParseQueen(%q) = %+v: negative", text, q)
		}
		back, err := ParseQueen(q.String())
		if err != nil || back != q {
			t.Fatalf("ParseQueen(%q) = %v, %v; from ParseQueen(%q) = %+v", q.String(), back, err, text, q)
		}
		if err := CheckPlacement(8, []Queen{q}); err != nil && !errors.Is(err, ErrPlacement) {
			t.Fatalf("CheckPlacement(8, %v) = %v", q, err)
		}
	})
}
