package main

import (
	"fmt"
	"io"
	"iter"
	"strconv"

	"github.com/queens-dev/queens/board"
	"github.com/urfave/cli/v2"
)

// solutionFormats are the --format values of the commands that print
// solutions.
var solutionFormats = []string{"board", "matrix", "coords", "perm", "json"}

// solutionFormat reads --format.
func solutionFormat(c *cli.Context) (board.Format, error) {
	f, err := board.ParseFormat(c.String("format"))
	return f, usageErr(err)
}

// solutionWriter writes a stream of solutions in one format, a blank line
// between the blocks of the multi-line formats.
type solutionWriter struct {
	w      io.Writer
	format board.Format
	count  int
	buf    []byte
}

// Write writes one solution.
func (sw *solutionWriter) Write(s board.Solution) error {
	sw.buf = sw.buf[:0]
	if sw.count > 0 && sw.format.Block() {
		sw.buf = append(sw.buf, '\n')
	}
	var err error
	if sw.buf, err = board.Append(sw.buf, s, sw.format); err != nil {
		return err
	}
	sw.count++
	_, err = sw.w.Write(sw.buf)
	return err
}

// writeSolutions writes the solutions of seq to w, at most limit of them
// (0: all), and returns how many it wrote. When there are none it says so
// with writeNone. It stops at the first write error.
func writeSolutions(w io.Writer, format board.Format, n int, seq iter.Seq[board.Solution], limit int) (int, error) {
	sw := &solutionWriter{w: w, format: format}
	var err error
	for s := range seq {
		if err = sw.Write(s); err != nil || (limit > 0 && sw.count >= limit) {
			break
		}
	}
	if err == nil && sw.count == 0 {
		err = writeNone(w, format, n)
	}
	return sw.count, err
}

// writeNone says that there is no solution: "no solution", or in JSON a
// count of zero.
func writeNone(w io.Writer, format board.Format, n int) error {
	if format == board.FormatJSON {
		return writeCount(w, format, n, 0, nil)
	}
	_, err := io.WriteString(w, "no solution\n")
	return err
}

// writeCount prints a count: "T solutions" or "T solutions (U unique)", or
// in JSON {"n":N,"total":T} with "unique":U when unique is not nil.
func writeCount(w io.Writer, format board.Format, n int, total uint64, unique *uint64) error {
	var b []byte
	if format == board.FormatJSON {
		b = fmt.Appendf(b, `{"n":%d,"total":%d`, n, total)
		if unique != nil {
			b = fmt.Appendf(b, `,"unique":%d`, *unique)
		}
		b = append(b, "}\n"...)
	} else {
		// Always "solutions", even for 1: scripts match the contract's
		// "T solutions" literally.
		b = strconv.AppendUint(b, total, 10)
		b = append(b, " solutions"...)
		if unique != nil {
			b = fmt.Appendf(b, " (%d unique)", *unique)
		}
		b = append(b, '\n')
	}
	_, err := w.Write(b)
	return err
}
