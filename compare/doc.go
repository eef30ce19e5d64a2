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
package compare
