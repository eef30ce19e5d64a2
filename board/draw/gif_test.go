package draw

import (
	"bytes"
	"image"
	imagedraw "image/draw"
	"image/gif"
	"testing"

	"github.com/queens-dev/queens/board"
)

// TestGIFWriter writes frames one by one, some of them parts made by Diff,
// and decodes the animation with image/gif: the composed frames are the
// pictures drawn, and the delays are kept.
func TestGIFWriter(t *testing.T) {
	boards := []board.Solution{{-1, -1, -1, -1}, {1, -1, -1, -1}, {1, 3, -1, -1}, {1, 3, 0, 2}, {1, 3, 0, 2}}
	var pics []*image.Paletted
	for i, s := range boards {
		img, err := Image(s, &Options{Square: 12, Attacks: true, Caption: "step " + string(rune('0'+i))})
		if err != nil {
			t.Fatal(err)
		}
		pics = append(pics, img)
	}
	var buf bytes.Buffer
	g, err := NewGIFWriter(&buf, pics[0].Rect.Dx(), pics[0].Rect.Dy())
	if err != nil {
		t.Fatal(err)
	}
	for i, img := range pics {
		frame := img
		if i > 0 {
			frame = Diff(pics[i-1], img)
		}
		if err := g.Add(frame, 10*(i+1)); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if len(anim.Image) != len(pics) || anim.LoopCount != 0 {
		t.Fatalf("%d frames, loop %d; want %d, 0", len(anim.Image), anim.LoopCount, len(pics))
	}
	canvas := image.NewPaletted(pics[0].Rect, Palette())
	for i, frame := range anim.Image {
		if anim.Delay[i] != 10*(i+1) {
			t.Errorf("frame %d: delay %d", i, anim.Delay[i])
		}
		for y := frame.Rect.Min.Y; y < frame.Rect.Max.Y; y++ {
			for x := frame.Rect.Min.X; x < frame.Rect.Max.X; x++ {
				canvas.SetColorIndex(x, y, frame.ColorIndexAt(x, y))
			}
		}
		if !bytes.Equal(canvas.Pix, pics[i].Pix) {
			t.Errorf("frame %d differs from the picture", i)
		}
	}
	if _, err := NewGIFWriter(&buf, 0, 5); err == nil {
		t.Error("NewGIFWriter(0x5) succeeded")
	}
	g, _ = NewGIFWriter(&bytes.Buffer{}, 4, 4)
	if err := g.Add(pics[0], 1); err == nil {
		t.Error("a frame bigger than the animation was accepted")
	}
}

// TestNumbersAndCaption checks the attack counts in the pictures: the SVG
// has one number per empty square, equal to board.Attacks, and the PNG
// draws ink in an empty square exactly when numbers are asked for.
func TestNumbersAndCaption(t *testing.T) {
	s := board.Solution{-1, 2, -1, -1, -1}
	var buf bytes.Buffer
	if err := WriteSVG(&buf, s, &Options{Numbers: true, Caption: "a <b>"}); err != nil {
		t.Fatal(err)
	}
	svg := buf.String()
	want := board.Attacks(5, s.PlacedQueens())
	for i, v := range want {
		if v < 0 {
			continue
		}
		l, _ := newLayout(5, &Options{Numbers: true, Caption: "a <b>"})
		text := "<text x=\"" + itoa(l.left+(i%5)*l.sq+l.sq/2) + "\" y=\"" + itoa(l.top+(i/5)*l.sq+l.sq/2) + "\">" + itoa(v) + "</text>"
		if !bytes.Contains(buf.Bytes(), []byte(text)) {
			t.Errorf("square %d: no %s in the SVG", i, text)
		}
	}
	if !bytes.Contains(buf.Bytes(), []byte("a &lt;b&gt;</text>")) {
		t.Errorf("caption not escaped or missing:\n%s", svg)
	}
	plain, _ := Image(s, &Options{})
	numbered, _ := Image(s, &Options{Numbers: true})
	l, _ := newLayout(5, &Options{})
	for i := range 25 {
		r := l.square(i/5, i%5)
		differs := false
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if plain.ColorIndexAt(x, y) != numbered.ColorIndexAt(x, y) {
					differs = true
				}
			}
		}
		if differs != (want[i] >= 0) {
			t.Errorf("square %d (count %d): numbers drawn %v", i, want[i], differs)
		}
	}
}

