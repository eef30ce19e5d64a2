package draw

import "image"

// font3x5 holds the digits 0-9 as 3×5 bitmaps, one byte per line, bit 2
// the leftmost pixel. It is all the text a board picture needs (its row
// and column numbers), so PNG and GIF pictures need no font library.
var font3x5 = [10][5]uint8{
	{7, 5, 5, 5, 7}, // 0
	{2, 6, 2, 2, 7}, // 1
	{7, 1, 7, 4, 7}, // 2
	{7, 1, 7, 1, 7}, // 3
	{5, 5, 7, 1, 1}, // 4
	{7, 4, 7, 1, 7}, // 5
	{7, 4, 7, 5, 7}, // 6
	{7, 1, 1, 1, 1}, // 7
	{7, 5, 7, 5, 7}, // 8
	{7, 5, 7, 1, 7}, // 9
}

// textWidth is the width in pixels of digits drawn by drawDigits.
func textWidth(text string, scale int) int { return len(text)*4*scale - scale }

// drawDigits draws text (digits only; other bytes are skipped) with its
// top-left corner at (x, y), each font pixel scale×scale image pixels.
func drawDigits(img *image.Paletted, x, y int, text string, scale int, c uint8) {
	for _, ch := range []byte(text) {
		if ch >= '0' && ch <= '9' {
			for line, bits := range font3x5[ch-'0'] {
				for px := range 3 {
					if bits&(4>>px) != 0 {
						fill(img, image.Rect(x+px*scale, y+line*scale, x+(px+1)*scale, y+(line+1)*scale), c)
					}
				}
			}
		}
		x += 4 * scale
	}
}
