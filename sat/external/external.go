package external

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat/engine"
)

// ErrSolverNotFound is wrapped by [New]'s error when the command
// is empty or its program cannot be found.
var ErrSolverNotFound = errors.New("SAT solver not found")

// ErrSolverFailed is wrapped by the error of a run of an external solver
// that crashed, exited with an unexpected status or with a status that
// does not match its answer, printed output [ReadResult] cannot read or
// more than the output limit, gave no answer, or answered with a model
// that is not a model of the CNF.
var ErrSolverFailed = errors.New("SAT solver failed")

// ErrProof is wrapped by the error of an UNSATISFIABLE answer whose DRAT
// proof is missing, too large, or does not check.
var ErrProof = errors.New("UNSAT proof rejected")

// ErrNoProof is wrapped by the error of [External.New] when proofs are
// asked for but queens does not know how to ask the solver for one.
var ErrNoProof = errors.New("the solver writes no DRAT proof")

// The limits on what an external solver may write, unless [External]
// sets others: DefaultMaxOutput for its answer (stdout, or the result
// file), DefaultMaxProof for a proof file. A run over a limit fails
// (the solver is killed as soon as its stdout passes the limit). The
// proof's limit bounds the disk and the time it takes; its memory is the
// checker's to bound (the drat package reads a proof as it comes and
// fails with drat.ErrMemory past half the memory the process may use).
const (
	DefaultMaxOutput = 64 << 20
	DefaultMaxProof  = 1 << 30
)

// ProofChecker checks that proof, a DRAT proof (text or binary) written
// by a solver, refutes cnf. It returns nil only for a valid refutation;
// otherwise its error says why, naming the first lemma that fails. The
// drat package's checker fits behind it:
//
//	func(ctx context.Context, cnf *encode.CNF, proof io.Reader) error {
//		_, err := drat.CheckDRAT(ctx, &drat.Formula{Vars: cnf.Vars, Clauses: cnf.Clauses}, proof)
//		return err
//	}
type ProofChecker func(ctx context.Context, cnf *encode.CNF, proof io.Reader) error

// OutputMode says where an external solver writes its answer.
type OutputMode int

// The output modes.
const (
	// OutputProbe finds out by probing (see [External.Probe]); its name
	// is "auto", as the queens command's --solver-output spells it. (Auto,
	// in backtrack and encode, means chosen by the board's size.)
	OutputProbe OutputMode = iota
	// OutputStdout: SAT-competition output (s and v lines) or a bare
	// model on stdout, as cadical, kissat, picosat, cryptominisat5 and
	// clasp write.
	OutputStdout
	// OutputFile: the solver takes a result file after the CNF (solver
	// CNF RESULT) and writes its answer there, as minisat and glucose do.
	OutputFile
)

// String returns the mode's name: auto, stdout or file.
func (m OutputMode) String() string {
	switch m {
	case OutputStdout:
		return "stdout"
	case OutputFile:
		return "file"
	}
	return "auto"
}

// ParseOutputMode reads an output mode's name (auto, stdout or file).
func ParseOutputMode(name string) (OutputMode, error) {
	for _, m := range []OutputMode{OutputProbe, OutputStdout, OutputFile} {
		if name == m.String() {
			return m, nil
		}
	}
	return OutputProbe, fmt.Errorf("unknown solver output %q (auto, stdout or file)", name)
}

// External describes an external DIMACS solver and how to run it.
type External struct {
	// Command is the program and its arguments, split as a shell splits
	// words ([SplitCommand]), without running a shell, e.g.
	// "clasp --heuristic=Vsids,92" or "'/opt/my solver/cadical' -q".
	Command string
	// Output says where the solver writes its answer; OutputProbe probes
	// on the first solve ([External.Probe]).
	Output OutputMode
	// Proof, if not nil, makes every solve ask the solver for a DRAT proof
	// and check it with Proof whenever the answer is UNSATISFIABLE,
	// including the one that ends an enumeration: so a count is certified
	// complete. See [ProofArgs] for the solvers queens can ask.
	Proof ProofChecker
	// MaxOutput and MaxProof bound the answer and the proof in bytes;
	// 0 means [DefaultMaxOutput] and [DefaultMaxProof].
	MaxOutput, MaxProof int64
}

