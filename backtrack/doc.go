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
// Rows and columns count from 0, as in [board.Solution].
package backtrack
