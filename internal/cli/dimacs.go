package cli

import (
	"context"
	"fmt"
	"iter"

	"github.com/queens-dev/queens/board"

	"github.com/queens-dev/queens/encode"
	"github.com/urfave/cli/v2"
)

func dimacsCommand() *cli.Command {
	return &cli.Command{
		Name:      "dimacs",
		Usage:     "write the puzzle as a DIMACS CNF for any SAT solver",
		UsageText: "queens dimacs -n N [--encoding E] [--place R:C ...] [-o FILE|-]",
		Description: "Writes the CNF: a c header (generator, n, encoding, pre-placed queens, variable map),\n" +
			"one \"p cnf V C\" line, one clause per line ending in 0. The queen at ROW:COL (1-based) is\n" +
			"variable (ROW-1)*N + COL; auxiliary variables of seq and commander follow the N*N board\n" +
			"variables. The same flags always give the same bytes.\n\n" +
			fmt.Sprintf("Limits: n <= %d with pairwise (auto: n <= 40), n <= %d with seq or commander.",
				encode.MaxN("pairwise"), encode.MaxN("commander")),
		Flags:  []cli.Flag{sizeFlag(), encodingFlag(), placeFlag(), outFlag()},
		Action: runDimacs,
	}
}

func runDimacs(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("dimacs: unexpected argument %q", c.Args().First())
	}
	name, err := encode.Resolve(encode.Encoding(c.String("encoding")), max(c.Int("n"), 1))
	if err != nil {
		return usageErr(err)
	}
	n, err := boardSize(c, encode.MaxN(name))
	if err != nil {
		return err
	}
	placed, err := placements(c, n)
	if err != nil {
		return err
	}
	out, err := openOutputContext(c.Context, c.String("output"), c.App.Writer)
	if err != nil {
		return err
	}
	cnf, err := encodeQueens(c.Context, n, name, placed)
	if err != nil {
		out.Abort()
		return err
	}
	w := &ctxWriter{ctx: c.Context, w: out}
	err = encode.WriteDIMACS(w, cnf)
	if c.Context.Err() != nil {
		err = fmt.Errorf("interrupted after writing %d of the CNF's bytes%s: %w", w.written, out.notWritten(), c.Context.Err())
	}
	return out.finish(err)
}

// encodeQueens is [encode.Queens] that returns when ctx is done: encoding
// a large board takes seconds (n = 200 pairwise, 13 million clauses) and
// cannot be stopped half-way, so an interrupted run returns at once and
// leaves the encoder to the exit (see detached). Errors of encode.Queens
// are input errors.
func encodeQueens(ctx context.Context, n int, name encode.Encoding, placed []board.Queen) (*encode.CNF, error) {
	cnf, err := detached(ctx, func() (*encode.CNF, error) { return encode.Queens(n, name, placed) })
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("interrupted while encoding n = %d: %w", n, err)
	}
	return cnf, usageErr(err)
}

// detached returns the result of work, run in a goroutine of its own, or
// ctx's error as soon as ctx ends, whichever comes first. Work that
// cannot be stopped half-way (encoding, loading a formula into gini,
// a gini solve, which takes seconds to notice a stop on a large board)
// is left to finish unseen, or to the exit of the process; the caller
// must not touch what work uses once detached has returned ctx's error.
func detached[T any](ctx context.Context, work func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := work()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// detachedSeq is seq, produced in a goroutine of its own, ending with
// ctx's error as soon as ctx ends (see detached). The producer computes
// the next solution only when it is asked for, as seq itself would.
// finished reports whether the producer has returned, after which what
// it used may be read again; it has, unless ctx ended the stream.
func detachedSeq(ctx context.Context, seq iter.Seq2[board.Solution, error]) (_ iter.Seq2[board.Solution, error], finished func() bool) {
	done := make(chan struct{})
	close(done) // nothing runs until the stream is read
	out := func(yield func(board.Solution, error) bool) {
		type item struct {
			s   board.Solution
			err error
		}
		items, more, stop := make(chan item), make(chan struct{}), make(chan struct{})
		done = make(chan struct{})
		go func() {
			defer close(done)
			defer close(items)
			seq(func(s board.Solution, err error) bool {
				select {
				case items <- item{s, err}:
				case <-stop:
					return false
				}
				select {
				case <-more:
					return true
				case <-stop:
					return false
				}
			})
		}()
		defer func() {
			close(stop)
			if ctx.Err() == nil {
				<-done // a stop the producer sees at once
			}
		}()
		for {
			select {
			case it, ok := <-items:
				if !ok || !yield(it.s, it.err) {
					return
				}
				more <- struct{}{}
			case <-ctx.Done():
				yield(nil, ctx.Err())
				return
			}
		}
	}
	return out, func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
}
