package cmdutil

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgressSilentOffTerminal(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, 10, "counting")
	if p != nil {
		t.Fatal("progress bar on a bytes.Buffer")
	}
	p.Update(5) // a nil bar accepts every call
	p.Done()
	if buf.Len() != 0 {
		t.Errorf("wrote %q", buf.String())
	}
}

func TestProgressDraws(t *testing.T) {
	for _, colour := range []bool{true, false} {
		var buf bytes.Buffer
		start := time.Unix(0, 0)
		now := start
		p := &Progress{w: &buf, total: 200, label: "counting", colour: colour, start: start, now: func() time.Time { return now }}
		now = start.Add(500 * time.Millisecond)
		p.Update(10)
		if buf.Len() != 0 {
			t.Fatalf("drew within the first second: %q", buf.String())
		}
		now = start.Add(4 * time.Second)
		p.Update(100)
		got := buf.String()
		bar := strings.Repeat("=", 15) + ">" + strings.Repeat(" ", 14)
		if colour {
			bar = "\x1b[32m" + bar + "\x1b[0m"
		}
		if want := "\rcounting [" + bar + "]  50%  4s left\x1b[K"; got != want {
			t.Errorf("colour %v: drew %q, want %q", colour, got, want)
		}
		p.Update(101) // within 100ms: no redraw
		now = now.Add(time.Second)
		p.Parts(40, 50) // the total known late, as backtrack.Count reports it
		if again := buf.String()[len(got):]; !strings.Contains(again, "  80%  1s left") {
			t.Errorf("Parts(40, 50) drew %q", again)
		}
		got = buf.String()
		p.Done()
		if rest := buf.String()[len(got):]; rest != "\r\x1b[K" {
			t.Errorf("Done wrote %q, want the line cleared", rest)
		}
	}
}
