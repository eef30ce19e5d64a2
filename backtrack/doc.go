// Package backtrack solves the N-Queens puzzle with the textbook recursive
// backtracker: one queen per row, try each column, skip a square that a
// queen already placed attacks, recurse, and take the queen back when the
// rest of the board cannot be completed.
//
// [First] finds one solution, [All] streams every solution, and [Search]
// does either with a [context.Context], statistics ([Stats]) and full
// control. [Options] adds pre-placed queens (the completion problem), an
// observer that sees every step of the search as an [Event], and the
// [Strategy]:
//
//   - [Lex] tries the rows top to bottom and the columns left to right, so
//     solutions come out in lexicographic order. It is the algorithm of the
//     textbooks and of the trace, but the first solution takes exponential
//     time past n ≈ 30 (n = 32 places 87 million queens).
//   - [Heuristic] is still a complete backtracker, with forward checking:
//     it fills the row with the fewest free squares first (a row with none
//     is a dead end at once) and tries central columns first. It finds a
//     first solution of a 1000×1000 board in milliseconds.
//   - [Auto], the default, is Lex up to [AutoLexMax] and Heuristic above.
//   - [Iterative] is Lex with an explicit stack instead of recursion.
//   - [Cells] searches the cells of the whole board, each free, a queen or
//     threatened, on a copy of the grid per level, with no notion of rows.
//   - [Generate] is naive generate-and-test: every permutation of the
//     columns, each tested once complete ([SearchSpace] gives the sizes
//     of what generate-and-test runs through).
//
// The three textbook strategies show what pruning saves: every solution
// of n = 8 takes Lex 2056 queens, Cells 118968 and Generate 109600 (to
// test 40320 permutations).
//
// [Options.Order] [Columns] fills the columns instead of the rows (Lex:
// left to right, rows top to bottom), as the textbook figures do; the
// events and solutions are still told on the board itself. [Narrator]
// turns the events into the steps of a trace, which [Step.Text] tells in
// the words of the search and [Step.AgentText] in those of the
// object-oriented formulation (queen k asks queen k-1 to advance).
// [Options.Rotations] lists the classes of solutions under the rotations
// only, and [RotationClasses] counts them.
//
// [Count] counts solutions with a bitboard search on all cores, split into
// [Subproblems] (constellations of border queens, one class of symmetric
// placements each) that can also be spread over machines.
//
// A diagonal runs from the top left to the bottom right (row - col is the
// same along it), an anti-diagonal from the bottom left to the top right
// (row + col is the same). Rows and columns count from 0, as in
// [board.Solution].
package backtrack
