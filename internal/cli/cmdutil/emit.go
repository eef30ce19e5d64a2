package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/board/draw"
)

// SolutionWriter writes a stream of solutions in one format, a blank line
// between the blocks of the multi-line formats. Pictures go one per
// Stream, or one file per solution in dir.
type SolutionWriter struct {
	W        io.Writer
	Format   board.Format
	count    int
	buf      []byte
	Image    *draw.Options // how pictures are drawn (nil: the defaults)
	Dir      string        // not "": write each picture to its own file here
	numbered bool          // number the solutions (a listing to a terminal)
	// flush, if not nil, empties the buffer under w so that a reader
	// (queens ... | head -1) sees the first solution as soon as it is
	// found, and with paced (a slow engine: sat) every solution that comes
	// flushEvery or more after the last flush, at once. paced costs a
	// clock read per solution, which the backtracker's fast streams
	// are spared (BenchmarkSolutionWriterFlush).
	flush     func() error
	paced     bool
	start     time.Time     // when the first solution was flushed
	lastFlush time.Duration // since start (time.Since reads one clock, time.Now two)
}

// flushEvery is how long solutions may wait in the buffer of stdout when
// they come fast; one that comes later than this after the last flush is
// flushed at once.
const flushEvery = 100 * time.Millisecond

// Write writes one solution.
func (sw *SolutionWriter) Write(s board.Solution) error {
	if sw.Dir != "" {
		return sw.writeFile(s)
	}
	var err error
	switch sw.Format {
	case board.FormatSVG:
		err = draw.WriteSVG(sw.W, s, sw.Image)
	case board.FormatPNG:
		err = draw.WritePNG(sw.W, s, sw.Image)
	case board.FormatFEN:
		if sw.buf, err = board.AppendFEN(sw.buf[:0], s); err == nil {
			_, err = sw.W.Write(sw.buf)
		}
	default:
		sw.buf = sw.buf[:0]
		if sw.count > 0 && (sw.Format.Block() || sw.Format == board.FormatAttacks) {
			sw.buf = append(sw.buf, '\n')
		}
		if sw.numbered {
			if sw.Format.Block() || sw.Format == board.FormatAttacks {
				sw.buf = fmt.Appendf(sw.buf, "solution %d:\n", sw.count+1)
			} else {
				sw.buf = fmt.Appendf(sw.buf, "%4d  ", sw.count+1)
			}
		}
		if sw.buf, err = board.Append(sw.buf, s, sw.Format); err == nil {
			_, err = sw.W.Write(sw.buf)
		}
	}
	if err == nil {
		sw.count++
		switch {
		case sw.flush == nil:
		case sw.count == 1:
			sw.start = time.Now()
			err = sw.flush()
		case sw.paced && time.Since(sw.start)-sw.lastFlush >= flushEvery:
			sw.lastFlush = time.Since(sw.start)
			err = sw.flush()
		}
	}
	return err
}

// writeFile writes s as the next numbered picture in sw.dir:
// queens-N-0001.svg, queens-N-0002.svg, ...
func (sw *SolutionWriter) writeFile(s board.Solution) error {
	if sw.count >= maxPictureFiles {
		return Usagef("more than %d pictures for %s: use --limit", maxPictureFiles, sw.Dir)
	}
	name := filepath.Join(sw.Dir, fmt.Sprintf("queens-%d-%04d.%s", len(s), sw.count+1, sw.Format))
	out, err := OpenOutput(name, nil)
	if err != nil {
		return err
	}
	file := &SolutionWriter{W: out, Format: sw.Format, Image: sw.Image}
	if err := out.Finish(file.Write(s)); err != nil {
		return err
	}
	sw.count++
	return nil
}

// writeAll writes the solutions of seq, at most limit of them (0: all),
// and returns how many it wrote; an error of the stream ends it. A
// picture to one stream is one solution: a second one is a usage error,
// found before anything is written.
func (sw *SolutionWriter) writeAll(seq iter.Seq2[board.Solution, error], limit int) (int, error) {
	single := IsPicture(sw.Format) && sw.Dir == "" && limit != 1
	var held board.Solution
	var err error
	for s, serr := range seq {
		if serr != nil {
			if held != nil {
				sw.Write(held) // what was found before the error stays found
			}
			return sw.count, serr
		}
		if single {
			if held != nil {
				return 0, Usagef("--format %s draws one solution: add --limit 1, or -o DIR/ for one file per solution", sw.Format)
			}
			held = s.Clone()
			continue
		}
		if err = sw.Write(s); err != nil || (limit > 0 && sw.count >= limit) {
			break
		}
	}
	if held != nil {
		err = sw.Write(held)
	}
	return sw.count, err
}

