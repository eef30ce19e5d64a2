package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/internal/quote"
	"github.com/urfave/cli/v2"
)

// maxCheckInput bounds what check reads from stdin: a 1000×1000 matrix is
// about 2 MB.
const maxCheckInput = 4 << 20

// maxCheckConflicts is how many attacking pairs check names; it counts
// the others.
const maxCheckConflicts = 20

func checkCommand() *cli.Command { return newCheckCommand(runCheck) }

// newCheckCommand returns the check command; its action reads the flags
// into checkOptions and hands them to run (tests pass their own).
func newCheckCommand(run func(ctx context.Context, o checkOptions, stdin io.Reader, stdout io.Writer) error) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "check an answer: are these queens a solution?",
		UsageText: "queens check [-n N] [ANSWER ...]     (the answer as arguments, or on stdin)",
		Description: fmt.Sprintf(`Reads one placement and says whether it solves the N-queens puzzle, or which
queens attack each other and along which line. The answer may be written as
  perm     the column of the queen in each row:         1 5 8 6 3 7 2 4
  coords   ROW:COL of each queen (as --place):          1:1 2:5 3:8 ...
  matrix   n lines of n 0/1 digits (1 a queen)
  board    lines of Q and . (the labels of --format board may stay)
  json     {"n":8,"queens":[0,4,7,5,2,6,1,3]} (0-based)
all 1-based but json. -n, if given, must match the answer. Exit status: 0 a solution,
1 not a solution (each pair of queens that attack each other is named), 2 an answer
that cannot be read (with -n 8, a perm of 7 numbers that leaves one out is told so:
"7 numbers, a solution of n = 8 has 8"). Two queens attack each other along a row, a
column, a diagonal (from the top left down to the bottom right: row - column the same)
or an anti-diagonal (from the bottom left up to the top right: row + column the same).
Boards up to n = %d.`, cmdutil.MaxBoardN),
		Flags: []cli.Flag{&cli.IntFlag{Name: "n", Usage: "board size `N` (optional: the answer's own size otherwise)"}},
		Action: func(c *cli.Context) error {
			o := checkOptions{answer: c.Args().Slice(), n: c.Int("n"), nSet: c.IsSet("n")}
			if err := o.check(); err != nil {
				return err
			}
			return run(c.Context, o, c.App.Reader, c.App.Writer)
		},
	}
}

// checkOptions are the flags and arguments of queens check.
type checkOptions struct {
	answer []string // the answer's words; none: read stdin
	n      int      // with nSet, the size the answer must have
	nSet   bool
}

// Check checks the options: flags before the answer, -n in range.
func (o checkOptions) check() error {
	if err := cmdutil.FlagsBefore(o.answer, "check", "the answer"); err != nil {
		return err
	}
	if o.nSet {
		return cmdutil.UsageErr(board.CheckSize(o.n, cmdutil.MaxBoardN))
	}
	return nil
}

// answer is a placement to check: its queens (0-based) and its size.
type answer struct {
	n      int
	queens []board.Queen
	form   string
}

// runCheck reads the answer (the arguments, or stdin), checks it and
// says what is wrong with it.
func runCheck(ctx context.Context, o checkOptions, stdin io.Reader, stdout io.Writer) error {
	text, err := o.text(ctx, stdin)
	if err != nil {
		return err
	}
	wantN := 0
	if o.nSet {
		wantN = o.n
	}
	a, err := parseAnswer(text, wantN)
	if err != nil {
		return cmdutil.UsageErr(fmt.Errorf("check: %w", err))
	}
	if o.nSet {
		if a.form != "coords" && a.n != o.n {
			if a.form == "perm" {
				return cmdutil.Failf("check: not a solution: %s, a solution of n = %d has %d", cmdutil.Plural(a.n, "number"), o.n, o.n)
			}
			return cmdutil.Failf("check: not a solution: the answer is for n = %d, not %d", a.n, o.n)
		}
		a.n = o.n
	}
	if a.n > cmdutil.MaxBoardN {
		return cmdutil.Usagef("check: n = %d: boards up to %d", a.n, cmdutil.MaxBoardN)
	}
	problems, conflicts := a.problems()
	if len(problems) == 0 {
		_, err := fmt.Fprintf(stdout, "valid: %d queens on the %dx%d board, no two attack each other\n", a.n, a.n, a.n)
		return err
	}
	for _, p := range problems {
		if _, err := fmt.Fprintf(stdout, "invalid: %s\n", p); err != nil {
			return err
		}
	}
	if conflicts > 0 {
		return cmdutil.Failf("check: not a solution: %s attack each other", cmdutil.Plural(conflicts, "pair")+" of queens")
	}
	return cmdutil.Failf("check: not a solution")
}

// text returns the answer: the arguments, or what stdin holds (at most
// maxCheckInput bytes).
func (o checkOptions) text(ctx context.Context, stdin io.Reader) (string, error) {
	if len(o.answer) > 0 {
		return strings.Join(o.answer, " "), nil
	}
	// A stdin nobody writes holds the run only until Ctrl-C.
	data, err := io.ReadAll(io.LimitReader(&cmdutil.AsyncReader{Ctx: ctx, R: stdin}, maxCheckInput+1))
	if err != nil && ctx.Err() != nil {
		return "", fmt.Errorf("check: interrupted while reading stdin: %w", err)
	}
	if err != nil {
		return "", fmt.Errorf("check: read stdin: %w", err)
	}
	if len(data) > maxCheckInput {
		return "", cmdutil.Usagef("check: more than %d bytes on stdin", maxCheckInput)
	}
	return string(data), nil
}

