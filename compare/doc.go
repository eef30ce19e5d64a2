// Package compare cross-checks N-Queens engines: it drains each engine's
// stream of solutions once, checks every solution as it passes, summarises
// the stream in a constant-size order-independent [Fingerprint], compares
// the engines with each other and with the published counts, and, where
// two engines disagree, narrows the disagreement down to the solutions
// themselves by re-running both on parts of the board.
//
// Engines are plain functions ([Source]), so the backtracker, the SAT
// encodings and external solvers all fit, and so do deliberately broken
// engines in tests.
//
// A [Referee] checks a single claim of a solver or a model counter (no
// solution, exactly K solutions, K classes of solutions) against what is
// known without trusting it: the explicit construction ([Construct]), the
// published counts, the backtracker and the bitboard counter, and for a
// claim of no solution a model gini finds, checked as a board. Its
// [Verdict] says by which [Method] the claim was verified, or the
// [Reason] it could not be; a claim it disproves is a *[Refutation].
package compare