// WriteSolutions writes the solutions of seq to w, at most limit of them
// (0: all), and returns how many it wrote; an error of the stream is
// returned after the solutions before it are written. When there are none it says so
// with WriteNone; to a *SolutionOutput (see OpenSolutions) only when it
// finishes without an error, because a search stopped by --timeout, an
// interruption or a failing solver has not shown that there is none. It
// stops at the first write error. Pictures (svg, png) are one solution
// per stream; to a *SolutionOutput they are drawn with its options
// (--attacks, pre-placed queens) or written one file per solution to its
// directory.
func WriteSolutions(w io.Writer, format board.Format, n int, seq iter.Seq2[board.Solution, error], limit int) (int, error) {
	sw := &SolutionWriter{W: w, Format: format}
	so, _ := w.(*SolutionOutput)
	if so != nil {
		sw.Image, sw.Dir, sw.numbered = so.Image, so.Dir, so.numbered
		if so.file == nil && !isRegularFile(so.Stdout) {
			sw.flush, sw.paced = so.Flush, so.Slow
		}
	}
	count, err := sw.writeAll(seq, limit)
	switch {
	case so != nil:
		so.written = &count
		so.format, so.n = format, n
	case err == nil && count == 0:
		err = WriteNone(w, format, n, nil)
	}
	return count, err
}

// SolutionOutput is where the solutions of a command go, as its flags
// say: an output (stdout or -o FILE) for every format, or for pictures
// with -o DIR/ a directory that gets one file per solution (the output is
// then stdout, for "no solution" and counts). Pass it to WriteSolutions
// and WriteCount like any writer, then call finish.
type SolutionOutput struct {
	*Output
	Image   *draw.Options
	Dir     string
	Stdout  io.Writer
	written *int // solutions written by WriteSolutions (nil: not called)
	Slow    bool // the engine is slow: flush stdout as solutions come (see SolutionWriter)
	format  board.Format
	n       int
	Ref     *Referee // if not nil, the verdict on "no solution" goes into its JSON
	// numbered: a listing (--all, --limit K > 1) in a text format to a
	// terminal numbers the solutions and ends with their total.
	numbered bool
}

// OpenSolutions checks --format, -o and --attacks (f) against an n×n
// board and the other flags, and opens the output on stdout or -o's file.
// Call it before the search: its errors are usage errors (exit status 2).
// Placed are the pre-placed queens, marked in pictures.
func OpenSolutions(ctx context.Context, stdout io.Writer, f SolutionFlags, n int, placed []board.Queen) (*SolutionOutput, error) {
	format, err := ParseSolutionFormat(f.FormatName)
	if err != nil {
		return nil, UsageErr(err)
	}
	if err := f.CheckOutput(format, n); err != nil {
		return nil, err
	}
	path := f.Output
	so := &SolutionOutput{Stdout: stdout}
	if IsPicture(format) {
		so.Image = &draw.Options{Attacks: f.attacks, Numbers: f.numbers, Place: placed}
		if len(placed) > 0 {
			// Blue and black mean something only with pre-placed queens:
			// then the picture says what, as every picture does.
			so.Image.Legend = draw.LegendQueen | draw.LegendPlaced
			if f.attacks {
				so.Image.Legend |= draw.LegendAttacked
			}
		}
		if path != "-" && path != "" && (strings.HasSuffix(path, "/") || isDir(path)) {
			if err := f.checkPictureCount(n, placed, path); err != nil {
				return nil, err
			}
			if err := os.MkdirAll(path, 0o755); err != nil {
				return nil, Usagef("cannot write pictures to %s: %v", path, UnwrapPath(err))
			}
			so.Dir, path = path, "-"
		} else if f.All || f.Limit > 1 {
			return nil, Usagef("--format %s draws one solution: use -o DIR/ for one file per solution", format)
		}
	}
	if so.Output, err = OpenOutputContext(ctx, path, stdout); err != nil {
		return nil, err
	}
	if format == board.FormatPNG && so.Dir == "" && so.file == nil && IsTerminal(stdout) {
		return nil, Usagef("will not write a PNG to a terminal: use -o FILE or a pipe")
	}
	so.numbered = so.file == nil && !IsPicture(format) && format != board.FormatJSON &&
		(f.All || f.Limit > 1) && StdoutIsTerminal(stdout)
	return so, nil
}

