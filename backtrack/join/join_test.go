package join

import (
	"context"
	"testing"

	"github.com/queens-dev/queens/board"
)

func TestPublished(t *testing.T) {
	maxN := 14
	if !testing.Short() {
		maxN = 16
	}
	for n := 1; n <= maxN; n++ {
		want, _ := board.Known(n)
		res, err := Count(context.Background(), n, Options{Unique: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != want.Total || res.Unique != want.Unique {
			t.Errorf("n=%d: %d (%d unique), want %d (%d)", n, res.Total, res.Unique, want.Total, want.Unique)
		}
	}
}
