package sat

import (
	"context"
	"iter"

	"github.com/queens-dev/queens/board"
)

// Detach returns the result of work, run in a goroutine of its own, or
// ctx's error as soon as ctx ends, whichever comes first. Work that
// cannot be stopped half-way (encoding, loading a formula into gini,
// a gini solve, which takes seconds to notice a stop on a large board)
// is left to finish unseen, or to the exit of the process; the caller
// must not touch what work uses once Detach has returned ctx's error.
// The goroutine is left behind: in a command line that exits, or a server
// that can afford it until the work ends.
func Detach[T any](ctx context.Context, work func() (T, error)) (T, error) {
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

// DetachSeq is seq, produced in a goroutine of its own, ending with
// ctx's error as soon as ctx ends (see [Detach]). The producer computes
// the next solution only when it is asked for, as seq itself would.
// finished reports whether the producer has returned, after which what
// it used may be read again; it has, unless ctx ended the stream.
func DetachSeq(ctx context.Context, seq iter.Seq2[board.Solution, error]) (_ iter.Seq2[board.Solution, error], finished func() bool) {
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
