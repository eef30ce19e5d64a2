package draw

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/testutil"
)

// pngSquare samples the colour at the middle of square (row, col), a point
// inside the queen shape, so it is the queen's colour iff a queen is there.
func pngSquare(img image.Image, l layout, row, col int) color.Color {
	r := l.square(row, col)
	return img.At(r.Min.X+l.sq/2, r.Min.Y+l.sq*65/100)
}

func same(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

func TestWritePNG(t *testing.T) {
	type tc struct {
		s   board.Solution
		opt Options
	}
	var cases []tc
	for n := 1; n <= 8; n++ {
		for i, s := range testutil.Solutions(n, nil) {
			cases = append(cases, tc{s, Options{Attacks: i%2 == 1, Place: []board.Queen{{Row: n - 1, Col: s[n-1]}}}})
		}
	}
	// Big boards, scaled down to small squares, and every square size
	// from the plain block to the crown.
	for _, n := range []int{13, 50, 100, MaxN} {
		s := make(board.Solution, n)
		for row := range s {
			s[row] = (2*row + 1) % n
		}
		cases = append(cases, tc{s, Options{}})
	}
	for sq := 2; sq <= 12; sq++ {
		cases = append(cases, tc{board.Solution{1, 3, 0, 2}, Options{Square: sq, Attacks: true}})
	}
	for _, c := range cases {
		n := len(c.s)
		t.Run(fmt.Sprintf("n=%d/%v/%d", n, c.s[:min(n, 8)], c.opt.Square), func(t *testing.T) {
			var buf bytes.Buffer
			if err := WritePNG(&buf, c.s, &c.opt); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&buf)
			if err != nil {
				t.Fatalf("decode PNG: %v", err)
			}
			l, _ := newLayout(n, &c.opt)
			if b := img.Bounds(); b.Dx() != l.width || b.Dy() != l.height || b.Dx() < n*2 {
				t.Fatalf("size %v, want %dx%d", b, l.width, l.height)
			}
			queens := 0
			for row := range n {
				for col := range n {
					got := pngSquare(img, l, row, col)
					var want color.Color
					switch {
					case c.s[row] == col && row == n-1 && len(c.opt.Place) > 0:
						want = palette[cPlaced]
					case c.s[row] == col:
						want = palette[cQueen]
					case c.opt.Attacks: // every empty square of a full board is attacked
						want = palette[cAttackedLight+(row+col)%2]
					default:
						want = palette[cLight+(row+col)%2]
					}
					if !same(got, want) {
						t.Fatalf("square %d:%d is %v, want %v", row+1, col+1, got, want)
					}
					if same(got, palette[cQueen]) || same(got, palette[cPlaced]) {
						queens++
					}
				}
			}
			if queens != n {
				t.Errorf("%d queens drawn, want %d", queens, n)
			}
		})
	}
}

func TestImageLabelsAndMarks(t *testing.T) {
	s := board.Solution{1, -1, -1, -1} // a search in progress
	opt := &Options{Tried: []board.Queen{{Row: 1, Col: 3}}, Rejected: []board.Queen{{Row: 1, Col: 0}}}
	img, err := Image(s, opt)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := newLayout(4, opt)
	for _, sq := range []struct {
		row, col int
		want     uint8
	}{{0, 1, cQueen}, {1, 3, cTried}, {1, 0, cRejected}, {1, 1, cLight}, {3, 2, cDark}} {
		if got := pngSquare(img, l, sq.row, sq.col); !same(got, palette[sq.want]) {
			t.Errorf("square %d:%d is %v, want %v", sq.row+1, sq.col+1, got, palette[sq.want])
		}
	}
	count := func(r image.Rectangle) (k int) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if img.ColorIndexAt(x, y) == cLabel {
					k++
				}
			}
		}
		return k
	}
	// "1", "2", "3", "4" in the 3x5 font have 8+11+11+9 pixels of scale².
	want := 39 * l.scale * l.scale
	if top, left := count(image.Rect(0, 0, l.width, l.top)), count(image.Rect(0, l.top, l.left, l.height)); top != want || left != want {
		t.Errorf("label pixels: top %d, left %d, want %d each", top, left, want)
	}
	opt.NoLabels = true
	if img, _ := Image(s, opt); img.Rect.Dx() != 4*l.sq {
		t.Errorf("without labels the image is %v, want the board only", img.Rect)
	}
}

func BenchmarkPictures(b *testing.B) {
	for _, n := range []int{8, 32, MaxN} {
		s := make(board.Solution, n)
		for row := range s {
			s[row] = (2*row + 1) % n
		}
		opt := &Options{Attacks: true}
		for _, pic := range []struct {
			name  string
			write func(io.Writer, board.Solution, *Options) error
		}{{"png", WritePNG}, {"svg", WriteSVG}} {
			b.Run(fmt.Sprintf("%s/n=%d", pic.name, n), func(b *testing.B) {
				b.ReportAllocs()
				var buf bytes.Buffer
				for b.Loop() {
					buf.Reset()
					pic.write(&buf, s, opt)
				}
				b.ReportMetric(float64(buf.Len()), "bytes")
			})
		}
	}
}
