package draw_test

import (
	"fmt"
	"os"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/board/draw"
)

// Draw the 4-queens solution [1 3 0 2] with squares of 20 pixels: the
// labels take 7 pixels on the left and 9 on top.
func ExampleImage() {
	img, _ := draw.Image(board.Solution{1, 3, 0, 2}, &draw.Options{Square: 20})
	fmt.Println(img.Bounds())
	// The middle of square 1:2 is the queen, of 1:1 a light square.
	fmt.Println(img.At(7+20+10, 9+13) == draw.Palette()[7], img.At(7+10, 9+13) == draw.Palette()[1])
	// Output:
	// (0,0)-(87,89)
	// true true
}

// Write the one-queen board as SVG.
func ExampleWriteSVG() {
	// The one-queen board: a light square, its labels and the queen.
	draw.WriteSVG(os.Stdout, board.Solution{0}, &draw.Options{Square: 16})
	// Output:
	// <svg xmlns="http://www.w3.org/2000/svg" width="23" height="25" viewBox="0 0 23 25">
	// <title>1-queens: 1:1</title>
	// <rect width="23" height="25" fill="#ffffff"/>
	// <rect x="7" y="9" width="16" height="16" fill="#f0d9b5"/>
	// <g font-family="sans-serif" font-size="7" fill="#333333" text-anchor="middle">
	// <text x="15" y="7">1</text>
	// <text x="3" y="17" dominant-baseline="central">1</text>
	// </g>
	// <path class="queen" fill="#1b1b1b" d="M9.88 22.76L20.12 22.76L20.12 21.16L21.56 13.8L17.88 17.64L15 11.4L12.12 17.64L8.44 13.8L9.88 21.16Z"/>
	// </svg>
}