// New returns a Solver that runs the DIMACS solver command on
// cnf; it is External{Command: command}.New(cnf).
func New(cnf *encode.CNF, command string) (*Solver, error) {
	return External{Command: command}.New(cnf)
}

// New returns a Solver that runs the solver on cnf, which must have N set.
// Each solve writes the CNF, with a blocking clause per solution found so
// far, to a temporary file and runs the command with the file's name
// appended, or in place of [CNFPlaceholder] (and, in OutputFile mode, a
// result file's name after it all).
//
// Every answer is checked. The exit status must match the answer, as the
// SAT competition's rules say: 10 with SATISFIABLE, 20 with
// UNSATISFIABLE (clasp's 30, SATISFIABLE with the search space
// exhausted, counts as 10). Every model is checked against the CNF and the
// board; a model that lists only its true literals is read with the
// others false. With Proof set, every UNSATISFIABLE answer comes with a
// DRAT proof that must check.
//
// A missing program wraps [ErrSolverNotFound]; a command with an
// unterminated quote [ErrQuote]; proofs from a solver queens cannot ask
// for one [ErrNoProof]. A failing run wraps [ErrSolverFailed], a rejected
// proof [ErrProof]; a run stopped by ctx returns ctx's error, after the
// process has been killed and reaped. On Unix the command runs in a
// process group of its own, killed when the command ends or is stopped;
// on Linux every process it starts carries a mark in its environment, so
// that processes that leave the group (setsid) are found and killed too
// (and reaped here if the process called [BecomeSubreaper]).
func (x External) New(cnf *encode.CNF) (*Solver, error) {
	if err := checkCNF(cnf); err != nil {
		return nil, err
	}
	argv, err := solverArgv(x.Command)
	if err != nil {
		return nil, err
	}
	ext := &external{x: x, argv: argv, name: filepath.Base(argv[0])}
	if x.Proof != nil {
		if _, _, err := ProofArgs(argv, "PROOF"); err != nil {
			return nil, err
		}
	}
	if ext.x.MaxOutput <= 0 {
		ext.x.MaxOutput = DefaultMaxOutput
	}
	if ext.x.MaxProof <= 0 {
		ext.x.MaxProof = DefaultMaxProof
	}
	return &Solver{cnf: cnf, ext: ext, stats: engine.Stats{Vars: cnf.Vars, Clauses: len(cnf.Clauses)}}, nil
}

// LookSolver checks that command (a program and its arguments, as for
// [External]) names a program that can be run: found on PATH or by its
// path, and executable. Its error wraps [ErrSolverNotFound] or
// [ErrQuote].
func LookSolver(command string) error {
	_, err := solverArgv(command)
	return err
}

// solverArgv splits command and resolves its program.
func solverArgv(command string) ([]string, error) {
	argv, err := SplitCommand(command)
	if err != nil {
		return nil, err
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("%w: empty command", ErrSolverNotFound)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %w", ErrSolverNotFound, argv[0], errors.Unwrap(err))
	}
	argv[0] = path
	return argv, nil
}

// external runs a DIMACS solver command, once per solution.
type external struct {
	x       External
	argv    []string
	name    string  // the program's base name, for messages
	blocked [][]int // blocking clauses of the solutions found so far
	proofs  int     // proofs checked
}

// probeCNF is the formula of [External.Probe]: satisfiable, one model.
const probeCNF = "c queens: probing where the solver writes its answer\np cnf 2 2\n1 0\n-2 0\n"

// Probe finds out where the solver writes its answer, if x.Output is
// OutputProbe, and sets x.Output: it runs the command on a tiny CNF (two
// variables, one model), first as "CMD CNF"; if stdout holds an answer
// [ReadResult] can read, the mode is OutputStdout. Otherwise it runs
// "CMD CNF RESULT"; if RESULT then holds a readable answer, OutputFile.
// If neither, the error (wrapping [ErrSolverFailed]) says what each try
// gave. The probe judges only the form of the answer, not whether it is
// right: that is checked on every real solve.
func (x *External) Probe(ctx context.Context) error {
	if x.Output != OutputProbe {
		return nil
	}
	argv, err := solverArgv(x.Command)
	if err != nil {
		return err
	}
	m, err := probe(ctx, argv, max(x.MaxOutput, 0))
	if err != nil {
		return err
	}
	x.Output = m
	return nil
}

