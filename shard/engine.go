package shard

import (
	"context"
	"slices"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/backtrack/join"
)

// EngineConstellations names the CPU search of
// [backtrack.Subproblem.Count], the engine of every shard line that names
// none (lines written before lines named their engine).
const EngineConstellations = "constellations"

// EngineGPU names the GPU counter (package gpu, through
// [Options.Counter]): the same pieces, counted on a GPU, recounted on the
// CPU.
const EngineGPU = "gpu"

// An Engine is one of the counting engines of queens: the one table
// ([Engines]) the command line, merge ([Parse], [Verify]) and compare
// read, so that a new engine is one entry here. Its name is written into
// each shard line it counted, and merge --verify recounts a piece of that
// line with the engine's Recount.
//
// Every engine of one scheme counts the same pieces and must find the
// same tallies for them (Total24 and Unique24; Nodes, the work, is the
// engine's own and is reported, never compared), so lines of different
// engines of one scheme merge into one count. The half-board join
// ([EngineJoin]) splits the board another way, its own scheme
// ([JoinScheme]), and lines of different schemes never merge.
type Engine struct {
	Name string // as written in the line: lowercase, such as "constellations"

	// Scheme is the split whose pieces the engine counts: "" or [Scheme]
	// (the constellations, recounted by Recount), or [JoinScheme] (the
	// parts of the join, recounted by RecountJoin).
	Scheme string

	// MaxN is the largest board the engine counts; Place says whether it
	// counts the completions of pre-placed queens too.
	MaxN  int
	Place bool

	// Count counts the whole n×n board: the total, and with unique the
	// solutions distinct up to symmetry. It is nil for an engine that
	// needs hardware this package does not drive (the GPU: package gpu).
	Count func(ctx context.Context, n int, unique bool) (total, distinct uint64, err error)

	// Recount counts piece p of an n×n board, for [Verify]. It returns
	// ctx's error when ctx ends first. Engines that need hardware the
	// merging machine may lack (a GPU) recount with a CPU engine: the
	// tallies are the same, and another engine's recount is the stronger
	// check.
	Recount func(ctx context.Context, n int, p backtrack.Subproblem) (backtrack.Tally, error)

	// RecountJoin counts part p of an n×n board, for [Verify], for an
	// engine of [JoinScheme]; it returns ctx's error when ctx ends first.
	RecountJoin func(ctx context.Context, n int, p join.Piece) (backtrack.Tally, error)
}

// engines is the table [Engines] returns, in the order it lists them.
var engines = [...]Engine{
	{Name: EngineConstellations, MaxN: backtrack.CountMaxN, Place: true, Count: countConstellations, Recount: cpuRecount},
	{Name: EngineJoin, Scheme: JoinScheme, MaxN: join.MaxN, Count: countJoin, RecountJoin: joinRecount},
	{Name: EngineGPU, MaxN: backtrack.CountMaxN, Place: true, Recount: cpuRecount},
}

func countConstellations(ctx context.Context, n int, unique bool) (total, distinct uint64, err error) {
	res, err := backtrack.Count(ctx, n, backtrack.CountOptions{Unique: unique})
	return res.Total, res.Unique, err
}

func countJoin(ctx context.Context, n int, unique bool) (total, distinct uint64, err error) {
	res, err := join.Count(ctx, n, join.Options{Unique: unique})
	return res.Total, res.Unique, err
}

func cpuRecount(ctx context.Context, n int, p backtrack.Subproblem) (backtrack.Tally, error) {
	return p.Count(ctx, n)
}

// Engines returns the counting engines, constellations first: a copy of
// the table, which nothing changes.
func Engines() []Engine { return slices.Clone(engines[:]) }

// LookupEngine returns the engine named name.
func LookupEngine(name string) (Engine, bool) {
	i := slices.IndexFunc(engines[:], func(e Engine) bool { return e.Name == name })
	if i < 0 {
		return Engine{}, false
	}
	return engines[i], true
}

// engineNames returns the engines' names, for messages.
func engineNames() []string {
	names := make([]string, len(engines))
	for i, e := range engines {
		names[i] = e.Name
	}
	return names
}
