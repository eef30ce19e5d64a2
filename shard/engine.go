package shard

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/queens-dev/queens/backtrack"
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
// Every engine counts the same pieces and must find the same tallies for
// them (Total24 and Unique24; Nodes, the work, is the engine's own and is
// reported, never compared), so lines of different engines merge into one
// count. An engine that split the board another way would need another
// Scheme, and lines of different schemes never merge.
type Engine struct {
	Name string // as written in the line: lowercase, such as "constellations"

	// Recount counts piece p of an n×n board, for [Verify]. It must
	// return ctx's error when ctx ends first. Engines that need hardware
	// the merging machine may lack (a GPU) recount with a CPU engine: the
	// tallies are the same, and another engine's recount is the stronger
	// check.
	Recount func(ctx context.Context, n int, p backtrack.Subproblem) (backtrack.Tally, error)
}

var (
	enginesMu sync.RWMutex
	engines   = map[string]Engine{
		EngineConstellations: {Name: EngineConstellations, Recount: cpuRecount},
		EngineGPU:            {Name: EngineGPU, Recount: cpuRecount},
	}
)

func cpuRecount(ctx context.Context, n int, p backtrack.Subproblem) (backtrack.Tally, error) {
	return p.Count(ctx, n)
}

// RegisterEngine adds e to the engines that [Parse] accepts in a line and
// [Verify] recounts with; call it before reading lines, from an init
// function or main, as database/sql drivers register. It returns an error
// for an empty or long name, a nil Recount, or a name already registered.
//
// For example, a GPU counter that counts the same pieces:
//
//	shard.RegisterEngine(shard.Engine{Name: "join", Recount: join.CountPiece})
func RegisterEngine(e Engine) error {
	if e.Name == "" || len(e.Name) > 32 || e.Recount == nil {
		return fmt.Errorf("register engine %q: want a name of 1 to 32 bytes and a Recount", e.Name)
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

func knownEngine(name string) bool {
	_, ok := LookupEngine(name)
	return ok
}
