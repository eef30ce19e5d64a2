package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/sat/external"
	"github.com/queens-dev/queens/shard"
	"github.com/urfave/cli/v2"
)

// externalSolvers are the DIMACS solvers compare looks for on PATH.
var externalSolvers = []string{"cadical", "kissat", "minisat", "picosat", "cryptominisat5", "clasp"}

// compareDescription is the help text of compare.
func compareDescription() string {
	return "For each board size in RANGE (8, 1-12, 4,8,10), every engine enumerates the solutions;\n" +
		"each solution is checked as it passes, each engine's set is summarised by a count and an\n" +
		"order-free 128-bit fingerprint, and compared with the backtracker's and with the published\n" +
		"counts (OEIS A000170, A002562). Where two engines disagree, compare re-runs them on parts\n" +
		"of the board until it finds the solutions they disagree on, and prints them.\n\n" +
		"Engines: backtrack; count, the bitboard counter of --count, which only counts (its total\n" +
		"and unique count are compared); join, the half-board join of --count --engine join, an\n" +
		"independent counting algorithm (not with --place); sat/ENCODING for each encoding (" + cmdutil.EncodingNames() + ");\n" +
		"and each external solver found on PATH (" + strings.Join(externalSolvers, ", ") + ") or given with\n" +
		"--solver (repeatable; one command per flag, quoted as a shell would, never split at commas).\n" +
		"External solvers run on the CNF of each encoding in --encoding (default pairwise; the row\n" +
		"is named SOLVER/ENCODING when --encoding is given) and enumerate every solution, re-run\n" +
		fmt.Sprintf("once per solution, up to n = --solver-limit (default %d, about a minute for all of\n", cmdutil.ExternalEnumMax) +
		fmt.Sprintf("them); above it (to %d) they are asked for one model, which must be a valid board. The\n", cmdutil.ExternalFirstMax) +
		"count of an enumeration, which ends with the solver's UNSATISFIABLE, must equal the\n" +
		"backtracker's (and the published count), also with --place; with --proof, each --solver's\n" +
		"final UNSATISFIABLE must come with a DRAT proof that checks. backtrack enumerates up to\n" +
		fmt.Sprintf("n = %d, sat up to %d. By default every engine runs where its limit allows.\n\n", cmdutil.BacktrackEnumMax, cmdutil.SATEnumMax) +
		"--counter CMD (repeatable) adds an external model counter as an engine, named counter:CMD, on\n" +
		"each encoding of --encoding, up to n = --solver-limit: it counts the model counting file\n" +
		"(see queens sat --counter), and, without --place, the file with --break-symmetry's\n" +
		"lex-leader clauses for the unique count (every encoding's models are exactly its solutions,\n" +
		"or classes: no projection). Both are checked against the published counts and the\n" +
		"backtracker's.\n\n" +
		"--strategies compares the algorithms of the backtracker instead of the engines: lex,\n" +
		"iterative, heuristic, cells (n <= 10) and generate (n <= 10) each enumerate every solution,\n" +
		"checked as above (valid, the published count, the same set as lex), with the queens each\n" +
		"placed and the placements generate tested (no times: one run's clock misleads; time a\n" +
		"strategy with backtrack --count --strategy S --stats, or go test -bench); each n ends with\n" +
		"the sizes of generate-and-test's spaces, n! permutations and C(n*n, n) placements: what\n" +
		"pruning saves. A strategy over its board limit is left out of that n, and the table says so.\n\n" +
		"Exit status 0 when everything agrees, 1 on any disagreement or invalid solution, a failing\n" +
		"external solver, or a run stopped by --timeout (the rows done so far are printed, and the\n" +
		"engine that was running is named)."
}

func compareCommand() *cli.Command { return newCompareCommand(runCompareCommand) }

