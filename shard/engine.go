package shard

import (
	"context"
	"fmt"
	"slices"
	"sync"

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

// An Engine is a way of counting the pieces of the split ([Scheme]). Its
// name is written into each shard line it counted, and merge --verify
// ([Verify]) recounts a piece of that line with the engine's Recount.
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

	// Recount counts piece p of an n×n board, for [Verify]. It must
	// return ctx's error when ctx ends first. Engines that need hardware
	// the merging machine may lack (a GPU) recount with a CPU engine: the
	// tallies are the same, and another engine's recount is the stronger
	// check.
	Recount func(ctx context.Context, n int, p backtrack.Subproblem) (backtrack.Tally, error)

	// RecountJoin counts part p of an n×n board, for [Verify], for an
	// engine of [JoinScheme]; it must return ctx's error when ctx ends
	// first.
	RecountJoin func(ctx context.Context, n int, p join.Piece) (backtrack.Tally, error)
}

var (
	enginesMu sync.RWMutex
	engines   = map[string]Engine{
		EngineConstellations: {Name: EngineConstellations, Recount: cpuRecount},
		EngineGPU:            {Name: EngineGPU, Recount: cpuRecount},
		EngineJoin:           {Name: EngineJoin, Scheme: JoinScheme, RecountJoin: joinRecount},
	}
)

func cpuRecount(ctx context.Context, n int, p backtrack.Subproblem) (backtrack.Tally, error) {
	return p.Count(ctx, n)
}

// RegisterEngine adds e to the engines that [Parse] accepts in a line and
// [Verify] recounts with; call it before reading lines, from an init
// function or main, as database/sql drivers register. It returns an error
// for an empty or long name, an unknown scheme, a nil Recount (RecountJoin
// for [JoinScheme]), or a name already registered.
//
// An engine that counts the same pieces another way registers its name and
// how to recount a piece, and names itself in [Options.Engine]:
//
//	err := shard.RegisterEngine(shard.Engine{Name: "join", Recount: countPieceByJoin})
func RegisterEngine(e Engine) error {
	if e.Name == "" || len(e.Name) > 32 {
		return fmt.Errorf("register engine %q: want a name of 1 to 32 bytes", e.Name)
	}
	switch schemeOf(e.Scheme) {
	case Scheme:
		if e.Recount == nil {
			return fmt.Errorf("register engine %q: want a Recount", e.Name)
		}
	case JoinScheme:
		if e.RecountJoin == nil {
			return fmt.Errorf("register engine %q: want a RecountJoin", e.Name)
		}
	default:
		return fmt.Errorf("register engine %q: unknown scheme %q", e.Name, e.Scheme)
	}
	enginesMu.Lock()
	defer enginesMu.Unlock()
	if _, ok := engines[e.Name]; ok {
		return fmt.Errorf("register engine %q: registered already", e.Name)
	}
	engines[e.Name] = e
	return nil
}

// CPURecount recounts a piece with the CPU search of
// [backtrack.Subproblem.Count]: the Recount of [EngineConstellations], and
// of any engine counting the same pieces on hardware a merge may not have.
var CPURecount = cpuRecount

// LookupEngine returns the engine registered under name.
func LookupEngine(name string) (Engine, bool) {
	enginesMu.RLock()
	defer enginesMu.RUnlock()
	e, ok := engines[name]
	return e, ok
}

// Engines returns the names of the registered engines, sorted.
func Engines() []string {
	enginesMu.RLock()
	defer enginesMu.RUnlock()
	var names []string
	for name := range engines {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
