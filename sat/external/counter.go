package external

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"

	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/quote"
)

// ErrCounterFailed is wrapped by the errors of a model counter that
// could not be run, failed, or printed no count one can trust.
var ErrCounterFailed = errors.New("model counter failed")

// Counter is an external model counter: a command in the style of
// sharpSAT, d4, ganak or clasp that reads a DIMACS file named as its last
// argument and prints the number of its models.
//
// Debian packages no #SAT counter (sharpSAT, d4, ganak); clasp counts by
// enumeration: "clasp -n 0 -q" (every encoding's models are exactly the
// solutions, so no projection is needed).
type Counter struct {
	// Command is the counter and its arguments, split as [SplitCommand]
	// splits them (no shell); the file's path is appended.
	Command string
	// MaxOutput caps the counter's stdout; past it the counter is
	// killed. 0 means [DefaultMaxOutput].
	MaxOutput int64
}

// Count runs the counter on the DIMACS file at path and returns the count
// it prints (see [ParseCount]). The counter must exit with status 0, 10,
// 20 or 30 (SAT solvers' 10 SAT, 20 UNSAT, clasp's 30 for an exhausted
// enumeration) and print exactly one count; exit status 20 must come with
// a count of 0, and 10 or 30 with a count above 0. Anything else is an
// error wrapping [ErrCounterFailed] (or [ErrSolverNotFound] for a command
// that cannot be found); the end of ctx kills it and returns ctx.Err().
func (c Counter) Count(ctx context.Context, path string) (uint64, error) {
	argv, err := solverArgv(c.Command)
	if err != nil {
		return 0, err
	}
	maxOut := c.MaxOutput
	if maxOut <= 0 {
		maxOut = DefaultMaxOutput
	}
	r, err := runSolver(ctx, argv[0], withCNF(argv, path), maxOut)
	if err != nil {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		return 0, fmt.Errorf("%w: %w", ErrCounterFailed, err)
	}
	if !r.exited() {
		return 0, fmt.Errorf("%w: %s: %w", ErrCounterFailed, r.name, r.failure())
	}
	n, err := ParseCount(r.stdout)
	if err != nil {
		return 0, fmt.Errorf("%w: %s (exit status %d): %w", ErrCounterFailed, r.name, r.code, err)
	}
	switch {
	case r.code == 20 && n != 0:
		return 0, fmt.Errorf("%w: %s counts %d models but exits with status 20 (UNSATISFIABLE)", ErrCounterFailed, r.name, n)
	case (r.code == 10 || r.code == 30) && n == 0:
		return 0, fmt.Errorf("%w: %s counts no model but exits with status %d (SATISFIABLE)", ErrCounterFailed, r.name, r.code)
	}
	return n, nil
}

// CountEncoder writes e's instance in the model counting format
// ([encode.DIMACS] with ModelCounting: "c t mc", as every encoding's models
// are exactly its solutions) to a temporary file and counts it with
// [Counter.Count]. generator names the writer in
// the header.
func (c Counter) CountEncoder(ctx context.Context, e *encode.Encoder, generator string) (uint64, error) {
	dir, err := os.MkdirTemp("", "queens-count-")
	if err != nil {
		return 0, fmt.Errorf("model counter: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, fmt.Sprintf("queens-%d.cnf", e.N()))
	f, err := os.Create(path)
	if err != nil {
		return 0, fmt.Errorf("model counter: %w", err)
	}
	err = encode.DIMACS{Generator: generator, ModelCounting: true}.WriteEncoder(ctx, f, e)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("model counter: %w", err)
	}
	return c.Count(ctx, path)
}

// ParseCount reads the number of models from a model counter's output,
// in any of these styles:
//
//	s mc N                  ganak, the model counting competition
//	s pmc N                 the same, projected
//	c s exact arb int N     the competition's exact count
//	s N                     d4
//	c Models : N            clasp -n 0 (not "N+": an unfinished enumeration)
//	N                       a line of its own, as sharpSAT prints it
//
// A bare number counts only when no line of another style is present.
// Every count given must be the same; none, two different ones, a
// negative number or one above 2^64-1 is an error.
func ParseCount(out []byte) (uint64, error) {
	var explicit, bare []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 3 && f[0] == "s" && (f[1] == "mc" || f[1] == "pmc"):
			explicit = append(explicit, f[2])
		case len(f) == 6 && strings.Join(f[:5], " ") == "c s exact arb int":
			explicit = append(explicit, f[5])
		case len(f) == 2 && f[0] == "s" && isDigits(f[1]):
			explicit = append(explicit, f[1])
		case len(f) >= 3 && (f[0] == "c" && len(f) == 4 && f[1] == "Models" && f[2] == ":" || f[0] == "Models" && f[1] == ":" && len(f) == 3):
			v := f[len(f)-1]
			if strings.HasSuffix(v, "+") {
				return 0, fmt.Errorf("the enumeration did not finish (%s)", quote.Token(strings.Join(f, " ")))
			}
			explicit = append(explicit, v)
		case len(f) == 1 && isDigits(strings.TrimPrefix(f[0], "-")):
			bare = append(bare, f[0])
		}
	}
	counts := explicit
	if len(counts) == 0 {
		counts = bare
	}
	if len(counts) == 0 {
		return 0, errors.New("no count in its output (s mc N, c s exact arb int N, s N, Models : N, or a number on a line of its own)")
	}
	var first *big.Int
	for _, s := range counts {
		v, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return 0, fmt.Errorf("count %s is not an integer", quote.Token(s))
		}
		if v.Sign() < 0 || !v.IsUint64() {
			return 0, fmt.Errorf("count %s is out of range 0..2^64-1", s)
		}
		if first != nil && first.Cmp(v) != 0 {
			return 0, fmt.Errorf("two different counts: %s and %s", first, v)
		}
		first = v
	}
	return first.Uint64(), nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
