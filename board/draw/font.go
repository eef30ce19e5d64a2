package draw

import "image"

// font3x5 holds the digits 0-9, the letters A-Z and a few signs as 3×5
// bitmaps, one byte per line, bit 2 the leftmost pixel. It is all the text
// a board picture needs (its row and column numbers, attack counts and the
// caption of an animation frame), so PNG and GIF pictures need no font
// library.
var font3x5 = map[byte][5]uint8{
	'0': {7, 5, 5, 5, 7}, '1': {2, 6, 2, 2, 7}, '2': {7, 1, 7, 4, 7}, '3': {7, 1, 7, 1, 7},
	'4': {5, 5, 7, 1, 1}, '5': {7, 4, 7, 1, 7}, '6': {7, 4, 7, 5, 7}, '7': {7, 1, 1, 1, 1},
	'8': {7, 5, 7, 5, 7}, '9': {7, 5, 7, 1, 7},
	'A': {2, 5, 7, 5, 5}, 'B': {6, 5, 6, 5, 6}, 'C': {3, 4, 4, 4, 3}, 'D': {6, 5, 5, 5, 6},
	'E': {7, 4, 6, 4, 7}, 'F': {7, 4, 6, 4, 4}, 'G': {3, 4, 5, 5, 3}, 'H': {5, 5, 7, 5, 5},
	'I': {7, 2, 2, 2, 7}, 'J': {1, 1, 1, 5, 2}, 'K': {5, 5, 6, 5, 5}, 'L': {4, 4, 4, 4, 7},
	'M': {5, 7, 7, 5, 5}, 'N': {6, 5, 5, 5, 5}, 'O': {2, 5, 5, 5, 2}, 'P': {6, 5, 6, 4, 4},
	'Q': {2, 5, 5, 6, 3}, 'R': {6, 5, 6, 5, 5}, 'S': {3, 4, 2, 1, 6}, 'T': {7, 2, 2, 2, 2},
	'U': {5, 5, 5, 5, 7}, 'V': {5, 5, 5, 5, 2}, 'W': {5, 5, 7, 7, 5}, 'X': {5, 5, 2, 5, 5},
	'Y': {5, 5, 2, 2, 2}, 'Z': {7, 1, 2, 4, 7},
	':': {0, 2, 0, 2, 0}, '#': {5, 7, 5, 7, 5}, '-': {0, 0, 7, 0, 0}, '.': {0, 0, 0, 0, 2},
	',': {0, 0, 0, 2, 4}, '/': {1, 1, 2, 4, 4}, '(': {2, 4, 4, 4, 2}, ')': {2, 1, 1, 1, 2},
}

// textWidth is the width in pixels of text drawn by drawText.
func textWidth(text string, scale int) int { return len(text)*4*scale - scale }

// drawText draws text with its top-left corner at (x, y), each font pixel
// scale×scale image pixels. Lower case is drawn as upper case; a byte the
// font lacks (a space) is left blank.
func drawText(img *image.Paletted, x, y int, text string, scale int, c uint8) {
	for _, ch := range []byte(text) {
		if ch >= 'a' && ch <= 'z' {
			ch -= 'a' - 'A'
		}
		for line, bits := range font3x5[ch] {
			for px := range 3 {
				if bits&(4>>px) != 0 {
					fill(img, image.Rect(x+px*scale, y+line*scale, x+(px+1)*scale, y+(line+1)*scale), c)
				}
			}
		}
		x += 4 * scale
	}
}
