package cli

import (
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/encode"
)

// Every limit of the command line, in one place: the largest board each
// command takes and the bounds on what one run may produce. Each is checked
// before any work starts; docs/formats.md's limits table lists them. Where
// a command's limit depends on its flags, a function here says which
// applies (backtrackLimit, satLimit); the libraries' own bounds
// (board.MaxN, encode.MaxN, draw.MaxN, shard.MaxShards,
// compare.RefereeCountMax) are the ceilings these sit under.

// backtrackLimit returns the largest board queens backtrack takes for the
// mode its flags ask for, and the mode's name for the message.
func backtrackLimit(count, sharded, all, lex bool) (maxN int, mode string) {
	switch {
	case count && sharded:
		// A shard's sums are 128-bit: n = 28..32 count in shards.
		return backtrack.CountMaxN, "--count --shard"
	case count:
		return maxCountN, "--count (--count --shard: N <= 32)"
	case all:
		return maxAllN, "--all and --unique"
	case lex:
		return maxLexFirstN, "--strategy lex"
	}
	return maxFirstN, "a first solution"
}

// satLimit returns the largest board queens sat takes: the encoding's
// (encode.MaxN), and no more than satMaxAll to enumerate or count, or
// satMaxExternal for an external solver.
func satLimit(enc encode.Encoding, enumerate, external bool) int {
	limit := encode.MaxN(enc)
	if enumerate {
		limit = min(limit, satMaxAll)
	}
	if external {
		limit = min(limit, satMaxExternal)
	}
	return limit
}

// maxBoardN is the largest board queens board draws and queens check
// reads as text; pictures stop at draw.MaxN.
const maxBoardN = 1000

// The largest board each mode of queens backtrack accepts.
const (
	// maxFirstN bounds a first solution and --limit: the heuristic answers
	// every n up to here in well under a second (1000 in milliseconds).
	maxFirstN = 5000
	// maxLexFirstN bounds a first solution with --strategy lex, which past
	// n ≈ 30 can run for hours (n = 32 places 87 million queens).
	maxLexFirstN = 48
	// maxAllN bounds --all and --unique: n = 27 is the largest board whose
	// number of solutions (2.3·10^17) is known at all.
	maxAllN = 27
	// maxCountN bounds --count for the same reason.
	maxCountN = 27
)

// compareMaxN is the largest board compare takes; engines have their own,
// smaller limits for enumeration.
const compareMaxN = 16

// Enumeration limits: an engine enumerates boards up to its limit; external
// solvers, re-run once per solution, enumerate small boards and above that
// are only asked for one model, which is checked. externalEnumMax is the
// default of compare --solver-limit: n <= 9 takes 20 s for cadical, minisat,
// picosat, cryptominisat5 and clasp together (one encoding, 2 shared cores);
// n = 10 alone takes 90 s more.
const (
	backtrackEnumMax = 16
	satEnumMax       = 14
	externalEnumMax  = 9
	externalFirstMax = 16
)

// decodeMax is the largest n decode accepts.
const decodeMax = 2000

// maxPictureFiles bounds how many files -o DIR/ writes, so that a slip
// like --all on n = 16 does not fill a disk with 14.7 million pictures.
const maxPictureFiles = 10000

// satMaxAll is the largest n sat enumerates or counts (--all, --count,
// --limit): the blocking clauses make each solution slower than the last.
const satMaxAll = 16

// satMaxExternal is the largest n an external solver gets: the CNF is
// written to a file for every solve.
const satMaxExternal = 200

// maxTraceN is the largest board trace shows, the page's (internal/serve
// steps through the same boards): one limit, stated. Up to traceFirstN
// every board reaches its first solution within traceAllSteps steps;
// beyond, a trace stops there unless --max-steps says otherwise (n = 22
// takes millions of steps, n = 28 billions).
const (
	maxTraceN   = 32
	traceFirstN = 16
)

// maxGIFSteps bounds the frames of trace --gif. The frames are written as
// they come (memory stays that of one picture), so the bound is on the
// file: a frame takes 1.3 kB at n = 8, 2.3 kB at n = 16 (measured). Every first solution up to n = 15
// fits (n = 14 takes 29079 steps), and n = 16's with --no-rejects (23785).
const maxGIFSteps = 30000

// traceAllSteps is the default --max-steps of trace --all: the whole search
// fits for n <= 10 (396462 steps); n = 12 takes 11 million, n = 16 about
// ten billion.
const traceAllSteps = 1000000

// refereeTime bounds each of the referee's searches when it checks a
// solver's UNSATISFIABLE answer (the backtracker deciding or counting
// completions, then gini looking for a witness); past both the answer is
// reported as unverified. A variable so that tests can shorten it.
var refereeTime = 10 * time.Second

// maxThreads bounds --threads: each thread is a goroutine with a solver
// of its own (a gini instance for sat), so a slip like --threads
// 1000000000 would exhaust memory; 1024 is far beyond the cores of any
// machine this runs on, and the counts split into at most a few thousand
// parts anyway.
const maxThreads = 1024

// maxDelay bounds --delay of trace: a GIF frame's delay is a 16-bit count
// of hundredths of a second (at most 655.35 s; longer ones wrap round).
// Dead ends and solutions are held longer, but never beyond it either.
const maxDelay = 65535 * 10 * time.Millisecond
