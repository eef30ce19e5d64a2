package cli

import (
	"context"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
)

// compareStrategies are the strategies of compare --strategies, the
// reference first.
var compareStrategies = []backtrack.Strategy{backtrack.Lex, backtrack.Iterative, backtrack.Heuristic, backtrack.Cells, backtrack.Generate}

// strategyEngine is one strategy of the backtracker as an engine of
// compare.Check, keeping the statistics of its last run in *stats.
func strategyEngine(s backtrack.Strategy, stats *backtrack.Stats) compare.Engine {
	return compare.Engine{Name: s.String(), Solutions: func(ctx context.Context, n int, place []board.Queen) iter.Seq2[board.Solution, error] {
		return func(yield func(board.Solution, error) bool) {
			stopped := false
			st, err := backtrack.Search(ctx, n, backtrack.Options{Strategy: s, Place: place}, func(sol board.Solution) bool {
				stopped = !yield(sol, nil)
				return !stopped
			})
			*stats = st
			if err != nil && !stopped {
				yield(nil, err)
			}
		}
	}}
}

// runCompareStrategies is compare --strategies: for each n, every
// strategy of the backtracker enumerates the solutions, each checked as
// compare checks any engine's (valid, as many as published, the same set
// as lex's), with the queens each placed: what pruning saves. No time:
// a single run's wall clock misleads (iterative looked 4 to 80 times
// slower than lex, where over repeated runs their CPU times are within a
// few percent). Strategies beyond their board limit are left out of that
// n, with a line that says so.
func runCompareStrategies(parent context.Context, o compareOptions, out io.Writer) error {
	ctx, cancel := cmdutil.TimeoutContext(parent, o.timeout)
	defer cancel()
	sizes, place := o.sizes, o.placed
	fmt.Fprintf(out, "%4s  %-10s %10s %14s %12s  %s\n", "n", "strategy", "solutions", "queens placed", "tested", "verdict")
	problems := 0
	for _, n := range sizes {
		stats := make([]backtrack.Stats, len(compareStrategies))
		var engines []compare.Engine
		var used []int
		var over []string
		for i, s := range compareStrategies {
			if n <= s.MaxN() {
				engines = append(engines, strategyEngine(s, &stats[i]))
				used = append(used, i)
			} else {
				over = append(over, fmt.Sprintf("%s (n <= %d)", s, s.MaxN()))
			}
		}
		r := compare.Check(ctx, n, place, engines)
		if err := parent.Err(); err != nil {
			return fmt.Errorf("interrupted at n = %d: %w", n, err)
		}
		if ctx.Err() != nil {
			return cmdutil.Failf("stopped by --timeout %s at n = %d", o.timeout, n)
		}
		writeStrategyRows(out, r, used, stats)
		if len(over) > 0 {
			fmt.Fprintf(out, "      left out, over their board limit: %s\n", strings.Join(over, ", "))
		}
		problems += len(r.Findings)
	}
	if problems > 0 {
		fmt.Fprintf(out, "DISAGREE: %d problems\n", problems)
		return cmdutil.Failf("compare found %d problems", problems)
	}
	against := "the published counts and lex"
	if len(place) > 0 {
		against = "lex"
	}
	_, err := fmt.Fprintf(out, "agree: every solution valid, every strategy agrees with %s\n", against)
	return err
}

// writeStrategyRows writes the rows of one n: one per strategy, then the
// published count and the search space of generate-and-test.
func writeStrategyRows(w io.Writer, r compare.Result, used []int, stats []backtrack.Stats) {
	for k, t := range r.Outcomes {
		st := stats[used[k]]
		verdict := "ok"
		for _, f := range r.Findings {
			if f.Fails(t.Engine) {
				verdict = "MISMATCH"
			}
		}
		if t.Err != nil {
			verdict = "ERROR"
		}
		tested := "-"
		if compareStrategies[used[k]] == backtrack.Generate {
			tested = strconv.FormatUint(st.Candidates, 10)
		}
		fmt.Fprintf(w, "%4d  %-10s %10d %14d %12s  %s\n", r.N, t.Engine, t.Total, st.Nodes, tested, verdict)
	}
	if p := r.Published; p != nil {
		fmt.Fprintf(w, "%4d  %-10s %10d\n", r.N, "published", p.Total)
	}
	placements, perms := backtrack.SearchSpace(r.N)
	fmt.Fprintf(w, "      generate-and-test: %d! = %v permutations, C(%d, %d) = %v placements\n", r.N, perms, r.N*r.N, r.N, placements)
	for _, f := range r.Findings {
		fmt.Fprintf(w, "      problem: %s\n", f)
	}
}
