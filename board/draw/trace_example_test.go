package draw_test

import (
	"bytes"
	"context"
	"fmt"
	"image/gif"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board/draw"
)

// The animation of the search for the first solution of n = 4: a start
// frame, then one frame per step of the narrator, captioned, with a
// legend, at the delay that makes the whole GIF last about 45 seconds.
func ExampleTraceGIF() {
	var steps []backtrack.Step
	nr := backtrack.Narrator{}
	backtrack.First(context.Background(), 4, backtrack.Options{Strategy: backtrack.Lex, Observe: func(e backtrack.Event) {
		steps = append(steps, nr.Event(e)...)
	}})
	weight := draw.Weight(0, backtrack.StepPlace)
	for i, st := range steps {
		weight += draw.Weight(i+1, st.Kind)
	}
	var out bytes.Buffer
	g := draw.NewTraceGIF(&out, 4, nil)
	g.Delay = draw.DefaultDelay(weight)
	g.Start()
	for i, st := range steps {
		g.Add(i+1, st)
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
	fmt.Println(draw.Caption(len(steps), steps[len(steps)-1], false))
	// Output:
	// 34 frames, 50 hundredths of a second each
	// 33 solution #1
}
