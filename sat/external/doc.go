// Package external runs external DIMACS SAT solvers and model counters on
// N-Queens CNFs (from [encode.Queens]) and reads their output: SAT
// competition answers ([ReadResult]) and model counts ([ParseCount]). It
// does not import gini; the sat package is gini in process.
//
// A [Solver] ([New], [External.New]) runs the solver once per solution on
// the CNF with a blocking clause for every solution found so far. The
// solver is believed in nothing: each model is checked against the CNF
// and the board, the exit status against the answer (10 SATISFIABLE, 20
// UNSATISFIABLE), and with [External.Proof] every UNSATISFIABLE answer
// against its DRAT proof, by a [ProofChecker]. Its command is split like a
// shell's words ([SplitCommand]), without a shell; where it writes its
// answer is found by probing ([External.Probe]); its output is capped.
//
// Each run is a process group of its own, marked in its environment;
// when the run ends, the group and every marked process (on Linux, even
// one that left the group with setsid) are killed. The package changes
// nothing about the calling process: [BecomeSubreaper], which the queens
// command calls, also makes it reap what a solver leaves behind.
package external
