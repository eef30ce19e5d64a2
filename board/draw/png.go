package draw

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"strconv"

	"github.com/queens-dev/queens/board"
)

// Palette returns the colours of the pictures [Image] draws, so that
// frames of an animation can share one palette. Each call returns a new
// slice: changing it changes no picture.
func Palette() color.Palette { return append(color.Palette(nil), palette...) }

// palette holds the colours behind [Palette].
var palette = func() color.Palette {
	p := make(color.Palette, numColours)
	for i, hex := range colourHex {
		v, _ := strconv.ParseUint(hex[1:], 16, 32)
		p[i] = color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
	}
	return p
}()

// Image draws s as a paletted image (colours from [Palette]) the way
// [WriteSVG] does: same size, same squares, same queens, the labels in a
// small built-in digit font. A negative column leaves that row empty.
// Boards above [MaxN] wrap [board.ErrSize], checked before any allocation.
func Image(s board.Solution, opt *Options) (*image.Paletted, error) {
	if opt == nil {
		opt = &Options{}
	}
	l, err := newLayout(len(s), opt)
	if err != nil {
		return nil, err
	}
	cells, err := squares(s, opt)
	if err != nil {
		return nil, err
	}
	n := len(s)
	img := image.NewPaletted(image.Rect(0, 0, l.width, l.height), palette) // all cBackground
	for row := range n {
		for col := range n {
			fill(img, l.square(row, col), cells[row*n+col])
		}
	}
	if !opt.NoLabels {
		for i := range n {
			if !l.labelled(i) {
				continue
			}
			text := strconv.Itoa(i + 1)
			w, mid := textWidth(text, l.scale), i*l.sq+l.sq/2
			drawText(img, l.left+mid-w/2, 2*l.scale, text, l.scale, cLabel)
			drawText(img, (l.left-w)/2, l.top+mid-5*l.scale/2, text, l.scale, cLabel)
		}
	}
	if sc := numberScale(l.sq); sc > 0 && opt.Numbers {
		for i, v := range board.Attacks(n, s.PlacedQueens()) {
			if v >= 0 {
				text := strconv.Itoa(v)
				r := l.square(i/n, i%n)
				drawText(img, r.Min.X+(l.sq-textWidth(text, sc))/2, r.Min.Y+(l.sq-5*sc)/2, text, sc, cLabel)
			}
		}
	}
	if opt.Caption != "" {
		drawText(img, 2*l.cscale, l.captionTop, opt.Caption, l.cscale, cLabel)
	}
	for row, col := range s {
		if col >= 0 {
			drawQueen(img, l.square(row, col), queenColour(row, col, opt))
		}
	}
	for _, q := range opt.Emptied {
		if q.Row >= 0 && q.Row < n && q.Col >= 0 && q.Col < n && s[q.Row] != q.Col {
			drawOutline(img, l.square(q.Row, q.Col), cEmptied)
		}
	}
	for _, d := range []struct {
		qs []board.Queen
		c  uint8
	}{{opt.RejectDots, cQueen}, {opt.AttackDots, cPlaced}} {
		for _, q := range d.qs {
			if q.Row >= 0 && q.Row < n && q.Col >= 0 && q.Col < n {
				fill(img, dotRect(l.square(q.Row, q.Col)), d.c)
			}
		}
	}
	for _, it := range l.legend {
		x, y := 2*l.lscale+it.x, l.legendTop+it.y
		r := image.Rect(x, y, x+l.lside, y+l.lside)
		c := uint8(it.colour)
		switch it.kind {
		case swatchSquare:
			fill(img, r, c)
		case swatchQueen:
			fill(img, r, cLight)
			drawQueen(img, r, c)
		case swatchOutline:
			fill(img, r, cLight)
			drawOutline(img, r, c)
		case swatchDot:
			fill(img, r, cLight)
			fill(img, dotRect(r), c)
		}
		drawText(img, x+l.lside+2*l.lscale, y+(l.lside-5*l.lscale)/2, it.text, l.lscale, cLabel)
	}
	return img, nil
}

// dotRect is the dot in the middle of the square r: a fifth of its side,
// at least 2 pixels.
func dotRect(r image.Rectangle) image.Rectangle {
	d := max(2, r.Dx()/5)
	x, y := r.Min.X+(r.Dx()-d)/2, r.Min.Y+(r.Dy()-d)/2
	return image.Rect(x, y, x+d, y+d)
}

// drawOutline draws the rim of queenShape scaled to the square r: the
// points of the shape that a copy shrunk to three quarters about the
// centre does not cover.
func drawOutline(img *image.Paletted, r image.Rectangle, c uint8) {
	sq := r.Dx()
	for y := range sq {
		for x := range sq {
			u, v := (float64(x)+.5)/float64(sq), (float64(y)+.5)/float64(sq)
			if insideQueen(u, v) && !insideQueen(.5+(u-.5)/.75, .55+(v-.55)/.75) {
				img.Pix[img.PixOffset(r.Min.X+x, r.Min.Y+y)] = c
			}
		}
	}
}

// WritePNG draws s with [Image] and writes it to w as a PNG.
func WritePNG(w io.Writer, s board.Solution, opt *Options) error {
	img, err := Image(s, opt)
	if err != nil {
		return err
	}
	if err := png.Encode(w, img); err != nil {
		return fmt.Errorf("write PNG: %w", err)
	}
	return nil
}

// square returns the pixels of square (row, col).
func (l layout) square(row, col int) image.Rectangle {
	x, y := l.left+col*l.sq, l.top+row*l.sq
	return image.Rect(x, y, x+l.sq, y+l.sq)
}

// fill paints r (clipped to img) in colour c.
func fill(img *image.Paletted, r image.Rectangle, c uint8) {
	r = r.Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]
		for i := range row {
			row[i] = c
		}
	}
}

// drawQueen fills queenShape scaled to the square r; squares too small to
// show a crown get a plain block.
func drawQueen(img *image.Paletted, r image.Rectangle, c uint8) {
	sq := r.Dx()
	if sq < 6 {
		fill(img, r.Inset(sq/4), c)
		return
	}
	for y := range sq {
		for x := range sq {
			if insideQueen((float64(x)+.5)/float64(sq), (float64(y)+.5)/float64(sq)) {
				img.Pix[img.PixOffset(r.Min.X+x, r.Min.Y+y)] = c
			}
		}
	}
}

// insideQueen reports whether the point (x, y) of the unit square lies in
// queenShape (even-odd rule: count the edges a ray to the right crosses).
func insideQueen(x, y float64) bool {
	in := false
	for i, a := range queenShape {
		b := queenShape[(i+1)%len(queenShape)]
		if (a[1] > y) != (b[1] > y) && x < a[0]+(y-a[1])*(b[0]-a[0])/(b[1]-a[1]) {
			in = !in
		}
	}
	return in
}
