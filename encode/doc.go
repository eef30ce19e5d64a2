// Package encode translates the N-Queens puzzle into CNF and writes it in
// DIMACS format; it also reads DIMACS strictly and decodes a model back
// into a board. It imports no solver: the [CNF] is a plain value.
//
// # Variables
//
// The square at 0-based row and col of an n×n board is variable
// [Var](n, row, col) = row*n + col + 1, true iff a queen stands there.
// Auxiliary variables of the compact encodings are numbered after the n*n
// board variables.
//
// # Clauses
//
// In this order: for each row, the clause of its n squares and an
// at-most-one over them (for [Ladder], its exactly-one instead); the same
// for each column; an at-most-one for each
// diagonal (row-col constant, from -(n-2) to n-2) and each anti-diagonal
// (row+col from 1 to 2n-3), squares from the top row down; then one unit
// clause per pre-placed queen, by row; then, with [Options.Symmetry], the
// lex-leader clauses of each symmetry broken, in the order of
// [board.Transforms].
//
// An [Encoder] generates the clauses one at a time ([Encoder.Emit],
// [Encoder.Clauses], [Encoder.AppendFlat]) and knows their number up front
// ([Encoder.Size]), so a DIMACS file or a solver can be fed without the
// formula ever being in memory; [Queens] and [Encoder.CNF] collect them
// into a [CNF] value.
//
// # Encodings
//
// The at-most-one over L squares costs, in clauses / auxiliary variables:
//
//	pairwise   L(L-1)/2 / 0          (-x_i | -x_j) for every pair
//	seq        4L-5 / L-1            Sinz's sequential counter (L >= 2)
//	commander  recursive / about L/2 groups of 3 with a commander c <-> OR(group);
//	                                 4 or fewer literals pairwise
//	product    2L + p + q + AMO(p) + AMO(q) / p + q + aux of AMO(p), AMO(q)
//	                                 Chen's 2-product on a p×q grid, p = ceil(sqrt L),
//	                                 q = ceil(L/p), recursive; 20 or fewer pairwise
//	binary     (L+1)*B / B           B = ceil(log2 L) bits spell the true square's index
//	bimander   pairwise in groups + (L+1)*B / B
//	                                 Nguyen and Mai: groups of ceil(L/m), m = ceil(sqrt L),
//	                                 B = ceil(log2 groups) bits spell the group; 4 or fewer pairwise
//	ladder     4L-2 / L              Gent and Nightingale's regular encoding as PySAT's CardEnc
//	                                 writes it: a ladder a_1 .. a_L, a_i "the queen stands after
//	                                 square i"; rows and columns take its exactly-one, 4L-4 / L-1
//	totalizer  7L-13 / 2L-4          Bailleux and Boufkhad's totalizer, counters cut at 2 as PySAT's
//	                                 (L >= 3)                  itot, both directions (C1 and C2)
//	sortnet    3 per output made + the clauses forbidding the second output / the outputs made
//	                                 Batcher's odd-even merge sort (Eén and Sörensson's sorting
//	                                 networks), only the comparator outputs the second output needs
//
// so that the whole instance, without pre-placed queens, has ([Size]):
//
//	pairwise   V = n^2             C = n(n-1)(5n-1)/3 + 2n
//	seq        V = 5n^2 - 6n + 2   C = 16n^2 - 28n + 14      (n >= 2)
//	commander  n = 8: 142 / 610      n = 100: 29,176 / 135,908   n = 400: 478,820 / 2,226,670
//	product    n = 8: 64 / 744       n = 100: 18,980 / 128,620   n = 400: 234,880 / 1,971,200
//	binary     n = 8: 174 / 838      n = 100: 13,678 / 272,702   n = 400: 179,538 / 5,604,554
//	bimander   n = 8: 124 / 718      n = 100: 12,040 / 311,676   n = 400: 170,614 / 8,484,318
//	ladder     V = 5n^2 - 2n - 4   C = 16n^2 - 16n - 4      (n >= 3)
//	totalizer  V = 9n^2 - 24n + 16  C = 28n^2 - 76n + 50     (n >= 3)
//	sortnet    n = 8: 432 / 1,382    n = 100: 499,036 / 1,542,542
//
// (an independent generator gives the same counts less one clause per
// auxiliary variable for seq, product, binary and bimander, which it
// defines one way only; the tests check both).
//
// Every auxiliary variable is defined both ways by the board variables
// (an OR of squares of its line, false on a line without a queen; the
// lex-leader auxiliaries "equal so far"), so the models of the whole
// formula, over all its variables, are exactly the solutions, or with
// symmetry breaking exactly the canonical ones ([Exact] is true of every
// encoding): a model counter counts solutions without projection.
//
// # Symmetry breaking
//
// [Options.Symmetry] adds, for each of the 7 symmetries of the board other
// than the identity, the lex-leader constraint x >=lex t(x) over the board
// variables in row-major order (true above false), with 5m-5 clauses and
// m-1 auxiliary variables for the m squares t moves. Exactly one
// solution per class remains, the canonical one ([board.IsCanonical]):
// OEIS A002562, 12 for n = 8. With pre-placed queens only the symmetries
// of [Stabilizer] are broken.
//
// # DIMACS
//
// [WriteDIMACS] writes a self-describing header, the problem line with the
// exact counts, and one clause per line:
//
//	c N-Queens puzzle as CNF, generated by github.com/queens-dev/queens
//	c n 4
//	c encoding seq
//	c placed 1:2
//	c variables 1..16: queen at ROW:COL (1-based) is variable (ROW-1)*4 + COL
//	c variables 17..58: auxiliary (seq)
//	p cnf 58 117
//	1 2 3 4 0
//	-1 17 0
//	...
//
// With symmetry breaking a line "c symmetry lex-leader rot90 ..." follows
// the placed line. [DIMACS] options name another generator and add the
// model counting competition's "c t mc" line. The bytes depend only on the instance and the options, streamed
// or not. [ReadDIMACS] reads any DIMACS CNF and rejects what is malformed
// with a [ParseError] carrying the line number; from a file queens wrote it
// also recovers the instance (N, encoding, placed queens, symmetries).
package encode