// problems lists what keeps a from being a solution (queens off the
// board, pairs that attack each other, the count of queens), and how many
// pairs attack each other.
func (a answer) problems() (problems []string, conflicts int) {
	for _, q := range a.queens {
		if q.Row >= a.n || q.Col >= a.n {
			problems = append(problems, fmt.Sprintf("the queen at %s is off the %dx%d board", q, a.n, a.n))
		}
	}
	var cs []board.Conflict
	if len(a.queens) <= 2*a.n { // more queens than that: too many pairs to list
		cs = board.Conflicts(a.queens)
	}
	for i, cf := range cs {
		if i == maxCheckConflicts {
			problems = append(problems, fmt.Sprintf("and %d more pairs of queens that attack each other", len(cs)-i))
			break
		}
		problems = append(problems, cf.Error())
	}
	if k := distinct(a.queens); k != a.n {
		problems = append(problems, fmt.Sprintf("%s on the %dx%d board: a solution has %d", cmdutil.Plural(k, "queen"), a.n, a.n, a.n))
	}
	return problems, len(cs)
}

// distinct returns the number of different squares in qs.
func distinct(qs []board.Queen) int {
	seen := map[board.Queen]bool{}
	for _, q := range qs {
		seen[q] = true
	}
	return len(seen)
}

// parseAnswer reads a placement in any of the forms check takes, telling
// them apart by their characters: ':' coords, '{' json, Q or '.' a board,
// several lines of 0s and 1s a matrix, else a permutation. A permutation
// is read against wantN when it is not 0 (check -n): with another count of
// numbers that is no permutation of its own either, the error says how
// many numbers it has and a solution needs.
func parseAnswer(text string, wantN int) (answer, error) {
	trimmed := strings.TrimSpace(text)
	switch {
	case trimmed == "":
		return answer{}, fmt.Errorf("no answer: give it as arguments or on stdin")
	case strings.HasPrefix(trimmed, "{"):
		s, err := board.Parse(board.FormatJSON, trimmed)
		if err != nil {
			return answer{}, err
		}
		return answer{n: len(s), queens: s.Queens(), form: "json"}, nil
	case strings.Contains(trimmed, ":"):
		var a answer
		a.form = "coords"
		for _, f := range strings.Fields(trimmed) {
			q, err := board.ParseQueen(f)
			if err != nil {
				return answer{}, err
			}
			if slices.Contains(a.queens, q) {
				return answer{}, fmt.Errorf("queen %s given twice", q)
			}
			a.queens = append(a.queens, q)
			a.n = max(a.n, q.Row+1, q.Col+1)
		}
		a.n = max(a.n, len(a.queens))
		return a, nil
	case strings.ContainsAny(trimmed, "Q."):
		return parseGrid(trimmed, "board", 'Q', '.')
	}
	lines := strings.Split(trimmed, "\n")
	if len(lines) > 1 {
		return parseGrid(trimmed, "matrix", '1', '0')
	}
	var a answer
	a.form = "perm"
	fields := strings.Fields(trimmed)
	a.n = len(fields)
	for row, f := range fields {
		col, err := strconv.Atoi(f)
		if err != nil {
			return answer{}, fmt.Errorf("perm: %s is not a number: want the column of the queen of each row, 1..%d, or a board, a matrix, coords or JSON", quote.Token(f), max(wantN, len(fields)))
		}
		if wantN > 0 && a.n != wantN && (col < 1 || col > a.n) {
			// Not a permutation of 1..k either: a number left out.
			return answer{}, fmt.Errorf("perm: %s, a solution of n = %d has %d (the column of the queen of each row)", cmdutil.Plural(a.n, "number"), wantN, wantN)
		}
		if err != nil || col < 1 || col > len(fields) {
			return answer{}, fmt.Errorf("perm: %s: want the column of the queen of each row, 1..%d", quote.Token(f), len(fields))
		}
		a.queens = append(a.queens, board.Queen{Row: row, Col: col - 1})
	}
	return a, nil
}

// parseGrid reads a square grid, one line per row: queen and empty marks,
// spaces between them optional, and for a board the labels of --format
// board (a line of column numbers, a row number first) skipped.
func parseGrid(text, form string, queen, empty byte) (answer, error) {
	a := answer{form: form}
	width := -1
	for i, line := range strings.Split(text, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if form == "board" && isNumber(fields[0]) {
			if len(fields) == 1 || isNumber(fields[1]) {
				continue // column labels
			}
			fields = fields[1:] // the row label
		}
		cells := 0
		for _, f := range fields {
			for j := 0; j < len(f); j++ {
				switch f[j] {
				case queen:
					a.queens = append(a.queens, board.Queen{Row: a.n, Col: cells})
				case empty:
				default:
					return answer{}, fmt.Errorf("%s: line %d: %q is neither %c nor %c", form, i+1, f[j], queen, empty)
				}
				cells++
			}
		}
		if width >= 0 && cells != width {
			return answer{}, fmt.Errorf("%s: line %d has %d squares, the lines before %d", form, i+1, cells, width)
		}
		width = cells
		a.n++
	}
	if a.n != width {
		return answer{}, fmt.Errorf("%s: %d rows of %d squares: the board must be square", form, a.n, width)
	}
	return a, nil
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}
