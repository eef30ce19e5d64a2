// Package sat solves, enumerates and counts N-Queens CNFs (from
// [encode.Queens]) with the gini SAT solver, in process, or with any
// external DIMACS solver command, and reads solvers' output.
//
// It is the only package of queens that imports gini. Solutions come out
// as [board.Solution] values, one at a time ([Solver.Next]) or as a stream
// ([Solver.All]); each found solution is excluded by a blocking clause over
// its n true board variables, which is enough because every solution has
// exactly n queens, and correct for encodings with free auxiliary
// variables. A context cancels a solve or bounds it in time.
//
// gini is used with care for the pitfalls of v1.0.4: clauses are added
// directly (not through its DIMACS reader), the model is read before the
// blocking clause is added (Add backtracks), Try and Copy are never used,
// and a GoSolve's result is always collected.
package sat