func probe(ctx context.Context, argv []string, maxOut int64) (OutputMode, error) {
	if maxOut == 0 {
		maxOut = DefaultMaxOutput
	}
	dir, err := os.MkdirTemp("", "queens-probe-")
	if err != nil {
		return OutputProbe, fmt.Errorf("probe SAT solver: %w", err)
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "probe.cnf")
	if err := os.WriteFile(in, []byte(probeCNF), 0o644); err != nil {
		return OutputProbe, fmt.Errorf("probe SAT solver: %w", err)
	}
	name := filepath.Base(argv[0])
	argv = fillProof(argv, filepath.Join(dir, "probe.proof"))
	r, err := runSolver(ctx, argv[0], withCNF(argv, in), maxOut)
	if err != nil {
		return OutputProbe, err
	}
	if !r.exited() {
		// A crash is a crash, whatever the output mode.
		return OutputProbe, fmt.Errorf("%w: %s: %v", ErrSolverFailed, name, r.failure())
	}
	_, err = ReadResult(bytes.NewReader(r.stdout))
	if err == nil {
		return OutputStdout, nil
	}
	out := filepath.Join(dir, "result.txt")
	r, err2 := runSolver(ctx, argv[0], withCNF(argv, in, out), maxOut)
	if err2 != nil {
		return OutputProbe, err2
	}
	if r.exited() {
		if data, err3 := readCapped(out, maxOut); err3 != nil {
			err2 = err3
		} else if _, err2 = ReadResult(bytes.NewReader(data)); err2 == nil {
			return OutputFile, nil
		}
	} else {
		err2 = r.failure()
	}
	return OutputProbe, fmt.Errorf("%w: %s: %v; nor does it answer in a result file (%s CNF RESULT): %v; "+
		"cannot tell where it writes its answer", ErrSolverFailed, name, err, name, err2)
}

// fillProof returns argv with [ProofPlaceholder] replaced by path.
func fillProof(argv []string, path string) []string {
	out := slices.Clone(argv)
	for i, w := range out {
		out[i] = strings.ReplaceAll(w, ProofPlaceholder, path)
	}
	return out
}

// readCapped reads the result file the solver wrote, refusing one over
// max bytes or not a regular file (see openSolverFile).
func readCapped(path string, max int64) ([]byte, error) {
	f, err := openSolverFile(path, max)
	if errors.Is(err, errNoFile) {
		return nil, errors.New("no result file written")
	}
	if err != nil {
		return nil, fmt.Errorf("the result file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("the result file: %w", err)
	}
	return data, nil
}

// next runs the solver on cnf with the blocking clauses so far and
// returns its solution, checked and then blocked, or nil for a checked
// UNSATISFIABLE answer.
func (x *external) next(ctx context.Context, cnf *encode.CNF) (board.Solution, error) {
	if x.x.Output == OutputProbe {
		m, err := probe(ctx, x.argv, x.x.MaxOutput)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
		x.x.Output = m
	}
	dir, err := os.MkdirTemp("", "queens-sat-")
	if err != nil {
		return nil, fmt.Errorf("run SAT solver: %w", err)
	}
	defer os.RemoveAll(dir)
	withBlocks := *cnf
	withBlocks.Clauses = append(cnf.Clauses[:len(cnf.Clauses):len(cnf.Clauses)], x.blocked...)
	proof := filepath.Join(dir, "proof.drat")
	res, err := x.solve(ctx, dir, &withBlocks, proof)
	if err != nil {
		return nil, err
	}
	switch res.Status {
	case Unsatisfiable:
		if x.x.Proof != nil {
			if err := x.checkProof(ctx, proof, &withBlocks); err != nil {
				return nil, err
			}
			x.proofs++
		}
		return nil, nil
	case Unknown:
		return nil, fmt.Errorf("%w: %s answered UNKNOWN", ErrSolverFailed, x.name)
	}
	return x.accept(cnf, &withBlocks, res)
}

// solve writes cnf into dir, runs the solver on it (asking for a proof
// written to proof if x.x.Proof is set) and reads its answer, whose exit
// status must match it.
func (x *external) solve(ctx context.Context, dir string, cnf *encode.CNF, proof string) (*Result, error) {
	in := filepath.Join(dir, "in.cnf")
	if err := writeFile(in, cnf); err != nil {
		return nil, fmt.Errorf("run SAT solver: %w", err)
	}
	out := filepath.Join(dir, "out.txt")
	argv := fillProof(x.argv, proof) // a proof nobody checks, if x.x.Proof is nil
	var post []string
	if x.x.Proof != nil {
		var err error
		if argv, post, err = ProofArgs(x.argv, proof); err != nil {
			return nil, err
		}
	}
	if x.x.Output == OutputFile {
		post = append([]string{out}, post...)
	}
	r, err := runSolver(ctx, x.argv[0], withCNF(argv, in, post...), x.x.MaxOutput)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if !r.exited() {
		return nil, fmt.Errorf("%w: %s: %v", ErrSolverFailed, x.name, r.failure())
	}
	output := r.stdout
	if x.x.Output == OutputFile {
		if output, err = readCapped(out, x.x.MaxOutput); err != nil {
			return nil, fmt.Errorf("%w: %s: %v (exit status %d)", ErrSolverFailed, x.name, err, r.code)
		}
	}
	res, err := ReadResult(bytes.NewReader(output))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrSolverFailed, x.name, err)
	}
	if err := checkExitStatus(res.Status, r.code); err != nil {
		return nil, fmt.Errorf("%w: %s %w", ErrSolverFailed, x.name, err)
	}
	return res, nil
}

