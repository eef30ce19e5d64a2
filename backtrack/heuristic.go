package backtrack

// The heuristic strategy keeps, for every empty row, the number of its
// squares that no queen attacks. Placing a queen costs O(n) to update those
// numbers and choosing the next row O(n) to scan them; in return the search
// sees dead ends one row early and rarely backtracks.
//
// A fixed order of rows still meets a bad region for a few n (with ties
// broken by the topmost row, n = 822 and 854 below 1000 need about a
// million queens). So the first pass runs with a budget of queens; if it
// runs out before the first solution, the search takes every queen back
// and starts again with ties broken by a scrambled row order, without a
// budget. That second pass is complete, and nothing was yielded before it,
// so every solution is still found exactly once.

// firstPassBudget is the number of queens the first pass may place on an
// n×n board before it gives up.
func firstPassBudget(n int) uint64 { return 50_000 + 50*uint64(n) }

// heuristic runs the search.
func (s *searcher) heuristic() {
	n := s.n
	s.centre = make([]int, 0, n)
	for lo, hi := (n-1)/2, (n-1)/2+1; len(s.centre) < n; lo, hi = lo-1, hi+1 {
		if lo >= 0 {
			s.centre = append(s.centre, lo)
		}
		if hi < n {
			s.centre = append(s.centre, hi)
		}
	}
	s.rowFree = make([]int32, n)
	s.countFree()
	s.budget = firstPassBudget(n)
	s.mrv()
	if !s.outOfBudget {
		return
	}
	// Take back what the first pass left on the board and start over.
	s.stopped, s.outOfBudget, s.budget = false, false, 0
	for row, col := range s.q {
		if col >= 0 && !s.fixed[row] {
			s.remove(row, col)
		}
	}
	s.countFree()
	s.scrambled = true
	s.mrv()
}

// countFree counts the free squares of every empty row from scratch.
func (s *searcher) countFree() {
	for row, c := range s.q {
		s.rowFree[row] = 0
		if c >= 0 {
			continue
		}
		for col := range s.n {
			if s.safe(row, col) {
				s.rowFree[row]++
			}
		}
	}
}

// mrv fills the empty row with the fewest free squares (the most
// constrained one, "minimum remaining values"), trying its free columns
// from the centre outwards. Every solution has a queen in that row, so
// trying each of its columns in turn finds every solution exactly once.
func (s *searcher) mrv() {
	if s.free == 0 {
		s.solution()
		s.budget = 0 // a solution was yielded: no restart from now on
		return
	}
	row, best := -1, int32(s.n+1)
	for r, c := range s.q {
		if c >= 0 {
			continue
		}
		free := s.rowFree[r]
		if free == 0 {
			return // forward checking: this row can take no queen
		}
		if free < best || free == best && s.scrambled && scramble(r) < scramble(row) {
			row, best = r, free
		}
	}
	for _, col := range s.centre {
		if s.observe != nil {
			if !s.try(row, col) {
				continue
			}
		} else if !s.safe(row, col) {
			continue
		}
		s.count(row, col, -1)
		s.place(row, col)
		if s.budget != 0 && s.stats.Nodes >= s.budget {
			s.stopped, s.outOfBudget = true, true
		}
		if !s.stopped {
			s.mrv()
		}
		if s.stopped {
			return
		}
		s.remove(row, col)
		s.count(row, col, +1)
	}
}

// scramble maps a row to a pseudo-random rank (a fixed integer hash), the
// tie-break of the second pass.
func scramble(row int) uint32 {
	x := uint32(row)*2654435761 + 12345
	x ^= x >> 15
	x *= 2246822519
	x ^= x >> 13
	return x
}

// count adds d to the free-square count of every empty row for each of its
// free squares that a queen on (row, col) attacks. It runs while (row, col)
// is empty: before placing the queen (d = -1) and after taking it away
// (d = +1), when the board is the same.
func (s *searcher) count(row, col int, d int32) {
	n := s.n
	for r, c := range s.q {
		if c >= 0 || r == row {
			continue
		}
		// The three squares of row r on the queen's lines are distinct
		// because r != row.
		dr := r - row
		if s.safe(r, col) {
			s.rowFree[r] += d
		}
		if c := col - dr; c >= 0 && c < n && s.safe(r, c) {
			s.rowFree[r] += d
		}
		if c := col + dr; c >= 0 && c < n && s.safe(r, c) {
			s.rowFree[r] += d
		}
	}
}
