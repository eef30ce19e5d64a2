package board

import (
	"errors"
	"strings"
	"testing"
)

func TestAppend(t *testing.T) {
	s := Solution{1, 3, 0, 2}
	want := map[Format]string{
		FormatBoard:  "    1 2 3 4\n 1  . Q . .\n 2  . . . Q\n 3  Q . . .\n 4  . . Q .\n",
		FormatMatrix: "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n",
		FormatCoords: "1:2 2:4 3:1 4:3\n",
		FormatPerm:   "2 4 1 3\n",
		FormatJSON:   `{"n":4,"queens":[1,3,0,2]}` + "\n",
	}
	for _, f := range TextFormats {
		got, err := Append(nil, s, f)
		if err != nil || string(got) != want[f] {
			t.Errorf("Append(%s) = %q, %v, want %q", f, got, err, want[f])
		}
	}
	if _, err := Append(nil, s, "nope"); !errors.Is(err, ErrFormat) {
		t.Errorf("Append(nope) error = %v", err)
	}
}

func TestBoardLabelsForWideBoards(t *testing.T) {
	s := make(Solution, 12)
	for i := range s {
		s[i] = i
	}
	lines := strings.Split(s.String(), "\n")
	if lines[0] != "                       1 1 1" || lines[1] != "     1 2 3 4 5 6 7 8 9 0 1 2" {
		t.Errorf("column labels:\n%s\n%s", lines[0], lines[1])
	}
	if lines[2] != "  1  Q . . . . . . . . . . ." || !strings.HasPrefix(lines[13], " 12  . ") {
		t.Errorf("rows:\n%s\n%s", lines[2], lines[13])
	}
}

func TestRoundTrip(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for _, s := range bruteSolutions(n) {
			for _, f := range TextFormats {
				text, _ := Append(nil, s, f)
				got, err := Parse(f, string(text))
				if err != nil || !got.Equal(s) {
					t.Fatalf("Parse(%s, %q) = %v, %v, want %v", f, text, got, err, s)
				}
			}
		}
	}
	// A board of size 12 (two label lines) and an invalid placement survive too.
	for _, s := range []Solution{{0, 0, 0}, {11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}} {
		for _, f := range TextFormats {
			text, _ := Append(nil, s, f)
			if got, err := Parse(f, string(text)); err != nil || !got.Equal(s) {
				t.Errorf("Parse(%s, %q) = %v, %v", f, text, got, err)
			}
		}
	}
}

func TestParseLenient(t *testing.T) {
	tests := []struct {
		f    Format
		text string
	}{
		{FormatBoard, ".Q..\n...Q\nQ...\n..Q.\n"},
		{FormatBoard, "\n\n. Q . .\n. . . Q\nQ . . .\n. . Q .\n\n"},
		{FormatMatrix, "0100\n0001\n1000\n0010"},
		{FormatPerm, "  2 4 1 3  \n"},
		{FormatCoords, "3:1 1:2 4:3 2:4"},
		{FormatJSON, ` {"queens":[1,3,0,2],"n":4} `},
	}
	for _, tt := range tests {
		if got, err := Parse(tt.f, tt.text); err != nil || !got.Equal(Solution{1, 3, 0, 2}) {
			t.Errorf("Parse(%s, %q) = %v, %v", tt.f, tt.text, got, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		f    Format
		text string
	}{
		{FormatBoard, ""},
		{FormatBoard, ". Q\nQ Q\n"},
		{FormatBoard, ". .\nQ .\n"},
		{FormatBoard, ". Q .\nQ . .\n"},
		{FormatBoard, "Q . X\n"},
		{FormatBoard, "garbage\n. Q\nQ .\n"},
		{FormatBoard, ". Q\nQ .\n 1 2\n"},
		{FormatMatrix, "0 1\n1 2\n"},
		{FormatMatrix, "    1 2\n 1  . Q\n"},
		{FormatPerm, "2 4 1 5"},
		{FormatPerm, "2 4\n1 3"},
		{FormatPerm, ""},
		{FormatPerm, "a b"},
		{FormatCoords, "1:2 1:4"},
		{FormatCoords, "1-2"},
		{FormatCoords, "3:1 1:2"},
		{FormatJSON, `{"n":3,"queens":[1,3,0,2]}`},
		{FormatJSON, `{"n":4,"queens":[1,3,0,4]}`},
		{FormatJSON, `{"n":0,"queens":[]}`},
		{FormatJSON, `{"n":1,"queens":[0],"x":1}`},
		{FormatJSON, `{"n":1,"queens":[0]} {}`},
		{FormatJSON, `[`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.f, tt.text)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line < 1 {
			t.Errorf("Parse(%s, %q) error = %v, want a *ParseError", tt.f, tt.text, err)
		}
	}
	if _, err := ParseFormat("svgx"); !errors.Is(err, ErrFormat) {
		t.Errorf("ParseFormat(svgx) = %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, format := range TextFormats {
		text, _ := Append(nil, Solution{1, 3, 0, 2}, format)
		f.Add(string(format), string(text))
	}
	f.Add("board", "    1 1 1\n")
	f.Fuzz(func(t *testing.T, name, text string) {
		format, err := ParseFormat(name)
		if err != nil {
			return
		}
		s, err := Parse(format, text)
		if err != nil {
			return
		}
		// Whatever parses is a well-shaped placement that round-trips.
		for row, col := range s {
			if col < 0 || col >= len(s) {
				t.Fatalf("Parse(%s, %q) = %v: row %d off the board", format, text, s, row)
			}
		}
		for _, g := range TextFormats {
			again, _ := Append(nil, s, g)
			back, err := Parse(g, string(again))
			if err != nil || !back.Equal(s) {
				t.Fatalf("round trip through %s: %q -> %v, %v", g, again, back, err)
			}
		}
	})
}