// accept checks a satisfiable answer: its model must satisfy withBlocks
// (cnf and the blocking clauses) and be a solution of the board; the
// solution is then blocked.
func (x *external) accept(cnf, withBlocks *encode.CNF, res *Result) (board.Solution, error) {
	model := res.Full(cnf.Vars)
	if ok, i := withBlocks.Satisfies(model); !ok {
		return nil, fmt.Errorf("%w: %s: the model falsifies clause %d %v (its queens: %s)",
			ErrSolverFailed, x.name, i+1, withBlocks.Clauses[i], modelQueens(cnf.N, model))
	}
	sol, err := encode.Decode(cnf.N, model)
	if err == nil {
		err = sol.Check()
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w (its queens: %s)", ErrSolverFailed, x.name, err, modelQueens(cnf.N, model))
	}
	block := make([]int, cnf.N)
	for row, col := range sol {
		block[row] = -encode.Var(cnf.N, row, col)
	}
	x.blocked = append(x.blocked, block)
	return sol, nil
}

// checkExitStatus checks a solver's exit status against its answer, by
// the SAT competition's rules.
func checkExitStatus(st Status, code int) error {
	want := ""
	switch {
	case st == Satisfiable && code != 10 && code != 30:
		want = "10"
	case st == Unsatisfiable && code != 20:
		want = "20"
	case st == Unknown && code != 0:
		return nil // an UNKNOWN answer fails anyway
	default:
		return nil
	}
	return fmt.Errorf("answered %s but exited with status %d (SAT-competition rules: %s with %s)", st, code, want, st)
}

// checkProof checks the proof file of an UNSATISFIABLE answer to cnf.
func (x *external) checkProof(ctx context.Context, path string, cnf *encode.CNF) error {
	f, err := openSolverFile(path, x.x.MaxProof)
	if errors.Is(err, errNoFile) {
		return fmt.Errorf("%w: %s answered UNSATISFIABLE but wrote no proof", ErrProof, x.name)
	}
	if err != nil {
		return fmt.Errorf("%w: %s: the proof: %w", ErrProof, x.name, err)
	}
	defer f.Close()
	proof, err := skipRUPHeader(f)
	if err != nil {
		return fmt.Errorf("%w: %s: read proof: %w", ErrProof, x.name, err)
	}
	if err := x.x.Proof(ctx, cnf, proof); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%w: %s's proof of UNSATISFIABLE (%d blocking clauses): %w", ErrProof, x.name, len(x.blocked), err)
	}
	return nil
}

func writeFile(path string, cnf *encode.CNF) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = encode.WriteDIMACS(f, cnf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// modelQueens lists the squares a model puts queens on, 1-based R:C, so
// that an error about a bad model shows the model.
func modelQueens(n int, model []int) string {
	var b strings.Builder
	for _, lit := range model {
		if lit > 0 && lit <= n*n {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%d:%d", (lit-1)/n+1, (lit-1)%n+1)
		}
	}
	if b.Len() == 0 {
		return "none"
	}
	return b.String()
}
