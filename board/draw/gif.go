package draw

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"io"
)

// GIFWriter writes an animated GIF one frame at a time, so that an
// animation of any length needs the memory of one frame only (image/gif
// keeps every frame until EncodeAll). Every frame uses the colours of
// [Palette]; the animation loops forever. Create one with [NewGIFWriter],
// add frames with Add and end with Close.
type GIFWriter struct {
	w      *bufio.Writer
	width  int
	height int
	frames int
	buf    bytes.Buffer
	err    error
}

// NewGIFWriter returns a writer of a width×height animation to w (1 to
// 65535 pixels each way) and writes the GIF header.
func NewGIFWriter(w io.Writer, width, height int) (*GIFWriter, error) {
	if width < 1 || height < 1 || width >= 1<<16 || height >= 1<<16 {
		return nil, fmt.Errorf("write GIF: %dx%d pixels, want 1..65535 each way", width, height)
	}
	g := &GIFWriter{w: bufio.NewWriter(w), width: width, height: height}
	b := []byte("GIF89a")
	b = append(b, byte(width), byte(width>>8), byte(height), byte(height>>8))
	bits := tableBits(len(palette))
	b = append(b, 0x80|byte(bits-1)<<4|byte(bits-1), 0, 0) // global colour table, background 0, square pixels
	b = append(b, colourTable(bits)...)
	// NETSCAPE2.0: loop forever.
	b = append(b, 0x21, 0xff, 11)
	b = append(b, "NETSCAPE2.0"...)
	b = append(b, 3, 1, 0, 0, 0)
	_, g.err = g.w.Write(b)
	return g, g.err
}

// tableBits returns the bits per index of a colour table of k colours.
func tableBits(k int) int {
	bits := 1
	for 1<<bits < k {
		bits++
	}
	return bits
}

// colourTable returns the palette as a GIF colour table of 2^bits entries.
func colourTable(bits int) []byte {
	t := make([]byte, 3<<bits)
	for i, c := range palette {
		r, g, b, _ := c.RGBA()
		t[3*i], t[3*i+1], t[3*i+2] = byte(r>>8), byte(g>>8), byte(b>>8)
	}
	return t
}

// Add writes img (with the colours of [Palette], inside the animation's
// bounds; e.g. a part made by [Diff]) as the next frame, shown for delay
// hundredths of a second, drawn over the frames before it.
func (g *GIFWriter) Add(img *image.Paletted, delay int) error {
	if g.err != nil {
		return g.err
	}
	if !img.Rect.In(image.Rect(0, 0, g.width, g.height)) || img.Rect.Empty() {
		return fmt.Errorf("write GIF: frame %v outside the %dx%d animation", img.Rect, g.width, g.height)
	}
	delay = max(0, min(delay, 0xffff))
	// image/gif writes the frame's LZW data; take its image block out of
	// the single-image file it makes.
	g.buf.Reset()
	if g.err = gif.Encode(&g.buf, img, nil); g.err != nil {
		return g.err
	}
	block, err := imageBlock(g.buf.Bytes())
	if err != nil {
		g.err = err
		return err
	}
	// The block's position: Encode moves a frame to (0, 0).
	x, y := img.Rect.Min.X, img.Rect.Min.Y
	block[1], block[2], block[3], block[4] = byte(x), byte(x>>8), byte(y), byte(y>>8)
	gce := []byte{0x21, 0xf9, 4, 1 << 2, byte(delay), byte(delay >> 8), 0, 0} // disposal: leave in place
	if _, g.err = g.w.Write(gce); g.err == nil {
		_, g.err = g.w.Write(block)
	}
	g.frames++
	return g.err
}

// Frames returns the number of frames added.
func (g *GIFWriter) Frames() int { return g.frames }

// Close writes the end of the GIF and flushes it; it does not close the
// underlying writer. An animation needs at least one frame.
func (g *GIFWriter) Close() error {
	if g.err != nil {
		return g.err
	}
	if g.frames == 0 {
		return errors.New("write GIF: no frames")
	}
	if g.err = g.w.WriteByte(0x3b); g.err == nil {
		g.err = g.w.Flush()
	}
	return g.err
}

var errGIFBlock = errors.New("write GIF: unexpected output of image/gif")

// imageBlock returns the image descriptor and data of the one-image GIF
// file data, as image/gif writes it: header, screen descriptor, global
// colour table, extensions, then the image (with no local colour table,
// as the frame's palette is the global one).
func imageBlock(data []byte) ([]byte, error) {
	if len(data) < 13 {
		return nil, errGIFBlock
	}
	i := 13
	if data[10]&0x80 != 0 {
		i += 3 << (data[10]&7 + 1)
	}
	for i < len(data) && data[i] == 0x21 { // extensions: label, then sub-blocks
		i += 2
		for i < len(data) && data[i] != 0 {
			i += int(data[i]) + 1
		}
		i++
	}
	if i+11 > len(data) || data[i] != 0x2c || data[i+9]&0x80 != 0 {
		return nil, errGIFBlock
	}
	start := i
	i += 11 // descriptor and LZW minimum code size
	for i < len(data) && data[i] != 0 {
		i += int(data[i]) + 1
	}
	if i >= len(data) {
		return nil, errGIFBlock
	}
	return bytes.Clone(data[start : i+1]), nil
}
