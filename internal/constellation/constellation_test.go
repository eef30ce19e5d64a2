package constellation

import "testing"

// TestListCovers checks that the canonical constellations and their images
// are every constellation of the board exactly once: the weights of List
// add up to the number of constellations, each the image of one of List's.
func TestListCovers(t *testing.T) {
	for n := 1; n <= 9; n++ {
		owner := map[C]C{}
		var weights uint64
		for _, c := range List(n) {
			weights += c.Weight(n)
			for _, im := range c.Images(n) {
				if _, _, ok := im.Queens(n); !ok {
					t.Errorf("n=%d: image %v of %v is not a constellation", n, im, c)
				}
				if o, ok := owner[im]; ok && o != c {
					t.Errorf("n=%d: %v is an image of %v and %v", n, im, o, c)
				}
				owner[im] = c
			}
		}
		all := 0
		for top := range n {
			for bottom := range n {
				for left := range n {
					for right := range n {
						if _, _, ok := (C{top, bottom, left, right}).Queens(n); ok {
							all++
							if _, ok := owner[C{top, bottom, left, right}]; !ok {
								t.Errorf("n=%d: %v is an image of no listed constellation", n, C{top, bottom, left, right})
							}
						}
					}
				}
			}
		}
		if weights != uint64(all) || len(owner) != all {
			t.Errorf("n=%d: weights sum to %d, %d images, want %d constellations", n, weights, len(owner), all)
		}
	}
}

func TestTies(t *testing.T) {
	// n = 5: rows 2, then 1 and 3, then 0 and 4, nearest the middle first.
	tie := Ties(5)
	for _, p := range [][2]int{{2, 1}, {1, 3}, {3, 0}, {0, 4}} {
		if tie[p[0]] >= tie[p[1]] {
			t.Errorf("Ties(5): row %d (%d) not before row %d (%d)", p[0], tie[p[0]], p[1], tie[p[1]])
		}
	}
}