// newCompareCommand returns the compare command; its action reads the
// flags into compareOptions and hands them to run (tests pass their own).
func newCompareCommand(run func(ctx context.Context, o compareOptions, stdout io.Writer) error) *cli.Command {
	return &cli.Command{
		Name:        "compare",
		Usage:       "cross-check the engines, external solvers and the published counts",
		UsageText:   "queens compare -n RANGE [--strategies] [--engines LIST] [--solver CMD ...] [--counter CMD ...] [--encoding LIST] [--solver-limit N] [--proof] [--place R:C ...] [--timeout D] [--json]",
		Description: compareDescription(),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "n", Usage: "board sizes: `RANGE` such as 8, 1-12 or 4,8,10 (n <= " + strconv.Itoa(cmdutil.CompareMaxN) + ")"},
			&cli.StringFlag{Name: "engines", Usage: "comma-separated engines `LIST` (default: all that apply)"},
			&cli.GenericFlag{Name: "solver", Value: &commandList{}, Usage: "also check the external DIMACS solver `CMD` (e.g. 'clasp --heuristic=Vsids,92'); repeatable, not split at commas"},
			&cli.GenericFlag{Name: "counter", Value: &commandList{}, Usage: "also check the external model counter `CMD` (e.g. 'clasp -n 0 -q'); repeatable"},
			&cli.StringFlag{Name: "encoding", Value: "pairwise", Usage: "comma-separated encodings `LIST` the external solvers run on (" + cmdutil.EncodingNames() + ", or all)"},
			&cli.IntFlag{Name: "solver-limit", Value: cmdutil.ExternalEnumMax, Usage: "external solvers enumerate up to board size `N`, and above it give one model"},
			cmdutil.SolverOutputFlag(),
			cmdutil.ProofFlag(),
			cmdutil.PlaceFlag(),
			&cli.BoolFlag{Name: "json", Usage: "JSON Lines: one object per n and engine, then the verdict"},
			&cli.BoolFlag{Name: "strategies", Usage: "compare the backtracker's strategies instead: queens placed per algorithm (see below)"},
			cmdutil.TimeoutFlag(),
		},
		Action: func(c *cli.Context) error {
			o := compareFlags(c)
			if err := o.check(); err != nil {
				return err
			}
			return run(c.Context, o, c.App.Writer)
		},
	}
}

// compareOptions are the flags of queens compare, read once
// (compareFlags) and checked in one place (check).
type compareOptions struct {
	args         []string
	sizesText    string // -n RANGE; "" with sizesSet false: not given
	sizesSet     bool
	engines      string
	enginesSet   bool
	solvers      []string // --solver, one command each
	counters     []string // --counter
	encoding     string
	encodingSet  bool
	solverLimit  int
	solverOutput string
	proof        bool
	place        []string
	json         bool
	strategies   bool
	set          []string // the flags given, by name
	timeout      time.Duration

	// Set by check.
	sizes  []int
	placed []board.Queen
}

// compareFlags reads compare's flags: the one place that looks them up
// by name.
func compareFlags(c *cli.Context) compareOptions {
	return compareOptions{
		args: c.Args().Slice(), sizesText: c.String("n"), sizesSet: c.IsSet("n"),
		engines: c.String("engines"), enginesSet: c.IsSet("engines"),
		solvers: c.Generic("solver").(*commandList).commands, counters: c.Generic("counter").(*commandList).commands,
		encoding: c.String("encoding"), encodingSet: c.IsSet("encoding"), solverLimit: c.Int("solver-limit"),
		solverOutput: c.String("solver-output"), proof: c.Bool("proof"), place: c.StringSlice("place"),
		json: c.Bool("json"), strategies: c.Bool("strategies"), set: c.FlagNames(), timeout: c.Duration("timeout"),
	}
}

// Check checks the options (usage errors, exit status 2): the sizes, the
// pre-placed queens on each, and what goes with --strategies.
func (o *compareOptions) check() error {
	if !o.sizesSet {
		return cmdutil.Usagef("missing -n RANGE, the board sizes (e.g. 8, 1-12 or 4,8,10)")
	}
	if len(o.args) > 0 {
		return cmdutil.Usagef("unexpected argument %q", o.args[0])
	}
	var err error
	if o.sizes, err = parseRange(o.sizesText, cmdutil.CompareMaxN); err != nil {
		return err
	}
	if o.placed, err = board.ParseQueens(o.place); err != nil {
		return cmdutil.UsageErr(err)
	}
	for _, n := range o.sizes {
		if err := board.CheckPlacement(n, o.placed); err != nil {
			return cmdutil.UsageErr(err)
		}
	}
	if o.strategies {
		for _, name := range []string{"engines", "solver", "counter", "encoding", "proof", "json"} {
			if slices.Contains(o.set, name) {
				return cmdutil.Usagef("--strategies compares the backtracker's strategies: not with --%s", name)
			}
		}
	}
	return nil
}

