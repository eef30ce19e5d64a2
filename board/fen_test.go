package board

import (
	"errors"
	"fmt"
	"testing"
)

func TestFENRoundTrip(t *testing.T) {
	for _, s := range bruteSolutions(8) {
		text, err := AppendFEN(nil, s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseFEN(string(text))
		if err != nil || !got.Equal(s) {
			t.Fatalf("ParseFEN(%q) = %v, %v, want %v", text, got, err, s)
		}
	}
}

func TestFEN(t *testing.T) {
	if got, _ := AppendFEN(nil, Solution{0, -1, 7, -1, -1, -1, -1, -1}); string(got) != "Q7/8/7Q/8/8/8/8/8 w - - 0 1\n" {
		t.Errorf("partial board: %q", got)
	}
	if _, err := AppendFEN(nil, Solution{1, 3, 0, 2}); !errors.Is(err, ErrSize) {
		t.Errorf("n=4: error %v, want ErrSize", err)
	}
	if _, err := AppendFEN(nil, Solution{8, 0, 0, 0, 0, 0, 0, 0}); err == nil {
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
		var pe *ParseError
		if s, err := ParseFEN(text); !errors.As(err, &pe) || pe.Format != FormatFEN {
			t.Errorf("ParseFEN(%q) = %v, %v, want a *ParseError", text, s, err)
		}
	}
	// Black queens and a bare placement field are accepted; queens that
	// attack each other are a shape, not a solution.
	if s, err := ParseFEN("q7/q7/q7/q7/q7/q7/q7/q7"); err != nil || Valid(s) {
		t.Errorf("eight black queens on file a: %v, %v", s, err)
	}
}

func ExampleAppendFEN() {
	fen, _ := AppendFEN(nil, Solution{0, 4, 7, 5, 2, 6, 1, 3})
	fmt.Print(string(fen))
	// Output:
	// Q7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q4 w - - 0 1
}

func ExampleParseFEN() {
	s, _ := ParseFEN("Q7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q4 w - - 0 1")
	fmt.Println(s.Queens()[:2], Valid(s))
	// Output:
	// [1:1 2:5] true
}

// FuzzParseFEN: ParseFEN never panics; what it accepts is an 8x8 placement
// with one queen per rank, which AppendFEN writes and ParseFEN reads back.
func FuzzParseFEN(f *testing.F) {
	f.Add("Q7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q4 w - - 0 1")
	f.Add("q7/8/8/8/8/8/8/8")
	f.Add("88Q/Q7/Q7/Q7/Q7/Q7/Q7/Q7")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseFEN(text)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("ParseFEN(%q) error %v is not a *ParseError", text, err)
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
		again, err := AppendFEN(nil, s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseFEN(string(again))
		if err != nil || !back.Equal(s) {
			t.Fatalf("round trip %q -> %v, %v, want %v", again, back, err, s)
		}
	})
}
