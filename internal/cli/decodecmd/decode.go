package decodecmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/board/draw"
	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/drat"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/sat/external"
	"github.com/urfave/cli/v2"
)

// Command returns queens decode.
func Command() *cli.Command { return newDecodeCommand(runDecode) }

// newDecodeCommand returns the decode command; its action reads the flags
// into decodeOptions and hands them to run (tests pass their own).
func newDecodeCommand(run func(ctx context.Context, o decodeOptions, stdin io.Reader, stdout, stderr io.Writer) error) *cli.Command {
	return &cli.Command{
		Name:  "decode",
		Usage: "read a SAT solver's output, draw and verify the board",
		UsageText: "queens decode -n N [--cnf FILE [--proof PROOF]] [--format F] [FILE|-]\n" +
			"queens decode --cnf FILE [--proof PROOF] [--format json] [FILE|-]",
		Description: "Reads a solver's answer to the CNF of \"queens dimacs -n N\" from FILE or stdin: SAT\n" +
			"competition output (s SATISFIABLE, v ... 0 lines), minisat's result file (SAT, then the\n" +
			"model) or a bare list of literals; a model that lists only its true literals is read with\n" +
			"the others false. Draws the board of the true variables 1..N*N and checks it: one queen in\n" +
			"every row and column, none on a shared diagonal. With --cnf it also checks that the model\n" +
			"satisfies every clause of that DIMACS file, whose \"c n\" line (if any) must say N.\n\n" +
			"The --cnf file (\"-\": stdin, the answer then from FILE) is read once (a pipe or FIFO\n" +
			"works), and decode first establishes what instance it is from its clauses, not its\n" +
			"header: it compares them, as a set of sets of literals (any order, repeats once), by\n" +
			"hashes, with the CNF queens writes for what the header says, then for every other\n" +
			"encoding, with and without symmetry breaking, with the header's queens or those its\n" +
			"unit clauses place (only candidates of the file's size are generated). A file that is\n" +
			"none of them is noted on stderr: a model must still satisfy it and be a valid board\n" +
			"with the queens its unit clauses place, but \"no solution\" is never said about the\n" +
			"board, and an UNSATISFIABLE answer about it is refuted by a model of its clauses that\n" +
			"gini finds within the referee's budget (files of up to 2^17 variables and 2^21\n" +
			"literals), or settled by an empty clause of the file (\"0\" alone: an empty clause is a\n" +
			"clause, which no model satisfies). A model may use no variable beyond the file's\n" +
			"\"p cnf\" line.\n\n" +
			"An UNSATISFIABLE answer is not taken on trust. With --proof PROOF (and --cnf) the DRAT\n" +
			"proof must refute the CNF; without FILE, decode checks the proof alone. And a referee\n" +
			"checks it as well: the explicit construction (every n >= 4 has solutions), the published\n" +
			"counts, or for the pre-placed queens the backtracker and then gini, whose model, checked\n" +
			"as a board, refutes the answer. A checked answer prints \"no solution\" (exit status 0).\n" +
			"An invalid model, a refuted UNSATISFIABLE or a proof that does not check exits with\n" +
			"status 1 and says why; an answer that neither the referee nor a proof confirms, or the\n" +
			"UNSATISFIABLE of a file that is not the queens instance, is printed and exits with\n" +
			"status 3 (\"verified\": false in JSON); unreadable output, a model for a smaller board, a\n" +
			"--cnf for another n or, with --proof, one beyond the proof checker's limit of 2^30-1\n" +
			"variables, or a malformed proof (a syntax error anywhere) exits with status 2.\n" +
			"--format svg, png and fen draw the board.\n\n" +
			"Without -n, decode --cnf FILE checks the answer against the clauses alone, of any\n" +
			"formula (as CaDiCaL's dimocheck): a model must satisfy every clause (exit status 0,\n" +
			"\"SATISFIABLE: ...\"; one it falsifies is named, exit status 1); an UNSATISFIABLE answer\n" +
			"is confirmed by --proof PROOF (DRAT, LRAT or FRAT, text or binary; the format found is\n" +
			"named) or by an empty clause of the file, refuted by a model of the clauses that gini\n" +
			"finds (exit status 1), or else printed unverified (exit status 3). --format json\n" +
			"prints {\"satisfiable\":true,\"clauses\":C,\"verified\":true,\"verified_by\":\"clauses\"}.\n" +
			"Every input (the answer, the CNF, the proof; stdin too) may be gzip, xz, zstd or bzip2.\n" +
			fmt.Sprintf("Limit: n <= %d.", cmdutil.DecodeMax),
		Flags: []cli.Flag{cmdutil.SizeFlag(),
			&cli.StringFlag{Name: "cnf", Usage: "also check the answer against the DIMACS CNF in `FILE` (\"-\": stdin)"},
			&cli.StringFlag{Name: "proof", Usage: "check the proof in `PROOF` (\"-\": stdin; DRAT, LRAT or FRAT, text or binary) of an UNSATISFIABLE answer to --cnf"},
			cmdutil.FormatFlag(cmdutil.SolutionFormats...), cmdutil.MaxInputFlag()},
		Action: func(c *cli.Context) error {
			o := decodeOptions{args: c.Args().Slice(), n: c.Int("n"), nSet: c.IsSet("n"), formatName: c.String("format"),
				cnf: c.String("cnf"), proof: c.String("proof"), maxInput: c.Int("max-input")}
			if err := o.check(); err != nil {
				return err
			}
			return run(c.Context, o, c.App.Reader, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// decodeOptions are the flags and arguments of queens decode.
type decodeOptions struct {
	args       []string // the answer's FILE, if any
	n          int
	nSet       bool
	formatName string
	cnf        string // --cnf FILE
	proof      string // --proof PROOF
	maxInput   int    // --max-input, MiB

	// Set by check.
	format      board.Format
	answer      string // FILE, "" or "-": stdin
	readsAnswer bool   // false: --proof alone, the proof is the claim
	clausesOnly bool   // --cnf without -n: the answer checked against the clauses alone
}

// Check checks the options (usage errors, exit status 2).
func (o *decodeOptions) check() error {
	if len(o.args) > 1 {
		return cmdutil.Usagef("decode: want at most one FILE, got %d arguments", len(o.args))
	}
	o.clausesOnly = !o.nSet && o.cnf != ""
	if !o.clausesOnly {
		if err := cmdutil.CheckBoardSize(o.n, o.nSet, cmdutil.DecodeMax); err != nil {
			return err
		}
	}
	var err error
	if o.format, err = cmdutil.ParseSolutionFormat(o.formatName); err != nil {
		return cmdutil.UsageErr(err)
	}
	switch {
	case o.clausesOnly && o.format != board.FormatBoard && o.format != board.FormatJSON:
		return cmdutil.Usagef("decode --cnf without -n checks the answer against the clauses alone and says so in a line, or in JSON (--format json): --format %s draws a board (-n N)", o.format)
	case o.format == board.FormatFEN && o.n != 8:
		return cmdutil.Usagef("--format fen is for n = 8 only (a chessboard)")
	case cmdutil.IsPicture(o.format) && o.n > draw.MaxN:
		return cmdutil.Usagef("--format %s draws boards up to n = %d", o.format, draw.MaxN)
	case o.proof != "" && o.cnf == "":
		return cmdutil.Usagef("decode: --proof needs --cnf, the formula the proof refutes")
	case o.proof != "" && cmdutil.ProofChecker == nil:
		return cmdutil.Usagef("decode: --proof: this build of queens has no proof checker")
	}
	if len(o.args) == 1 {
		o.answer = o.args[0]
	}
	o.readsAnswer = o.proof == "" || len(o.args) == 1
	if o.cnf == "-" && o.readsAnswer && (o.answer == "" || o.answer == "-") {
		return cmdutil.Usagef("decode: --cnf - reads the CNF from stdin, so the answer cannot come from there too: name its FILE")
	}
	switch {
	case o.proof == "-" && o.cnf == "-":
		return cmdutil.Usagef("decode: --cnf - and --proof - both read stdin: name a file for one of them")
	case o.proof == "-" && o.readsAnswer && o.answer == "-":
		return cmdutil.Usagef("decode: --proof - reads the proof from stdin, so the answer cannot come from there too: name its FILE, or leave it out (the proof is the claim)")
	}
	return nil
}

// decoder is one run of decode: its options, its input and output.
type decoder struct {
	decodeOptions
	stdin          io.Reader
	stdout, stderr io.Writer
}

// Limit is the cap on each input, in bytes (--max-input).
func (d *decoder) limit() int64 { return int64(d.maxInput) << 20 }

// runDecode reads the answer and the CNF, and checks the one against the
// other and the board.
func runDecode(ctx context.Context, o decodeOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	d := &decoder{decodeOptions: o, stdin: stdin, stdout: stdout, stderr: stderr}
	res := &external.Result{Status: external.Unsatisfiable} // --proof alone: the proof is the claim
	if d.readsAnswer {
		var err error
		if res, err = d.readAnswer(ctx); err != nil {
			if d.cnf != "" {
				// A bad --cnf is the first thing to say, as when it
				// was read first.
				if _, cerr := d.readInstance(ctx, &external.Result{}, false); cerr != nil {
					return cerr
				}
			}
			return err
		}
	}
	switch {
	case res.Status == external.Unknown:
		return cmdutil.Failf("decode: the solver gave no answer (UNKNOWN)")
	case d.proof != "" && res.Status == external.Satisfiable:
		return cmdutil.Usagef("decode: --proof checks an UNSATISFIABLE answer, but this one is SATISFIABLE")
	case d.clausesOnly:
		return d.decodeClauses(ctx, res)
	}
	// The CNF is read once, after the answer: its clauses are hashed to
	// find what instance it is, checked against the model, and kept only
	// for an UNSATISFIABLE answer (a proof, or a witness that refutes it).
	inst := &instance{n: d.n, falsified: -1}
	if d.cnf != "" {
		var err error
		if inst, err = d.readInstance(ctx, res, res.Status == external.Unsatisfiable); err != nil {
			return err
		}
	}
	var err error
	if res.Status == external.Unsatisfiable {
		err = d.decodeUnsat(ctx, inst)
	} else {
		err = d.decodeModel(inst, res)
	}
	// How the file differs from its header goes with an answer; a failed
	// Check is one line.
	if inst.note != "" && (err == nil || cmdutil.ExitCode(err) == cmdutil.ExitUnverified) {
		fmt.Fprintf(d.stderr, "queens: note: %s\n", inst.note)
	}
	return err
}

// open opens the input path ("-": stdin) within --max-input, and returns
// it with the function that closes it.
func (d *decoder) open(ctx context.Context, path string) (io.Reader, func(), error) {
	if path == "" || path == "-" {
		in, err := cmdutil.InputReader(ctx, &cmdutil.AsyncReader{Ctx: ctx, R: d.stdin}, d.limit())
		return in, func() {}, err
	}
	f, err := cmdutil.OpenInputLimit(ctx, path, d.limit())
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// readAnswer reads the solver's answer from FILE ("" or "-": stdin). With
// the --cnf file regular, the answer is read against the variables its
// "p cnf" line announces, stopping at the first literal beyond them.
func (d *decoder) readAnswer(ctx context.Context) (*external.Result, error) {
	path, cnfPath := d.answer, d.cnf
	in, closeIn, err := d.open(ctx, path)
	switch {
	case err != nil && (path == "" || path == "-"):
		return nil, cmdutil.Usagef("decode: stdin: %v", err)
	case err != nil:
		return nil, cmdutil.Usagef("decode: %v", cmdutil.UnwrapPath(err))
	}
	defer closeIn()
	vars := cnfVars(cnfPath)
	res, err := external.ReadResultVars(in, vars)
	if be := (*external.BeyondError)(nil); errors.As(err, &be) {
		return nil, cmdutil.Failf("decode: not a model of %s: its literal %d is beyond the %d variables of its \"p cnf\" line", cnfPath, be.Literal, be.Vars)
	}
	if err != nil {
		return nil, cmdutil.Usagef("decode: %v", err)
	}
	return res, nil
}

// cnfVars returns the variables the "p cnf" line of the regular file
// cnfPath announces, or encode.MaxVars where there is none to read
// before the answer (no --cnf, stdin, a pipe, a damaged file: the CNF
// itself is judged when it is read).
func cnfVars(cnfPath string) int {
	if cnfPath == "" || cnfPath == "-" {
		return encode.MaxVars
	}
	if st, err := os.Stat(cnfPath); err != nil || !st.Mode().IsRegular() {
		return encode.MaxVars // opening a FIFO would wait for, and take, the CNF's bytes
	}
	f, err := os.Open(cnfPath)
	if err != nil {
		return encode.MaxVars
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return encode.MaxVars // swapped for something else since
	}
	cnf, err := encode.ReadDIMACSHeader(f)
	if err != nil {
		return encode.MaxVars
	}
	return cnf.Vars
}

// decodeUnsat checks an UNSATISFIABLE answer: the proof, if any, must
// refute the CNF; then, if the CNF is exactly the queens instance, the
// Referee judges the answer about the board. "no solution" is printed
// only about that instance: of another formula, nothing is said about the
// board.
func (d *decoder) decodeUnsat(ctx context.Context, inst *instance) error {
	w, format, proofPath := d.stdout, d.format, d.proof
	if proofPath != "" {
		if _, err := d.checkProofFile(ctx, inst.formula(), inst.path); err != nil {
			return err
		}
	}
	if !inst.exact && inst.path != "" {
		why := "the proof refutes the file, not the board"
		if proofPath == "" {
			var err error
			if _, why, err = inst.judgeUnsat(ctx); err != nil {
				return err
			}
		}
		if err := writeOther(w, format, inst.n); err != nil {
			return err
		}
		return &cmdutil.ExitError{Code: cmdutil.ExitUnverified, Err: fmt.Errorf("unverified: the solver answered UNSATISFIABLE of %s, which is not exactly an n = %d queens instance: nothing is said about the board; %s",
			inst.path, inst.n, why)}
	}
	ref := &cmdutil.Referee{Ctx: ctx, Cmd: "decode", Solver: "the solver", N: inst.n, Place: inst.place,
		Certified: func() bool { return proofPath != "" }}
	if err := ref.Check(0); err != nil {
		return err
	}
	if err := cmdutil.WriteNone(w, format, inst.n, ref.Verified()); err != nil {
		return err
	}
	return ref.Unverified(nil)
}

// judgeUnsat judges an UNSATISFIABLE answer about the file's formula
// without a proof: an empty clause settles it (proved); a model of its
// clauses that gini finds within the referee's budget refutes it (exit
// status 1); otherwise it stays unproved, and why says so.
func (inst *instance) judgeUnsat(ctx context.Context) (proved bool, why string, err error) {
	cnf := inst.formula()
	if empty := emptyClause(cnf); empty >= 0 {
		return true, fmt.Sprintf("its clause %d is empty, so the file is unsatisfiable", empty+1), nil
	}
	why = "no proof was checked (--proof)"
	model, err := compare.Referee{Budget: cmdutil.RefereeTime}.Model(ctx, cnf)
	switch {
	case errors.Is(err, compare.ErrModelSize):
		return false, why + fmt.Sprintf(", and the file is %v", err), nil
	case err != nil:
		return false, "", err
	case model != nil:
		return false, "", cmdutil.Failf("decode: the solver answered UNSATISFIABLE of %s, but gini finds a model of it, checked against each of its %d clauses",
			inst.path, len(cnf.Clauses))
	}
	return false, why + fmt.Sprintf(", and gini found no model of it within %v", cmdutil.RefereeTime), nil
}

// writeOther says that a formula other than the queens instance is
// unsatisfiable, without a word about the board: in JSON
// {"n":N,"instance":false,"satisfiable":false,"verified":false}.
func writeOther(w io.Writer, format board.Format, n int) error {
	if format == board.FormatJSON {
		return cmdutil.WriteJSONLine(w, struct {
			N           int  `json:"n"`
			Instance    bool `json:"instance"`
			Satisfiable bool `json:"satisfiable"`
			cmdutil.Verification
		}{N: n})
	}
	_, err := io.WriteString(w, "unsatisfiable, but not the queens instance: nothing said about the board\n")
	return err
}

// decodeModel draws and checks a model: a valid board, with the queens the
// instance pre-places, satisfying every clause of the CNF.
func (d *decoder) decodeModel(inst *instance, res *external.Result) error {
	sol, err := encode.Decode(inst.n, res.Full(inst.n*inst.n))
	if errors.Is(err, encode.ErrModelSize) {
		return cmdutil.Usagef("decode: %v", err)
	}
	if err != nil {
		return cmdutil.Failf("decode: invalid model: %v", err)
	}
	sw := &cmdutil.SolutionWriter{W: d.stdout, Format: d.format, Image: &draw.Options{Place: inst.place}}
	if err := sw.Write(sol); err != nil {
		return err
	}
	if err := sol.Check(); err != nil {
		return cmdutil.Failf("decode: invalid model: %v", err)
	}
	if !sol.Contains(inst.place) {
		return cmdutil.Failf("decode: invalid model: a queen pre-placed in %s is missing", inst.path)
	}
	if lit := beyond(res.Model, inst.vars); lit != 0 {
		return cmdutil.Failf("decode: not a model of %s: its literal %d is beyond the %d variables of its \"p cnf\" line", inst.path, lit, inst.vars)
	}
	if inst.falsified >= 0 {
		return cmdutil.Failf("decode: not a model of %s: clause %d %v is false", inst.path, inst.falsified+1, inst.clause)
	}
	return nil
}

// checkProofFile checks the DRAT proof in --proof's file against cnf (read
// from cnfPath): exit status 1 naming the first lemma that fails.
func (d *decoder) checkProofFile(ctx context.Context, cnf *encode.CNF, cnfPath string) (format string, err error) {
	path := d.proof
	if cnf.Vars > drat.MaxVar {
		return "", cmdutil.Usagef("decode: --proof: %s has %d variables, beyond the proof checker's limit of %d", cnfPath, cnf.Vars, drat.MaxVar)
	}
	f, closeProof, err := d.open(ctx, path) // "-": stdin
	if err != nil {
		return "", cmdutil.Usagef("decode: --proof: %v", cmdutil.UnwrapPath(err))
	}
	defer closeProof()
	if path == "-" {
		path = "on stdin"
	}
	if format, err = cmdutil.CheckProofFormat(ctx, cnf, f); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		// Past the input limit or the memory: the input, not a
		// refutation, is bad.
		if errors.Is(err, cmdutil.ErrInputSize) || errors.Is(err, drat.ErrMemory) {
			return "", cmdutil.Usagef("decode: --proof %s: %v", path, err)
		}
		// Not a proof, wherever that shows (a syntax error in any
		// format, NULs, a CNF): exit status 2, as for any malformed
		// input; a proof that fails to refute is status 1.
		var pe *drat.ParseError
		if errors.As(err, &pe) {
			return "", cmdutil.Usagef("decode: --proof %s is malformed: %v", path, err)
		}
		return "", cmdutil.Failf("decode: the proof %s does not refute %s: %v", path, cnfPath, err)
	}
	return format, nil
}

// instance is what decode established about the --cnf file: whether it
// is exactly the queens instance of n (exact) with the queens place
// pre-placed, found by hashing its clauses against the ones queens
// writes; for another formula, the queens its unit clauses place.
type instance struct {
	path      string
	n         int
	place     []board.Queen
	exact     bool
	vars      int         // the variables of its "p cnf" line
	note      string      // for stderr: how the file differs from its header
	cnf       *encode.CNF // the header, and with formula the clauses, kept for an UNSATISFIABLE answer (nil otherwise)
	lits      []int32     // the clauses kept, until formula
	ends      []int
	falsified int   // the first clause the model falsifies, -1 if none
	clause    []int // that clause
	clauses   int   // without -n: the clauses read
}

// formula returns the formula of the file, its clauses kept by
// readInstance (nil if none were), made into [encode.CNF] clauses the
// first time. The clause ends decide: a file of empty clauses keeps no
// literal, and each of its clauses still counts.
func (inst *instance) formula() *encode.CNF {
	if inst.cnf != nil && inst.ends != nil {
		wide := make([]int, len(inst.lits))
		for i, lit := range inst.lits {
			wide[i] = int(lit)
		}
		inst.cnf.Clauses = encode.SplitClauses(wide, inst.ends)
		inst.lits, inst.ends = nil, nil
	}
	return inst.cnf
}

// emptyClause returns the index of the formula's first empty clause, -1
// if it has none: a formula with one has no model, and needs no proof.
func emptyClause(cnf *encode.CNF) int {
	return slices.IndexFunc(cnf.Clauses, func(c []int) bool { return len(c) == 0 })
}

// readInstance reads the --cnf file once: its header (whose "c n" must
// be n), the hash of its clauses, the unit clauses on board variables,
// the first clause the model of res falsifies, and, if keep, all the
// clauses. Then it establishes the instance (see identify).
func (d *decoder) readInstance(ctx context.Context, res *external.Result, keep bool) (*instance, error) {
	path, n := d.cnf, d.n
	in, closeIn, err := d.open(ctx, path)
	if path == "-" {
		path = "stdin"
	} else if err != nil {
		err = cmdutil.UnwrapPath(err)
	}
	if err != nil {
		return nil, cmdutil.Usagef("read %s: %v", path, err)
	}
	defer closeIn()
	inst := &instance{path: path, n: n, falsified: -1}
	truth := modelTruth(res.Model)
	var hash encode.ClauseHash
	units := make(map[int]bool) // positive units on board variables
	var lits []int32            // the clauses kept: 4 bytes a literal (each within ±(2^31-2))
	var ends []int
	index := 0
	header, err := encode.ScanDIMACS(in, func(clause []int) error {
		hash.Add(clause)
		if len(clause) == 1 && clause[0] > 0 && clause[0] <= n*n {
			units[clause[0]] = true
		}
		if inst.falsified < 0 && res.Status == external.Satisfiable && !satisfied(clause, truth) {
			inst.falsified, inst.clause = index, slices.Clone(clause)
		}
		if keep {
			for _, lit := range clause {
				lits = append(lits, int32(lit))
			}
			ends = append(ends, len(lits))
		}
		index++
		return nil
	})
	if err != nil {
		return nil, cmdutil.Usagef("read %s: %v", path, err)
	}
	if d.clausesOnly {
		inst.vars, inst.clauses = header.Vars, index
		if keep {
			inst.cnf, inst.lits, inst.ends = header, lits, ends
		}
		return inst, nil // any formula: no instance to establish
	}
	if header.N > 0 && header.N != n {
		return nil, cmdutil.Usagef("decode: %s is the CNF of n = %d (its \"c n\" line), not of -n %d", path, header.N, n)
	}
	if keep {
		inst.cnf, inst.lits, inst.ends = header, lits, ends
	}
	var placed []board.Queen
	for v := range units {
		placed = append(placed, board.Queen{Row: (v - 1) / n, Col: (v - 1) % n})
	}
	slices.SortFunc(placed, func(a, b board.Queen) int { return (a.Row*n + a.Col) - (b.Row*n + b.Col) })
	return inst, inst.identify(ctx, header, &hash, placed)
}

// identify establishes the instance from the hash of its clauses: the
// one the header describes, if the clauses are exactly that; else the
// one the unit clauses describe (placed), if they are exactly that; else
// none (exact false, with the queens of the unit clauses).
func (inst *instance) identify(ctx context.Context, header *encode.CNF, hash *encode.ClauseHash, placed []board.Queen) error {
	n, path := inst.n, inst.path
	// The candidates, decided from the clauses: what the header says
	// first, then every other encoding and symmetry breaking, with the
	// header's queens or those of the unit clauses (Identify generates
	// only those of the file's size, each until its first clause the file
	// lacks). The "c t mc" line changes no clause.
	encs := encode.Encodings()
	syms := []bool{false, true}
	places := [][]board.Queen{placed}
	if header.N > 0 {
		if i := slices.Index(encs, header.Encoding); i > 0 {
			encs[0], encs[i] = encs[i], encs[0]
		}
		if len(header.Symmetries) > 0 {
			syms = []bool{true, false}
		}
		places = [][]board.Queen{header.Place, placed}
	}
	opt, ok, err := encode.Identify(ctx, hash, header.Vars, n, encs, syms, places)
	if err != nil {
		return err
	}
	inst.exact, inst.vars = ok, header.Vars
	switch {
	case ok:
		inst.place = opt.Place
		e, _ := encode.NewEncoder(n, opt)
		_, size := e.Size()
		inst.note = headerNote(path, header, opt, hash.Clauses-size)
	case board.CheckPlacement(n, placed) == nil:
		inst.place = placed
		inst.note = fmt.Sprintf("%s is not exactly the n = %d queens instance %s: a model is checked against its clauses and the board (queens pre-placed by its unit clauses: %s), and no \"no solution\" is said about the board",
			path, n, describedBy(header), queensText(placed))
	default:
		inst.note = fmt.Sprintf("%s is not exactly the n = %d queens instance %s, and its unit clauses place attacking queens", path, n, describedBy(header))
	}
	return nil
}

// headerNote says how the header of the queens instance at path differs
// from what its clauses are (opt), and by how many clauses it has more
// (repeats added) or fewer (repeats dropped) than queens writes; "" if in
// nothing.
func headerNote(path string, header *encode.CNF, opt encode.Options, extra int) string {
	var diffs []string
	if header.N > 0 {
		e, _ := encode.NewEncoder(header.N, opt)
		if header.Encoding != e.Encoding() {
			diffs = append(diffs, fmt.Sprintf("its \"c encoding\" line says %s, but its clauses are %s", orNone(string(header.Encoding)), e.Encoding()))
		}
		if got := e.Symmetries(); !slices.Equal(header.Symmetries, got) {
			diffs = append(diffs, fmt.Sprintf("its header breaks %d symmetries, but its clauses %d", len(header.Symmetries), len(got)))
		}
		if !slices.Equal(opt.Place, header.Place) {
			diffs = append(diffs, fmt.Sprintf("its \"c placed\" line says %s, but its clauses place %s", queensText(header.Place), queensText(opt.Place)))
		}
	}
	var parts []string
	if len(diffs) > 0 {
		parts = append(parts, strings.Join(diffs, "; ")+": decided from the clauses")
	}
	switch {
	case extra > 0:
		parts = append(parts, fmt.Sprintf("it repeats %d clauses more than queens writes, compared as a set", extra))
	case extra < 0:
		parts = append(parts, fmt.Sprintf("it repeats %d clauses fewer than queens writes, compared as a set", -extra))
	}
	if len(parts) == 0 {
		return ""
	}
	return path + ": " + strings.Join(parts, "; ")
}

// orNone returns s, or "none" for "".
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// beyond returns the first literal of model beyond the vars variables of
// a formula (0 if none, or vars is 0: no formula).
func beyond(model []int, vars int) int {
	for _, lit := range model {
		if vars > 0 && (lit > vars || -lit > vars) {
			return lit
		}
	}
	return 0
}

// describedBy says which instance a CNF's header describes, for notes.
func describedBy(header *encode.CNF) string {
	if header.N == 0 {
		return "(it has no queens header)"
	}
	return "its header describes"
}

// queensText lists queens 1-based ("none" for none).
func queensText(qs []board.Queen) string {
	if len(qs) == 0 {
		return "none"
	}
	parts := make([]string, len(qs))
	for i, q := range qs {
		parts[i] = q.String()
	}
	return strings.Join(parts, " ")
}

// modelTruth returns the variables a model sets true (a variable it does
// not list is false, as encode.CNF.Satisfies reads it), sorted: 4 bytes
// each (every literal is within ±encode.MaxVars), where a map took ten
// times that.
func modelTruth(model []int) []int32 {
	positive := 0
	for _, lit := range model {
		if lit > 0 {
			positive++
		}
	}
	truth := make([]int32, 0, positive)
	for _, lit := range model {
		if lit > 0 {
			truth = append(truth, int32(lit))
		}
	}
	slices.Sort(truth)
	return truth
}

// satisfied reports whether clause has a literal true under truth.
func satisfied(clause []int, truth []int32) bool {
	for _, lit := range clause {
		_, set := slices.BinarySearch(truth, int32(max(lit, -lit)))
		if (lit > 0) == set {
			return true
		}
	}
	return false
}
