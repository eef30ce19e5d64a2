package board_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/testutil"
)

func TestFENRoundTrip(t *testing.T) {
	for _, s := range testutil.Solutions(8, nil) {
		text, err := board.AppendFEN(nil, s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := board.ParseFEN(string(text))
		if err != nil || !got.Equal(s) {
			t.Fatalf("ParseFEN(%q) = %v, %v, want %v", text, got, err, s)
		}
	}
}

func TestFEN(t *testing.T) {
	if got, _ := board.AppendFEN(nil, board.Solution{0, -1, 7, -1, -1, -1, -1, -1}); string(got) != "Q7/8/7Q/8/8/8/8/8 w - - 0 1\n" {
		t.Errorf("partial board: %q", got)
	}
	if _, err := board.AppendFEN(nil, board.Solution{1, 3, 0, 2}); !errors.Is(err, board.ErrSize) {
		t.Errorf("n=4: error %v, want board.ErrSize", err)
	}
	if _, err := board.AppendFEN(nil, board.Solution{8, 0, 0, 0, 0, 0, 0, 0}); err == nil {
		t.Error("off-board queen: no error")
	}
	bad := []string{
		"",
		"Q7/8/8/8/8/8/8/8",                  // empty ranks
		"Q7/Q7/Q7/Q7/Q7/Q7/Q7",              // 7 ranks
		"Q7/Q7/Q7/Q7/Q7/Q7/Q7/K7",           // a king
		"QQ6/Q7/Q7/Q7/Q7/Q7/Q7/Q7",          // two queens on a rank
		"Q6/Q7/Q7/Q7/Q7/Q7/Q7/Q7",           // a short rank
		"Q8/Q7/Q7/Q7/Q7/Q7/Q7/Q7 w - - 0 1", // a long rank
	}
	for _, text := range bad {
		var pe *board.ParseError
		if s, err := board.ParseFEN(text); !errors.As(err, &pe) || pe.Format != board.FormatFEN {
			t.Errorf("ParseFEN(%q) = %v, %v, want a *board.ParseError", text, s, err)
		}
	}
	// Black queens and a bare placement field are accepted; queens that
	// attack each other are a shape, not a solution.
	if s, err := board.ParseFEN("q7/q7/q7/q7/q7/q7/q7/q7"); err != nil || board.Valid(s) {
		t.Errorf("eight black queens on file a: %v, %v", s, err)
	}
}

func ExampleAppendFEN() {
	fen, _ := board.AppendFEN(nil, board.Solution{0, 4, 7, 5, 2, 6, 1, 3})
	fmt.Print(string(fen))
	// Output:
	// Q7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q4 w - - 0 1
}

func ExampleParseFEN() {
	s, _ := board.ParseFEN("Q7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q4 w - - 0 1")
	fmt.Println(s.Queens()[:2], board.Valid(s))
	// Output:
	// [1:1 2:5] true
}

// FuzzParseFEN: board.ParseFEN never panics; what it accepts is an 8x8 placement
// with one queen per rank, which board.AppendFEN writes and board.ParseFEN reads back.
func FuzzParseFEN(f *testing.F) {
	f.Add("Q7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q4 w - - 0 1")
	f.Add("q7/8/8/8/8/8/8/8")
	f.Add("88Q/Q7/Q7/Q7/Q7/Q7/Q7/Q7")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := board.ParseFEN(text)
		if err != nil {
			var pe *board.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("ParseFEN(%q) error %v is not a *board.ParseError", text, err)
			}
			return
		}
		if len(s) != 8 {
			t.Fatalf("ParseFEN(%q) = %v: %d ranks", text, s, len(s))
		}
		for _, col := range s {
			if col < 0 || col >= 8 {
				t.Fatalf("ParseFEN(%q) = %v: off the board", text, s)
			}
		}
		again, err := board.AppendFEN(nil, s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := board.ParseFEN(string(again))
		if err != nil || !back.Equal(s) {
			t.Fatalf("round trip %q -> %v, %v, want %v", again, back, err, s)
		}
	})
}
