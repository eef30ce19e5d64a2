package cmdutil

import (
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/encode"
)

// StrategyLimit refuses a board too large for --strategy cells, scan or
// generate, saying how much work the next size would be.
func StrategyLimit(s backtrack.Strategy, n int) error {
	if s != backtrack.Cells && s != backtrack.Scan && s != backtrack.Generate || n <= s.MaxN() {
		return nil // the others' limits are -n's (boardSize)
	}
	_, perms := backtrack.SearchSpace(s.MaxN() + 1)
	if s == backtrack.Scan {
		return Usagef("-n %d is too large for --strategy scan (at most %d): it finds each solution n! times, 92 x 8! = 3709440 for n = 8; cells, which scans only after its last queen, takes up to n = %d", n, s.MaxN(), backtrack.CellsMaxN)
	}
	if s == backtrack.Generate {
		return Usagef("-n %d is too large for --strategy generate (at most %d): it tests every permutation, %d! = %v for n = %d, and more beyond; lex and iterative, which prune, take larger boards", n, s.MaxN(), s.MaxN()+1, perms, s.MaxN()+1)
	}
	return Usagef("-n %d is too large for --strategy cells (at most %d): it places 7535368 queens for every solution of n = 10 and 66807233 for n = 11; lex and iterative, by rows, take larger boards", n, s.MaxN())
}

// Every limit of the command line, in one place: the largest board each
// command takes and the bounds on what one run may produce. Each is checked
// before any work starts; docs/formats.md's limits table lists them. Where
// a command's limit depends on its flags, a function here says which
// applies (BacktrackLimit, SATLimit); the libraries' own bounds
// (board.MaxN, encode.MaxN, draw.MaxN, shard.MaxShards,
// compare.RefereeCountMax) are the ceilings these sit under.

// BacktrackLimit returns the largest board queens backtrack takes for the
// mode its flags ask for, and the mode's name for the message.
func BacktrackLimit(count, sharded, all, lex bool) (maxN int, mode string) {
	switch {
	case count && sharded:
		// A shard's sums are 128-bit: n = 28..32 count in shards.
		return backtrack.CountMaxN, "--count --shard"
	case count:
		return MaxCountN, "--count (--count --shard: N <= 32)"
	case all:
		return MaxAllN, "--all and --unique"
	case lex:
		return MaxLexFirstN, "--strategy lex"
	}
	return MaxFirstN, "a first solution"
}

// SATLimit returns the largest board queens sat takes: the encoding's
// (encode.MaxN), and no more than SATMaxAll to enumerate or count, or
// SATMaxExternal for an external solver.
func SATLimit(enc encode.Encoding, enumerate, external bool) int {
	limit := encode.MaxN(enc)
	if enumerate {
		limit = min(limit, SATMaxAll)
	}
	if external {
		limit = min(limit, SATMaxExternal)
	}
	return limit
}

// MaxBoardN is the largest board queens board draws and queens check
// reads as text; pictures stop at draw.MaxN.
const MaxBoardN = 1000

// The largest board each mode of queens backtrack accepts.
const (
	// MaxFirstN bounds a first solution and --limit: the heuristic answers
	// every n up to here in well under a second (1000 in milliseconds).
	MaxFirstN = 5000
	// MaxLexFirstN bounds a first solution with --strategy lex, which past
	// N ≈ 30 can run for hours (n = 32 places 87 million queens).
	MaxLexFirstN = 48
	// MaxAllN bounds --all and --unique: n = 27 is the largest board whose
	// number of solutions (2.3·10^17) is known at all.
	MaxAllN = 27
	// MaxCountN bounds --count for the same reason.
	MaxCountN = 27
)

// CompareMaxN is the largest board compare takes; engines have their own,
// smaller limits for enumeration.
const CompareMaxN = 16

// Enumeration limits: an engine enumerates boards up to its limit; external
// solvers, re-run once per solution, enumerate small boards and above that
// are only asked for one model, which is checked. ExternalEnumMax is the
// default of compare --solver-limit: n <= 9 takes 20 s for cadical, minisat,
// picosat, cryptominisat5 and clasp together (one encoding, 2 shared cores);
// N = 10 alone takes 90 s more.
const (
	BacktrackEnumMax = 16
	SATEnumMax       = 14
	ExternalEnumMax  = 9
	ExternalFirstMax = 16
)

// DecodeMax is the largest n decode accepts.
const DecodeMax = 2000

// maxPictureFiles bounds how many files -o DIR/ writes, so that a slip
// like --all on n = 16 does not fill a disk with 14.7 million pictures.
const maxPictureFiles = 10000

// SATMaxAll is the largest n sat enumerates or counts (--all, --count,
// --limit): the blocking clauses make each solution slower than the last.
const SATMaxAll = 16

// SATMaxExternal is the largest n an external solver gets: the CNF is
// Written to a file for every solve.
const SATMaxExternal = 200

// MaxTraceN is the largest board trace shows, the page's (internal/serve
// steps through the same boards): one limit, stated. Up to TraceFirstN
// every board reaches its first solution within TraceAllSteps steps;
// beyond, a trace stops there unless --max-steps says otherwise (n = 22
// takes millions of steps, n = 28 billions).
const (
	MaxTraceN   = 32
	TraceFirstN = 16
)

// MaxGIFSteps bounds the frames of trace --gif. The frames are written as
// they come (memory stays that of one picture), so the bound is on the
// file: a frame takes 1.3 kB at n = 8, 2.3 kB at n = 16 (measured). Every first solution up to n = 15
// fits (n = 14 takes 29079 steps), and n = 16's with --no-rejects (23785).
const MaxGIFSteps = 30000

// TraceAllSteps is the default --max-steps of trace --all: the whole search
// fits for n <= 10 (396462 steps); n = 12 takes 11 million, n = 16 about
// ten billion.
const TraceAllSteps = 1000000

// RefereeTime bounds each of the referee's searches when it checks a
// Solver's UNSATISFIABLE answer (the backtracker deciding or counting
// completions, then gini looking for a witness); past both the answer is
// reported as unverified. A variable so that tests can shorten it.
var RefereeTime = 10 * time.Second

// maxThreads bounds --threads: each thread is a goroutine with a solver
// of its own (a gini instance for sat), so a slip like --threads
// 1000000000 would exhaust memory; 1024 is far beyond the cores of any
// machine this runs on, and the counts split into at most a few thousand
// parts anyway.
const maxThreads = 1024

// MaxDelay bounds --delay of trace: a GIF frame's delay is a 16-bit count
// of hundredths of a second (at most 655.35 s; longer ones wrap round).
// Dead ends and solutions are held longer, but never beyond it either.
const MaxDelay = 65535 * 10 * time.Millisecond
