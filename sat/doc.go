// Package sat solves, enumerates and counts N-Queens CNFs (from
// [encode.Queens]) with the gini SAT solver, in process.
//
// It is the only package of queens that imports gini. Solutions come out
// as [board.Solution] values, one at a time ([Solver.Next]) or as a stream
// ([Solver.All], [Parallel.All]).
//
// A [Solver] works on one gini instance: each found solution is excluded
// by a blocking clause over its n true board variables, which is enough
// because every solution has exactly n queens, and correct for encodings
// with free auxiliary variables. [NewSeeded] starts the first solve from a
// random greedy placement of the top rows, given as assumptions and
// dropped by halves if gini cannot complete it: the fast way to one
// solution of a large board.
//
// A [Parallel] enumerates by cube and conquer: every placement of the top
// rows is a cube; the CNF is simplified under the cube by unit propagation
// and what is left goes to a fresh gini instance; workers share the cubes;
// without pre-placed queens only cubes not larger than their mirror image
// are solved, and the mirror images of their solutions are emitted too.
// A context cancels a solve or bounds it in time.
//
// [Solver] and [Parallel] are both an [engine.Interface]. An external DIMACS solver
// is run by the sat/external package, with the same blocking clauses and
// every answer checked; this package runs nothing outside the process and
// changes nothing about it.
//
// gini is used with care for the pitfalls of v1.0.4: clauses are added
// directly (not through its DIMACS reader), the model is read before the
// blocking clause is added (Add backtracks), Try and Copy are never used,
// a GoSolve's result is always collected, and a formula already
// inconsistent by unit propagation is never solved under assumptions
// (gini would answer with a non-model and exit the process).
package sat
