package draw

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/testutil"
)

// svgQueens parses an SVG as XML and returns its size and the square
// (0-based row, col) of each queen path, with whether it is marked placed.
func svgQueens(t *testing.T, data []byte, l layout) (w, h int, queens map[board.Queen]bool) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	queens = map[board.Queen]bool{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not XML: %v\n%s", err, data)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := map[string]string{}
		for _, a := range el.Attr {
			attr[a.Name.Local] = a.Value
		}
		switch {
		case el.Name.Local == "svg":
			w, _ = strconv.Atoi(attr["width"])
			h, _ = strconv.Atoi(attr["height"])
		case el.Name.Local == "path" && strings.HasPrefix(attr["class"], "queen"):
			var x, y float64
			if _, err := fmt.Sscanf(attr["d"], "M%g %g", &x, &y); err != nil {
				t.Fatalf("queen path %q: %v", attr["d"], err)
			}
			q := board.Queen{Row: (int(y) - l.top) / l.sq, Col: (int(x) - l.left) / l.sq}
			if _, dup := queens[q]; dup {
				t.Fatalf("two queens drawn on %v", q)
			}
			queens[q] = attr["class"] == "queen placed"
		}
	}
	return w, h, queens
}

func TestWriteSVG(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for i, s := range testutil.Solutions(n, nil) {
			t.Run(fmt.Sprintf("n=%d/%d", n, i), func(t *testing.T) {
				opt := &Options{Attacks: i%2 == 0, Place: []board.Queen{{Row: 0, Col: s[0]}}}
				var buf bytes.Buffer
				if err := WriteSVG(&buf, s, opt); err != nil {
					t.Fatal(err)
				}
				l, _ := newLayout(n, opt)
				w, h, queens := svgQueens(t, buf.Bytes(), l)
				img, _ := Image(s, opt)
				if w != img.Rect.Dx() || h != img.Rect.Dy() {
					t.Errorf("SVG is %dx%d, PNG %v", w, h, img.Rect)
				}
				if len(queens) != n {
					t.Errorf("%d queens drawn, want %d", len(queens), n)
				}
				for row, col := range s {
					placed, ok := queens[board.Queen{Row: row, Col: col}]
					if !ok || placed != (row == 0) {
						t.Errorf("queen %d:%d drawn %v, placed %v", row+1, col+1, ok, placed)
					}
				}
			})
		}
	}
}

func TestWriteSVGPartialAndBig(t *testing.T) {
	// A search in progress: rows without a queen are empty.
	var buf bytes.Buffer
	if err := WriteSVG(&buf, board.Solution{1, -1, -1, -1}, &Options{Tried: []board.Queen{{Row: 1, Col: 0}}}); err != nil {
		t.Fatal(err)
	}
	l, _ := newLayout(4, &Options{})
	if _, _, queens := svgQueens(t, buf.Bytes(), l); len(queens) != 1 {
		t.Errorf("partial board: %d queens, want 1", len(queens))
	}
	// The biggest board still comes out as well-formed XML with every queen.
	s := make(board.Solution, MaxN)
	for row := range s {
		s[row] = row
	}
	buf.Reset()
	if err := WriteSVG(&buf, s, nil); err != nil {
		t.Fatal(err)
	}
	l, _ = newLayout(MaxN, &Options{})
	if w, _, queens := svgQueens(t, buf.Bytes(), l); len(queens) != MaxN || w > 800 {
		t.Errorf("n=%d: %d queens, width %d", MaxN, len(queens), w)
	}
}

func TestImageErrors(t *testing.T) {
	tests := []struct {
		name string
		s    board.Solution
		opt  Options
		size bool // wraps board.ErrSize
	}{
		{"too big", make(board.Solution, MaxN+1), Options{}, true},
		{"empty", board.Solution{}, Options{}, true},
		{"off board", board.Solution{0, 5}, Options{}, false},
		{"square too small", board.Solution{0}, Options{Square: 1}, false},
		{"square too big", board.Solution{0}, Options{Square: 129}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errSVG := WriteSVG(io.Discard, tt.s, &tt.opt)
			_, errPNG := Image(tt.s, &tt.opt)
			for _, err := range []error{errSVG, errPNG} {
				if err == nil || errors.Is(err, board.ErrSize) != tt.size {
					t.Errorf("error = %v, want one (wrapping board.ErrSize: %v)", err, tt.size)
				}
			}
		})
	}
}

func TestLayoutScalesDown(t *testing.T) {
	prev := 1 << 30
	for _, n := range []int{1, 8, 13, 20, 50, 100, 200, MaxN} {
		l, err := newLayout(n, &Options{})
		if err != nil {
			t.Fatal(err)
		}
		if l.width > 800 || l.sq > prev || l.sq < 2 {
			t.Errorf("n=%d: square %d, width %d", n, l.sq, l.width)
		}
		// Labels never overlap: the widest one fits in step squares.
		if w := textWidth(strconv.Itoa(n), l.scale); l.step*l.sq < w {
			t.Errorf("n=%d: labels %d wide every %d squares of %d", n, w, l.step, l.sq)
		}
		prev = l.sq
	}
}