// runCompareCommand runs the cross-check or, with --strategies, the
// backtracker's strategies side by side.
func runCompareCommand(ctx context.Context, o compareOptions, stdout io.Writer) error {
	if o.strategies {
		return runCompareStrategies(ctx, o, stdout)
	}
	return runCompare(ctx, o, stdout)
}

// compareEngine is an engine with the board sizes it takes.
type compareEngine struct {
	compare.Engine
	enumMax, firstMax int
}

// runCompare cross-checks the engines the options name at each size,
// printing a table (or JSON Lines) and the verdict.
func runCompare(parent context.Context, o compareOptions, out io.Writer) error {
	engines, err := compareEngines(o)
	if err != nil {
		return err
	}
	plan, err := comparePlan(o.sizes, engines, o.enginesSet)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	if o.timeout > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, o.timeout)
		defer stop()
	}
	if !o.json {
		fmt.Fprintf(out, "%4s  %-28s %12s %10s %10s  %s\n", "n", "engine", "solutions", "unique", "time", "verdict")
	}
	runs, problems := 0, 0
	for i, n := range o.sizes {
		if err := cmdutil.WriteErr(out); err != nil {
			// Nobody sees the table (compare ... > /dev/full): stop.
			return cmdutil.Failf("write stdout: %v", err)
		}
		r := compare.Check(ctx, n, o.placed, plan[i])
		if err := parent.Err(); err != nil {
			return fmt.Errorf("interrupted at n = %d, after %d runs: %w", n, runs, err)
		}
		if ctx.Err() != nil {
			// Keep the rows done so far, and name the engine that hung.
			done, hung := untilTimeout(r)
			writeCompareResult(out, o.json, done)
			runs += len(done.Outcomes) - 1
			if hung == "" {
				return cmdutil.Failf("stopped by --timeout %s at n = %d, after %d runs", o.timeout, n, runs)
			}
			return cmdutil.Failf("stopped by --timeout %s at n = %d while %s ran, after %d runs", o.timeout, n, hung, runs)
		}
		runs += len(r.Outcomes)
		problems += len(r.Findings)
		writeCompareResult(out, o.json, r)
	}
	return writeCompareVerdict(out, o.json, runs, problems, o.sizesText, len(o.placed) > 0)
}

// comparePlan returns the engines to run at each of sizes: an engine
// enumerates up to its enumMax, finds one model up to its firstMax and
// is left out beyond, unless the user named it (named), which is a
// usage error. Every size is checked before the first run.
func comparePlan(sizes []int, engines []compareEngine, named bool) ([][]compare.Engine, error) {
	plan := make([][]compare.Engine, len(sizes))
	for i, n := range sizes {
		for _, e := range engines {
			switch {
			case n <= e.enumMax:
				plan[i] = append(plan[i], e.Engine)
			case n <= e.firstMax:
				one := e.Engine
				one.FirstOnly = true
				one.Name += " (one model)"
				plan[i] = append(plan[i], one)
			case named:
				return nil, cmdutil.Usagef("engine %s takes n <= %d", e.Name, max(e.enumMax, e.firstMax))
			}
		}
	}
	return plan, nil
}

// writeCompareResult writes the rows of one board size, as JSON lines
// or as table rows.
func writeCompareResult(out io.Writer, jsonOut bool, r compare.Result) {
	if jsonOut {
		writeCompareJSON(out, r)
	} else {
		writeCompareTable(out, r)
	}
}