// CheckOutput checks the picture flags against the format of an n×n
// board and --count: the checks of OpenSolutions that need no file.
func (f SolutionFlags) CheckOutput(format board.Format, n int) error {
	switch {
	case f.attacks && !IsPicture(format):
		return Usagef("--attacks needs --format svg or png")
	case f.numbers && !IsPicture(format):
		return Usagef("--numbers needs --format svg or png (or --format attacks for the counts as text)")
	case format == board.FormatFEN && n != 8:
		return Usagef("--format fen is for n = 8 only (a chessboard)")
	case f.Count && (IsPicture(format) || format == board.FormatFEN):
		return Usagef("--count prints a number: --format %s draws solutions", format)
	case IsPicture(format) && n > draw.MaxN:
		return Usagef("--format %s draws boards up to n = %d", format, draw.MaxN)
	}
	return nil
}

// checkPictureCount refuses, before any work, a run that would write
// more than maxPictureFiles pictures to dir: --limit K above it, or --all
// (or --limit 0) on a board with more solutions than that (the published
// Count, an upper bound with pre-placed queens), or not known.
func (f SolutionFlags) checkPictureCount(n int, placed []board.Queen, dir string) error {
	limit := f.Limit
	if !f.All && !f.uniqueSet && !f.LimitSet {
		limit = 1
	}
	if limit > maxPictureFiles {
		return Usagef("-o %s: --limit %d is more than the %d pictures one run writes", dir, limit, maxPictureFiles)
	}
	if limit > 0 {
		return nil
	}
	known, ok := board.Known(n)
	total := known.Total
	if f.Unique.On {
		total = known.Unique
	}
	if !ok || total > maxPictureFiles {
		at := "has " + SolutionsText(total)
		if len(placed) > 0 {
			at = fmt.Sprintf("may have up to %d solutions", total)
		}
		if !ok {
			at = "has too many solutions"
		}
		return Usagef("-o %s: n = %d %s, more than the %d pictures one run writes: add --limit K", dir, n, at, maxPictureFiles)
	}
	return nil
}

// isRegularFile reports whether w writes to a regular file (stdout
// redirected to one).
func isRegularFile(w io.Writer) bool {
	f := file(w)
	if f == nil {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode().IsRegular()
}

// Finish commits the output if err is nil and removes it otherwise, and
// returns the first error. Without an error and without a solution it
// says "no solution" (WriteNone): to the output, or for a picture to
// Stdout, with no file.
// An interrupted run says how far it got.
func (so *SolutionOutput) Finish(err error) error {
	if err == nil && so.written != nil && *so.written == 0 {
		if so.file != nil && IsPicture(so.format) {
			// No picture: no file, and the answer on stdout.
			so.Abort()
			return WriteNone(so.Stdout, so.format, so.n, so.Ref.Verified())
		}
		err = WriteNone(so, so.format, so.n, so.Ref.Verified())
	} else if err == nil && so.numbered && so.written != nil {
		_, err = fmt.Fprintf(so, "total: %s\n", Plural(*so.written, "solution"))
	}
	switch {
	case !errors.Is(err, context.Canceled):
	case so.written != nil:
		err = fmt.Errorf("interrupted after %s%s: %w", Plural(*so.written, "solution"), so.NotWritten(), err)
	case so.file != nil:
		err = fmt.Errorf("interrupted%s: %w", so.NotWritten(), err)
	}
	return so.Output.Finish(err)
}

// StdoutIsTerminal reports whether stdout is a terminal, for the numbered
// listings; tests replace it.
var StdoutIsTerminal = IsTerminal

// isDir reports whether path names an existing directory.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// WriteNone says that there is no solution: "no solution", or in JSON a
// Count of zero (with the referee's verdict when v is not nil).
func WriteNone(w io.Writer, format board.Format, n int, v *Verification) error {
	if format == board.FormatJSON {
		return WriteCount(w, format, n, 0, nil, v)
	}
	_, err := io.WriteString(w, "no solution\n")
	return err
}

// SolutionsText returns "1 solution" or "T solutions".
func SolutionsText(total uint64) string {
	if total == 1 {
		return "1 solution"
	}
	return strconv.FormatUint(total, 10) + " solutions"
}
