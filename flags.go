package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/queens-dev/queens/board"
	"github.com/urfave/cli/v2"
)

// The flags several commands share. Each command takes the ones it needs,
// so that names, usage texts and defaults stay the same everywhere. They are
// functions because urfave/cli flags keep state between runs.
func sizeFlag() cli.Flag {
	// Not Required: urfave/cli prints the help on stdout for a missing
	// required flag; boardSize reports it as a usage error instead.
	return &cli.IntFlag{Name: "n", Usage: "board size `N` (N x N board, N queens; required)"}
}
func placeFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "place", Usage: "pre-place a queen at `R:C` (1-based row from the top, column from the left); repeatable"}
}
func allFlag() cli.Flag { return &cli.BoolFlag{Name: "all", Usage: "print every solution (a stream)"} }
func countFlag() cli.Flag {
	return &cli.BoolFlag{Name: "count", Usage: "print only the number of solutions"}
}
func limitFlag() cli.Flag {
	return &cli.IntFlag{Name: "limit", Usage: "print at most `K` solutions (0: no limit)"}
}
func outFlag() cli.Flag {
	return &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "-", Usage: "write results to `FILE` (- for stdout); written to a temporary name, then renamed"}
}
func statsFlag() cli.Flag {
	return &cli.BoolFlag{Name: "stats", Usage: "print statistics (nodes, time, ...) on stderr"}
}
func threadsFlag() cli.Flag {
	return &cli.IntFlag{Name: "threads", Value: runtime.NumCPU(), DefaultText: "all cores", Usage: "worker threads `T`"}
}
func timeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "timeout", Usage: "give up after `D` (a Go duration such as 30s or 2m; 0: never), exit status 1"}
}

// formatFlag returns a --format flag listing the formats a command accepts.
func formatFlag(names ...string) *cli.StringFlag {
	usage := "output format `F`: "
	for i, n := range names {
		if i > 0 {
			usage += ", "
		}
		usage += n
	}
	return &cli.StringFlag{Name: "format", Value: names[0], Usage: usage}
}

// isInputError reports whether err is one of the board package's errors
// about bad input (size, pre-placed queens, formats, parsing). Commands wrap
// other input errors with usageErr themselves.
func isInputError(err error) bool {
	var pe *board.ParseError
	return errors.Is(err, board.ErrSize) || errors.Is(err, board.ErrPlacement) ||
		errors.Is(err, board.ErrFormat) || errors.As(err, &pe)
}

// boardSize reads -n, which must be given, and checks it against the
// command's limit.
func boardSize(c *cli.Context, max int) (int, error) {
	if !c.IsSet("n") {
		return 0, usagef("missing -n N, the board size")
	}
	return c.Int("n"), usageErr(board.CheckSize(c.Int("n"), max))
}

// placements reads the --place flags and checks them against an n×n board.
func placements(c *cli.Context, n int) ([]board.Queen, error) {
	qs, err := board.ParseQueens(c.StringSlice("place"))
	if err == nil {
		err = board.CheckPlacement(n, qs)
	}
	return qs, usageErr(err)
}

// timeoutContext returns the command's context, ending at the --timeout
// deadline if one is set; call cancel when the command is done.
func timeoutContext(c *cli.Context) (ctx context.Context, cancel context.CancelFunc) {
	if d := c.Duration("timeout"); d > 0 {
		return context.WithTimeout(c.Context, d)
	}
	return context.WithCancel(c.Context)
}

// exclusive returns a usage error if more than one of the named flags is set.
func exclusive(c *cli.Context, names ...string) error {
	set := ""
	for _, name := range names {
		if c.IsSet(name) {
			if set != "" {
				return usagef("--%s and --%s cannot be used together", set, name)
			}
			set = name
		}
	}
	return nil
}

// output is where a command writes its results: stdout, or a file that
// appears under its name only when Commit succeeds.
type output struct {
	*bufio.Writer
	file *os.File // nil for stdout
	path string
}

// openOutput opens path for writing ("-" or "" is stdout). A file is
// created under a temporary name in the same directory; call Commit to
// rename it into place, or Abort to remove it. A directory that does not
// exist or cannot be written is a usage error.
func openOutput(path string, stdout io.Writer) (*output, error) {
	if path == "" || path == "-" {
		return &output{Writer: bufio.NewWriterSize(stdout, 64<<10)}, nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, usagef("output %s is a directory", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, usagef("cannot write %s: directory %s does not exist", path, filepath.Dir(path))
		}
		return nil, usagef("cannot write %s: %v", path, unwrapPath(err))
	}
	return &output{Writer: bufio.NewWriterSize(f, 64<<10), file: f, path: path}, nil
}

// Commit flushes the output and, for a file, renames it into place.
func (o *output) Commit() error {
	err := o.Flush()
	if o.file == nil {
		return err
	}
	if err == nil {
		err = o.file.Chmod(0o644)
	}
	if cerr := o.file.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.file.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.file.Name())
		return fmt.Errorf("write %s: %w", o.path, unwrapPath(err))
	}
	return nil
}

// Abort discards a file output; on stdout it flushes what was written, so
// that the solutions found before an error or interruption are not lost.
func (o *output) Abort() {
	if o.file == nil {
		o.Flush()
		return
	}
	o.file.Close()
	os.Remove(o.file.Name())
}

// finish commits o if err is nil and aborts it otherwise, returning the
// first error.
func (o *output) finish(err error) error {
	if err != nil {
		o.Abort()
		return err
	}
	return o.Commit()
}

// notWritten says, for an error message, that a file output was not
// written ("" for stdout, where what was written stays written).
func (o *output) notWritten() string {
	if o.file == nil {
		return ""
	}
	return " (" + o.path + " not written)"
}

// ctxWriter is a writer that fails once ctx is done, so that a long
// export stops at the next buffer flush when the run is interrupted.
type ctxWriter struct {
	ctx     context.Context
	w       io.Writer
	written int64
}

func (cw *ctxWriter) Write(p []byte) (int, error) {
	if err := cw.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := cw.w.Write(p)
	cw.written += int64(n)
	return n, err
}

// unwrapPath drops the *fs.PathError wrapper, whose path is the temporary
// name and would only confuse.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
