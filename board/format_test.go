package board_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/testutil"
)

func TestAppend(t *testing.T) {
	s := board.Solution{1, 3, 0, 2}
	want := map[board.Format]string{
		board.FormatBoard:  "    1 2 3 4\n 1  . Q . .\n 2  . . . Q\n 3  Q . . .\n 4  . . Q .\n",
		board.FormatMatrix: "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n",
		board.FormatCoords: "1:2 2:4 3:1 4:3\n",
		board.FormatPerm:   "2 4 1 3\n",
		board.FormatJSON:   `{"n":4,"queens":[1,3,0,2]}` + "\n",
	}
	for _, f := range board.TextFormats() {
		got, err := board.Append(nil, s, f)
		if err != nil || string(got) != want[f] {
			t.Errorf("Append(%s) = %q, %v, want %q", f, got, err, want[f])
		}
	}
	if _, err := board.Append(nil, s, "nope"); !errors.Is(err, board.ErrFormat) {
		t.Errorf("Append(nope) error = %v", err)
	}
}

func TestBoardLabelsForWideBoards(t *testing.T) {
	s := make(board.Solution, 12)
	for i := range s {
		s[i] = i
	}
	lines := strings.Split(s.Board(), "\n")
	if lines[0] != "                       1 1 1" || lines[1] != "     1 2 3 4 5 6 7 8 9 0 1 2" {
		t.Errorf("column labels:\n%s\n%s", lines[0], lines[1])
	}
	if lines[2] != "  1  Q . . . . . . . . . . ." || !strings.HasPrefix(lines[13], " 12  . ") {
		t.Errorf("rows:\n%s\n%s", lines[2], lines[13])
	}
}

func TestRoundTrip(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for _, s := range testutil.Solutions(n, nil) {
			for _, f := range board.TextFormats() {
				text, _ := board.Append(nil, s, f)
				got, err := board.Parse(f, string(text))
				if err != nil || !got.Equal(s) {
					t.Fatalf("Parse(%s, %q) = %v, %v, want %v", f, text, got, err, s)
				}
			}
		}
	}
	// A board of size 12 (two label lines) and an invalid placement survive too.
	for _, s := range []board.Solution{{0, 0, 0}, {11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}} {
		for _, f := range board.TextFormats() {
			text, _ := board.Append(nil, s, f)
			if got, err := board.Parse(f, string(text)); err != nil || !got.Equal(s) {
				t.Errorf("Parse(%s, %q) = %v, %v", f, text, got, err)
			}
		}
	}
}

func TestParseLenient(t *testing.T) {
	tests := []struct {
		f    board.Format
		text string
	}{
		{board.FormatBoard, ".Q..\n...Q\nQ...\n..Q.\n"},
		{board.FormatBoard, "\n\n. Q . .\n. . . Q\nQ . . .\n. . Q .\n\n"},
		{board.FormatMatrix, "0100\n0001\n1000\n0010"},
		{board.FormatPerm, "  2 4 1 3  \n"},
		{board.FormatCoords, "3:1 1:2 4:3 2:4"},
		{board.FormatJSON, ` {"queens":[1,3,0,2],"n":4} `},
	}
	for _, tt := range tests {
		if got, err := board.Parse(tt.f, tt.text); err != nil || !got.Equal(board.Solution{1, 3, 0, 2}) {
			t.Errorf("Parse(%s, %q) = %v, %v", tt.f, tt.text, got, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		f    board.Format
		text string
	}{
		{board.FormatBoard, ""},
		{board.FormatBoard, ". Q\nQ Q\n"},
		{board.FormatBoard, ". .\nQ .\n"},
		{board.FormatBoard, ". Q .\nQ . .\n"},
		{board.FormatBoard, "Q . X\n"},
		{board.FormatBoard, "garbage\n. Q\nQ .\n"},
		{board.FormatBoard, ". Q\nQ .\n 1 2\n"},
		{board.FormatMatrix, "0 1\n1 2\n"},
		{board.FormatMatrix, "    1 2\n 1  . Q\n"},
		{board.FormatPerm, "2 4 1 5"},
		{board.FormatPerm, "2 4\n1 3"},
		{board.FormatPerm, ""},
		{board.FormatPerm, "a b"},
		{board.FormatCoords, "1:2 1:4"},
		{board.FormatCoords, "1-2"},
		{board.FormatCoords, "3:1 1:2"},
		{board.FormatJSON, `{"n":3,"queens":[1,3,0,2]}`},
		{board.FormatJSON, `{"n":4,"queens":[1,3,0,4]}`},
		{board.FormatJSON, `{"n":0,"queens":[]}`},
		{board.FormatJSON, `{"n":1,"queens":[0],"x":1}`},
		{board.FormatJSON, `{"n":1,"queens":[0]} {}`},
		{board.FormatJSON, `[`},
	}
	for _, tt := range tests {
		_, err := board.Parse(tt.f, tt.text)
		var pe *board.ParseError
		if !errors.As(err, &pe) || pe.Line < 1 {
			t.Errorf("Parse(%s, %q) error = %v, want a *board.ParseError", tt.f, tt.text, err)
		}
	}
	if _, err := board.ParseFormat("svgx"); !errors.Is(err, board.ErrFormat) {
		t.Errorf("ParseFormat(svgx) = %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, format := range board.TextFormats() {
		text, _ := board.Append(nil, board.Solution{1, 3, 0, 2}, format)
		f.Add(string(format), string(text))
	}
	f.Add("board", "    1 1 1\n")
	f.Fuzz(func(t *testing.T, name, text string) {
		format, err := board.ParseFormat(name)
		if err != nil {
			return
		}
		s, err := board.Parse(format, text)
		if err != nil {
			return
		}
		// Whatever parses is a well-shaped placement that round-trips.
		for row, col := range s {
			if col < 0 || col >= len(s) {
				t.Fatalf("Parse(%s, %q) = %v: row %d off the board", format, text, s, row)
			}
		}
		for _, g := range board.TextFormats() {
			again, _ := board.Append(nil, s, g)
			back, err := board.Parse(g, string(again))
			if err != nil || !back.Equal(s) {
				t.Fatalf("round trip through %s: %q -> %v, %v", g, again, back, err)
			}
		}
	})
}
