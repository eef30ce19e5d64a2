package draw_test

import (
	"bytes"
	"fmt"
	"image/gif"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/board/draw"
)

// The animation of a few steps of a search of the 4×4 board: a start
// frame, a queen placed, a square rejected, a dead end and a backtrack,
// each a frame, at the delay that spreads their total weight over about
// 45 seconds (at most half a second a frame).
func ExampleTraceGIF() {
	q := func(cols ...int) board.Solution { return board.Solution(cols) }
	frames := []draw.Frame{
		{Kind: draw.FramePlace, Square: board.Queen{Row: 0, Col: 0}, Queens: q(0, -1, -1, -1), Caption: "1 place 1:1"},
		{Kind: draw.FrameReject, Square: board.Queen{Row: 1, Col: 0}, Queens: q(0, -1, -1, -1), Caption: "2 reject 2:1"},
		{Kind: draw.FrameReject, Square: board.Queen{Row: 1, Col: 1}, Queens: q(0, -1, -1, -1), Caption: "3 reject 2:2"},
		{Kind: draw.FramePlace, Square: board.Queen{Row: 1, Col: 2}, Queens: q(0, 2, -1, -1), Caption: "4 place 2:3"},
		{Kind: draw.FrameDeadEnd, Dead: []board.Queen{{Row: 2, Col: 0}, {Row: 2, Col: 1}, {Row: 2, Col: 2}, {Row: 2, Col: 3}}, Queens: q(0, 2, -1, -1), Caption: "9 dead end row 3"},
		{Kind: draw.FrameBacktrack, Square: board.Queen{Row: 1, Col: 2}, Queens: q(0, -1, -1, -1), Caption: "10 backtrack 2:3"},
	}
	weight := draw.Weight(draw.FrameStart)
	for _, f := range frames {
		weight += draw.Weight(f.Kind)
	}
	var out bytes.Buffer
	g := draw.NewTraceGIF(&out, 4, nil)
	g.Delay = draw.DefaultDelay(weight)
	g.Start()
	for _, f := range frames {
		g.Add(f)
	}
	if err := g.Close(); err != nil {
		fmt.Println(err)
		return
	}
	anim, err := gif.DecodeAll(&out)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(anim.Image), "frames,", g.Delay, "hundredths of a second each")
	fmt.Println(string(draw.AppendTextBoard(nil, frames[4], nil)))
	// Output:
	// 7 frames, 50 hundredths of a second each
	//           1 2 3 4
	//        1  Q - - -
	//        2  - - Q -
	//        3  x x x x
	//        4  - . - -
}
