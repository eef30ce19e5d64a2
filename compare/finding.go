package compare

import (
	"fmt"

	"github.com/queens-dev/queens/board"
)

// FindingKind says what a [Finding] is about.
type FindingKind int

// The kinds of finding of [Check].
const (
	// EngineFailed: the engine's run ended with Err.
	EngineFailed FindingKind = iota + 1
	// InvalidSolution: the engine emitted Solution, which is not a
	// solution of the problem (Reason says why).
	InvalidSolution
	// MoreInvalid: the engine emitted Got more invalid solutions than
	// the findings show.
	MoreInvalid
	// FalseUnsat: the engine claims no solution, but Source (the
	// published count, or the reference engine) has Want.
	FalseUnsat
	// PublishedTotal: the engine found Got solutions, the published
	// count is Want.
	PublishedTotal
	// PublishedUnique: the engine found Got classes up to symmetry, the
	// published count is Want.
	PublishedUnique
	// CountDiffers: a counter counted Got, the reference engine found
	// Want.
	CountDiffers
	// Differ: the engine's multiset of solutions differs from the
	// reference engine's (Got and Want solutions; fingerprints Print and
	// RefPrint); [Result.Mismatches] lists the solutions.
	Differ
	// LocalizeFailed: localising a Differ ended with Err.
	LocalizeFailed
	// PartsAgree: the engine and the reference agree on every part of
	// the board but not on the whole.
	PartsAgree
)

// Finding is one thing [Check] found wrong: its kind, the engine it is
// about and what shows it. String says it in one line.
type Finding struct {
	Kind      FindingKind
	Engine    string // the engine the finding is about
	Reference string // the engine it was compared with (FalseUnsat, CountDiffers, Differ, LocalizeFailed, PartsAgree)
	Err       error  // EngineFailed, LocalizeFailed
	Solution  board.Solution
	Reason    string // InvalidSolution
	// Got is the engine's figure, Want the one it was checked against.
	Got, Want       uint64
	Print, RefPrint Fingerprint // Differ
}

// Fails reports whether the finding puts the engine itself in the wrong:
// every kind but the localisation's own failures (LocalizeFailed,
// PartsAgree), which say how far the search for the difference went.
func (f Finding) Fails(engine string) bool {
	return f.Engine == engine && f.Kind != LocalizeFailed && f.Kind != PartsAgree
}

// String says the finding in one line, naming the engine first.
func (f Finding) String() string {
	switch f.Kind {
	case EngineFailed:
		return fmt.Sprintf("%s: %v", f.Engine, f.Err)
	case InvalidSolution:
		return fmt.Sprintf("%s: invalid solution %s: %s", f.Engine, perm(f.Solution), f.Reason)
	case MoreInvalid:
		return fmt.Sprintf("%s: %d more invalid solutions", f.Engine, f.Got)
	case FalseUnsat:
		from := f.Reference + " found"
		if f.Reference == "" {
			from = "the published count is"
		}
		return fmt.Sprintf("%s: claims no solution (UNSAT), but %s %d: a solver bug", f.Engine, from, f.Want)
	case PublishedTotal:
		return fmt.Sprintf("%s: %d solutions, published %d", f.Engine, f.Got, f.Want)
	case PublishedUnique:
		return fmt.Sprintf("%s: %d unique, published %d", f.Engine, f.Got, f.Want)
	case CountDiffers:
		return fmt.Sprintf("%s: %d solutions, %s found %d", f.Engine, f.Got, f.Reference, f.Want)
	case Differ:
		return fmt.Sprintf("%s and %s differ: %d and %d solutions, fingerprints %s and %s",
			f.Reference, f.Engine, f.Want, f.Got, f.RefPrint, f.Print)
	case LocalizeFailed:
		return fmt.Sprintf("localising %s against %s: %v", f.Engine, f.Reference, f.Err)
	case PartsAgree:
		return fmt.Sprintf("%s and %s agree on every part of the board but not on the whole: "+
			"one of them behaves differently with pre-placed queens", f.Reference, f.Engine)
	}
	return fmt.Sprintf("%s: finding %d", f.Engine, f.Kind)
}