func itoa(v int) string { return string(bytesItoa(v)) }

func bytesItoa(v int) []byte {
	if v < 0 {
		return append([]byte{'-'}, bytesItoa(-v)...)
	}
	if v < 10 {
		return []byte{byte('0' + v)}
	}
	return append(bytesItoa(v/10), byte('0'+v%10))
}

// TestThreeDigitLabelsFit checks that every label of a big board lies
// inside the picture: the last column's and row's labels of n = 100..256
// used to be cut at the edge.
func TestThreeDigitLabelsFit(t *testing.T) {
	for _, n := range []int{99, 100, 128, 200, 256} {
		l, err := newLayout(n, &Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if !l.labelled(i) {
				continue
			}
			w := textWidth(itoa(i+1), l.scale)
			mid := i*l.sq + l.sq/2
			if x := l.left + mid + (w+1)/2; x > l.width {
				t.Errorf("n=%d: column label %d ends at x=%d, picture %d wide", n, i+1, x, l.width)
			}
			if y := l.top + mid + (5*l.scale+1)/2; y > l.height {
				t.Errorf("n=%d: row label %d ends at y=%d, picture %d high", n, i+1, y, l.height)
			}
		}
	}
}

// TestTraceGIFFoldsRejects checks the frame of a queen placed after
// rejects left out (Skip, as trace --no-rejects does): the book's one
// picture, the skipped squares with black dots and the squares the queen
// newly attacks with blue ones, as Image draws them.
func TestTraceGIFFoldsRejects(t *testing.T) {
	var buf bytes.Buffer
	g := NewTraceGIF(&buf, 4, nil)
	g.Delay = 100 // a class's pace: a second a frame
	q1, q2 := board.Solution{0, -1, -1, -1}, board.Solution{0, 2, -1, -1}
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	g.Add(Frame{Kind: FramePlace, Square: board.Queen{Row: 0, Col: 0}, Queens: q1, Caption: "1 place 1:1"})
	g.Skip(Frame{Kind: FrameReject, Square: board.Queen{Row: 1, Col: 0}, Queens: q1})
	g.Skip(Frame{Kind: FrameReject, Square: board.Queen{Row: 1, Col: 1}, Queens: q1})
	last := Frame{Kind: FramePlace, Square: board.Queen{Row: 1, Col: 2}, Queens: q2, Caption: "4 place 2:3"}
	if err := g.Add(last); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	anim, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(anim.Image) != 3 || anim.Delay[2] != 100 {
		t.Fatalf("%d frames, delays %v", len(anim.Image), anim.Delay)
	}
	canvas := image.NewPaletted(anim.Image[0].Rect, Palette())
	for _, fr := range anim.Image {
		imagedraw.Draw(canvas, fr.Bounds(), fr, fr.Bounds().Min, imagedraw.Src)
	}
	dots := newlyAttacked(q2, last.Square)
	if len(dots) == 0 {
		t.Fatal("2:3 newly attacks nothing: the test wants blue dots")
	}
	want, err := Image(q2, &Options{Square: g.square, Attacks: true, Caption: last.Caption, CaptionScale: g.cscale, Legend: g.legend,
		Tried: []board.Queen{last.Square}, RejectDots: []board.Queen{{Row: 1, Col: 0}, {Row: 1, Col: 1}}, AttackDots: dots})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(canvas.Pix, want.Pix) {
		t.Error("the frame of 2:3 is not the queen with the black and blue dots")
	}
	// Without the dots the picture differs: the test can fail.
	plain, _ := Image(q2, &Options{Square: g.square, Attacks: true, Caption: last.Caption, CaptionScale: g.cscale, Legend: g.legend, Tried: []board.Queen{last.Square}})
	if bytes.Equal(plain.Pix, want.Pix) {
		t.Error("the dots draw nothing")
	}
}