// writeCompareVerdict writes the last line of a comparison of runs over
// the sizes spelled sizes, and returns the failure when problems > 0.
// With placed queens the engines are checked with each other only.
func writeCompareVerdict(out io.Writer, jsonOut bool, runs, problems int, sizes string, placed bool) error {
	what := fmt.Sprintf("%d runs over n = %s", runs, sizes)
	if problems > 0 {
		if jsonOut {
			cmdutil.WriteJSONLine(out, verdict{"disagree", runs, problems})
		} else {
			fmt.Fprintf(out, "DISAGREE: %d problems in %s\n", problems, what)
		}
		return cmdutil.Failf("compare found %d problems", problems)
	}
	if jsonOut {
		cmdutil.WriteJSONLine(out, verdict{"agree", runs, 0})
	} else {
		against := "each other and with the published counts"
		if placed {
			against = "each other"
		}
		fmt.Fprintf(out, "agree: %s; every solution valid, all engines agree with %s\n", what, against)
	}
	return nil
}

func writeCompareTable(w io.Writer, r compare.Result) {
	for _, t := range r.Outcomes {
		verdict := "ok"
		if rowProblem(r, t) {
			verdict = "MISMATCH"
		}
		if t.Err != nil {
			verdict = "ERROR"
			if errors.Is(t.Err, context.DeadlineExceeded) {
				verdict = "TIMEOUT"
			}
		}
		unique := strconv.FormatUint(t.Unique, 10)
		if len(r.Place) > 0 || strings.HasSuffix(t.Engine, "(one model)") {
			unique = "-"
		}
		fmt.Fprintf(w, "%4d  %-28s %12d %10s %10s  %s\n", r.N, t.Engine, t.Total, unique, roundDuration(t.Elapsed), verdict)
	}
	if p := r.Published; p != nil {
		fmt.Fprintf(w, "%4d  %-28s %12d %10d\n", r.N, "published", p.Total, p.Unique)
	}
	for _, f := range r.Findings {
		fmt.Fprintf(w, "      problem: %s\n", f)
	}
	for _, m := range r.Mismatches {
		if m.MissingCopies == 0 {
			fmt.Fprintf(w, "      only %s has this solution (%s does not):\n", m.Have, m.Missing)
		} else {
			fmt.Fprintf(w, "      %s has this solution %d times, %s %d:\n", m.Have, m.HaveCopies, m.Missing, m.MissingCopies)
		}
		b, _ := board.Append(nil, m.Solution, board.FormatBoard)
		for _, line := range strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n") {
			fmt.Fprintf(w, "        %s", line)
		}
		fmt.Fprintln(w)
	}
}

// rowProblem reports whether one of r's findings fails the engine of t.
func rowProblem(r compare.Result, t compare.Outcome) bool {
	for _, f := range r.Findings {
		if f.Fails(t.Engine) {
			return true
		}
	}
	return false
}

// rowVerified says how a row of compare's JSON is verified: by the
// published table, or by agreeing with the backtracker (the reference when
// it runs first); not at all when it has a problem, or nothing to agree
// with.
func rowVerified(r compare.Result, t compare.Outcome) *cmdutil.Verification {
	switch {
	case t.Err != nil || rowProblem(r, t):
		return &cmdutil.Verification{}
	case r.Published != nil:
		return cmdutil.VerifiedBy(compare.Published)
	case len(r.Outcomes) > 0 && strings.HasPrefix(r.Outcomes[0].Engine, "backtrack"):
		return cmdutil.VerifiedBy(compare.Backtracker)
	}
	return &cmdutil.Verification{}
}

func writeCompareJSON(w io.Writer, r compare.Result) {
	for _, t := range r.Outcomes {
		errText := ""
		if t.Err != nil {
			errText = t.Err.Error()
		}
		fp := t.Fingerprint.String()
		if t.Counted {
			fp = "" // a counter has no solutions to fingerprint
		}
		cmdutil.WriteJSONLine(w, struct {
			N           int     `json:"n"`
			Engine      string  `json:"engine"`
			Total       uint64  `json:"total"`
			Unique      uint64  `json:"unique"`
			Invalid     uint64  `json:"invalid"`
			Seconds     float64 `json:"seconds"`
			Fingerprint string  `json:"fingerprint"`
			Error       string  `json:"error"`
			*cmdutil.Verification
		}{r.N, t.Engine, t.Total, t.Unique, t.InvalidCount, math.Round(t.Elapsed.Seconds()*1e6) / 1e6, fp, errText, rowVerified(r, t)})
	}
	for _, f := range r.Findings {
		cmdutil.WriteJSONLine(w, struct {
			N       int    `json:"n"`
			Problem string `json:"problem"`
		}{r.N, f.String()})
	}
	for _, m := range r.Mismatches {
		cmdutil.WriteJSONLine(w, struct {
			N             int    `json:"n"`
			Mismatch      []int  `json:"mismatch"`
			Have          string `json:"have"`
			HaveCopies    int    `json:"have_copies"`
			Missing       string `json:"missing"`
			MissingCopies int    `json:"missing_copies"`
		}{r.N, m.Solution, m.Have, m.HaveCopies, m.Missing, m.MissingCopies})
	}
}

// verdict is compare's last JSON line.
type verdict struct {
	Verdict  string `json:"verdict"`
	Runs     int    `json:"runs"`
	Problems int    `json:"problems"`
}

func roundDuration(d time.Duration) time.Duration {
	switch {
	case d > time.Second:
		return d.Round(10 * time.Millisecond)
	case d > time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// parseRange reads "8", "1-12", "4,8,10" or a mix, each n in 1..max.
func parseRange(text string, maxN int) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	for _, part := range strings.Split(text, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a > b {
			return nil, cmdutil.Usagef("bad range %q: want N, A-B or a comma-separated list, e.g. 1-12 or 4,8,10", text)
		}
		for n := a; n <= b; n++ {
			if err := board.CheckSize(n, maxN); err != nil {
				return nil, cmdutil.UsageErr(err)
			}
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out, nil
}

// compareEngines builds the engines from --engines (default: backtrack,
// gini with every encoding, and every external solver on PATH) and adds
// each --solver command, on each --encoding. backtrack, the reference,
// always comes first.
func compareEngines(o compareOptions) ([]compareEngine, error) {
	if o.solverLimit < 0 || o.solverLimit > cmdutil.ExternalFirstMax {
		return nil, cmdutil.Usagef("--solver-limit must be between 0 and %d", cmdutil.ExternalFirstMax)
	}
	encodings, err := solverEncodings(o.encoding)
	if err != nil {
		return nil, err
	}
	known := builtinEngines(len(o.placed) > 0)
	picked := []compareEngine{{compare.Engine{Name: "backtrack", Solutions: compare.Backtrack}, cmdutil.BacktrackEnumMax, cmdutil.BacktrackEnumMax}}
	if !o.enginesSet {
		picked = append(picked, known...)
		for _, name := range externalSolvers {
			if _, err := exec.LookPath(name); err == nil {
				es, _ := o.solverEngines(name, true, encodings)
				picked = append(picked, es...)
			}
		}
	}
	for _, name := range strings.Split(o.engines, ",") {
		name = strings.TrimSpace(name)
		i := slices.IndexFunc(known, func(e compareEngine) bool { return e.Name == name })
		switch {
		case name == "" && o.enginesSet:
			return nil, cmdutil.Usagef("--engines: empty engine name in %q", o.engines)
		case name == "" || name == "backtrack":
		case i >= 0:
			picked = append(picked, known[i])
		case slices.Contains(externalSolvers, name):
			if _, err := exec.LookPath(name); err != nil {
				return nil, cmdutil.Usagef("engine %s: not installed (not on PATH)", name)
			}
			es, _ := o.solverEngines(name, true, encodings)
			picked = append(picked, es...)
		default:
			if name == shard.EngineJoin {
				return nil, cmdutil.Usagef("engine join counts whole boards: not with --place")
			}
			return nil, cmdutil.Usagef("unknown engine %q (backtrack, count, join, sat/ENCODING, or an external solver: %s)", name, strings.Join(externalSolvers, ", "))
		}
	}
	for _, cmd := range o.solvers {
		es, err := o.solverEngines(cmd, false, encodings)
		if err != nil {
			return nil, err
		}
		picked = append(picked, es...)
	}
	counters, err := o.counterEngines(encodings)
	return append(picked, counters...), err
}

// builtinEngines are the engines of queens itself but the reference
// backtracker: the counters (the join only without pre-placed queens) and
// gini on each encoding.
func builtinEngines(placed bool) []compareEngine {
	known := []compareEngine{{compare.Engine{Name: "count", Count: compare.Counter}, cmdutil.BacktrackEnumMax, cmdutil.BacktrackEnumMax}}
	if !placed { // the join counts whole boards only
		known = append(known, compareEngine{compare.Engine{Name: shard.EngineJoin, Count: compare.Join}, cmdutil.BacktrackEnumMax, cmdutil.BacktrackEnumMax})
	}
	for _, enc := range encode.Encodings() {
		if enc != encode.Auto {
			known = append(known, compareEngine{compare.Engine{Name: "sat/" + string(enc), Solutions: compare.SAT(enc)}, cmdutil.SATEnumMax, cmdutil.SATEnumMax})
		}
	}
	return known
}

// solverEngines are the external solver command on each of encodings: one
// found on PATH (auto, named by its program) or a --solver.
func (o compareOptions) solverEngines(command string, auto bool, encodings []encode.Encoding) ([]compareEngine, error) {
	x := external.External{Command: command}
	name := command
	if auto {
		name = strings.Fields(command)[0]
	} else {
		var err error
		if x, err = cmdutil.NewExternal(command, o.solverOutput, o.proof); err != nil {
			return nil, err
		}
	}
	var out []compareEngine
	for _, enc := range encodings {
		e := compareEngine{compare.Engine{Name: name, Solutions: compare.ExternalSolver(x, enc)}, o.solverLimit, cmdutil.ExternalFirstMax}
		if o.encodingSet {
			e.Name += "/" + string(enc)
		}
		out = append(out, e)
	}
	return out, nil
}

// counterEngines are the --counter commands on each of encodings.
func (o compareOptions) counterEngines(encodings []encode.Encoding) ([]compareEngine, error) {
	var out []compareEngine
	for _, cmd := range o.counters {
		if err := external.LookSolver(cmd); err != nil {
			return nil, cmdutil.Usagef("--counter: %v", err)
		}
		for _, enc := range encodings {
			e := compareEngine{compare.Engine{Name: "counter:" + cmd, Count: cmdutil.CounterEngine(cmd, enc)}, o.solverLimit, o.solverLimit}
			if o.encodingSet {
				e.Name += "/" + string(enc)
			}
			out = append(out, e)
		}
	}
	return out, nil
}

// solverEncodings reads --encoding: the encodings external solvers run on.
func solverEncodings(list string) ([]encode.Encoding, error) {
	var out []encode.Encoding
	for _, name := range strings.Split(list, ",") {
		enc := encode.Encoding(strings.TrimSpace(name))
		switch {
		case enc == "all":
			for _, enc := range encode.Encodings() {
				if enc != encode.Auto && !slices.Contains(out, enc) {
					out = append(out, enc)
				}
			}
			continue
		case enc == encode.Auto || !slices.Contains(encode.Encodings(), enc):
			return nil, cmdutil.Usagef("--encoding: unknown encoding %q (%s, or all)", enc, cmdutil.EncodingNames())
		}
		if !slices.Contains(out, enc) {
			out = append(out, enc)
		}
	}
	return out, nil
}

// commandList is the value of a repeatable flag whose every use is one
// whole value: solver commands, which may hold commas (urfave/cli's
// string slices split at them).
type commandList struct{ commands []string }

func (l *commandList) Set(value string) error {
	l.commands = append(l.commands, value)
	return nil
}

func (l *commandList) String() string { return strings.Join(l.commands, " ") }

// untilTimeout returns the part of a compare result that a --timeout cut
// short: the rows up to and including the engine that was running when
// time ran out (named in hung), and their problems.
func untilTimeout(r compare.Result) (done compare.Result, hung string) {
	done = r
	done.Outcomes, done.Findings, done.Mismatches = nil, nil, nil
	for _, t := range r.Outcomes {
		done.Outcomes = append(done.Outcomes, t)
		if errors.Is(t.Err, context.DeadlineExceeded) {
			hung = t.Engine
			break
		}
	}
	for _, f := range r.Findings {
		if !errors.Is(f.Err, context.DeadlineExceeded) && f.Kind != compare.LocalizeFailed {
			done.Findings = append(done.Findings, f)
		}
	}
	return done, hung
}
