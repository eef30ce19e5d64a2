package board

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Format names a form a solution is written in. The text formats
// ([TextFormats]: board, matrix, coords, perm, json) are written by
// [Append] and read back by [Parse]; [FormatAttacks] is written by Append
// but not parsed; [FormatFEN] has its own [AppendFEN] and [ParseFEN] (8×8
// only); the pictures, [FormatSVG] and [FormatPNG], are drawn by package
// [github.com/queens-dev/queens/board/draw] and have no parser.
type Format string

// The text formats. Examples are the solution [1 3 0 2] of the 4×4 board.
const (
	// FormatBoard draws the board, 1-based labels on the rows (left) and
	// columns (top, one line per digit), Q for a queen and . for an empty
	// square:
	//
	//	    1 2 3 4
	//	 1  . Q . .
	//	 2  . . . Q
	//	 3  Q . . .
	//	 4  . . Q .
	FormatBoard Format = "board"
	// FormatMatrix is the 0/1 matrix of the classic tutorials, one row per
	// line: "0 1 0 0".
	FormatMatrix Format = "matrix"
	// FormatCoords lists the queens as 1-based ROW:COL, the form --place
	// takes, on one line: "1:2 2:4 3:1 4:3".
	FormatCoords Format = "coords"
	// FormatPerm gives the 1-based column of the queen in each row on one
	// line: "2 4 1 3".
	FormatPerm Format = "perm"
	// FormatJSON is one JSON object on one line, 0-based like [Solution]:
	// {"n":4,"queens":[1,3,0,2]}.
	FormatJSON Format = "json"
)

// The picture formats, drawn by package [github.com/queens-dev/queens/board/draw].
// They have no parser, and a stream of solutions cannot share one picture:
// commands write one picture per solution.
const (
	// FormatSVG is the board as an SVG image.
	FormatSVG Format = "svg"
	// FormatPNG is the board as a PNG image.
	FormatPNG Format = "png"
)

// TextFormats returns the formats this package writes and parses, in the
// order of their documentation. Each call returns a new slice.
func TextFormats() []Format { return slices.Clone(textFormats) }

var textFormats = []Format{FormatBoard, FormatMatrix, FormatCoords, FormatPerm, FormatJSON}

// Block reports whether the format spans several lines, so that a stream
// of solutions separates them with a blank line. The other formats write
// one line per solution.
func (f Format) Block() bool { return f == FormatBoard || f == FormatMatrix }

// ErrFormat is wrapped by the error for a format name this package does not know.
var ErrFormat = errors.New("unknown format")

// ParseFormat returns the text format with the given name.
func ParseFormat(name string) (Format, error) {
	for _, f := range textFormats {
		if string(f) == name {
			return f, nil
		}
	}
	return "", fmt.Errorf("%w %q", ErrFormat, name)
}

// Append appends the text of s in format f to dst, ending in a newline.
// An unknown format wraps [ErrFormat]. FormatAttacks is written here too.
// A partial s (a negative column for an empty row) is drawn with that row
// empty by FormatBoard, FormatMatrix and FormatAttacks, and left out by
// FormatCoords; FormatPerm and FormatJSON write the negative column as
// it is (0 and -1), which [Parse] refuses.
func Append(dst []byte, s Solution, f Format) ([]byte, error) {
	switch f {
	case FormatBoard:
		return appendBoard(dst, s), nil
	case FormatMatrix:
		return appendGrid(dst, s, " ", "0", "1", nil), nil
	case FormatAttacks:
		return appendAttacks(dst, s), nil
	case FormatCoords:
		first := true
		for row, col := range s {
			if col < 0 {
				continue // an empty row of a partial board
			}
			if !first {
				dst = append(dst, ' ')
			}
			first = false
			dst = strconv.AppendInt(dst, int64(row+1), 10)
			dst = append(dst, ':')
			dst = strconv.AppendInt(dst, int64(col+1), 10)
		}
		return append(dst, '\n'), nil
	case FormatPerm:
		for row, col := range s {
			if row > 0 {
				dst = append(dst, ' ')
			}
			dst = strconv.AppendInt(dst, int64(col+1), 10)
		}
		return append(dst, '\n'), nil
	case FormatJSON:
		dst = append(dst, `{"n":`...)
		dst = strconv.AppendInt(dst, int64(len(s)), 10)
		dst = append(dst, `,"queens":[`...)
		for row, col := range s {
			if row > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(dst, int64(col), 10)
		}
		return append(dst, "]}\n"...), nil
	}
	return dst, fmt.Errorf("%w %q", ErrFormat, string(f))
}

// Write writes s to w in format f (see [Append]).
func Write(w io.Writer, s Solution, f Format) error {
	b, err := Append(nil, s, f)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// String returns s on one line, 0-based like the type: "[1 3 0 2]". Use
// [Solution.Board] for the drawing.
func (s Solution) String() string { return fmt.Sprint([]int(s)) }

// Board draws s as a board, several lines (see [FormatBoard]).
func (s Solution) Board() string { return string(appendBoard(nil, s)) }

func digits(n int) int { return len(strconv.Itoa(n)) }

func appendBoard(dst []byte, s Solution) []byte {
	n := len(s)
	w := digits(n)
	dst = AppendColumnLabels(dst, n, strings.Repeat(" ", w+3))
	return appendGrid(dst, s, " ", ".", "Q", func(dst []byte, row int) []byte {
		label := strconv.Itoa(row + 1)
		dst = append(dst, bytes.Repeat([]byte{' '}, w+1-len(label))...)
		dst = append(dst, label...)
		return append(dst, ' ', ' ')
	})
}

// appendGrid writes one line per row with the given empty and queen marks,
// each line started by prefix(row) when prefix is not nil.
func appendGrid(dst []byte, s Solution, sep, empty, queen string, prefix func([]byte, int) []byte) []byte {
	for row, qc := range s {
		if prefix != nil {
			dst = prefix(dst, row)
		}
		for col := range s {
			if col > 0 {
				dst = append(dst, sep...)
			}
			if col == qc {
				dst = append(dst, queen...)
			} else {
				dst = append(dst, empty...)
			}
		}
		dst = append(dst, '\n')
	}
	return dst
}

// ParseError reports where [Parse] failed. Line counts from 1 within the
// text given to Parse.
type ParseError struct {
	Format Format
	Line   int
	Err    error
}

// Error describes the failure with its format and line.
func (e *ParseError) Error() string {
	return fmt.Sprintf("parse %s: line %d: %v", e.Format, e.Line, e.Err)
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// Parse reads one solution written in format f (as [Append] writes it; the
// labels of a board are optional, and so is the spacing of a matrix). It
// checks the shape (one queen in every row, columns on the board) but not
// that the queens are safe: see [Valid] for that. Errors are a *[ParseError],
// or wrap [ErrFormat] for an unknown format.
func Parse(f Format, text string) (Solution, error) {
	switch f {
	case FormatBoard, FormatMatrix:
		return parseGrid(f, text)
	case FormatCoords, FormatPerm:
		return parseFields(f, text)
	case FormatJSON:
		return parseJSON(f, text)
	}
	return nil, fmt.Errorf("%w %q", ErrFormat, string(f))
}

// parseFail returns the *ParseError of line of a text in format f.
func parseFail(f Format, line int, format string, args ...any) (Solution, error) {
	return nil, &ParseError{f, line, fmt.Errorf(format, args...)}
}

// parseGrid reads a board or a matrix: one row a line, one queen a row.
func parseGrid(f Format, text string) (Solution, error) {
	var s Solution
	width := -1
	for i, line := range strings.Split(text, "\n") {
		cells, kind := gridRow(f, line)
		switch {
		case kind == lineBad, kind == lineLabel && len(s) > 0:
			return parseFail(f, i+1, "unexpected line %q", line)
		case kind != lineRow:
			continue
		}
		if width >= 0 && len(cells) != width {
			return parseFail(f, i+1, "row has %d squares, want %d", len(cells), width)
		}
		width = len(cells)
		col := -1
		for c, queen := range cells {
			if queen {
				if col >= 0 {
					return parseFail(f, i+1, "two queens in row %d", len(s)+1)
				}
				col = c
			}
		}
		if col < 0 {
			return parseFail(f, i+1, "no queen in row %d", len(s)+1)
		}
		s = append(s, col)
	}
	if len(s) == 0 {
		return parseFail(f, 1, "no board")
	}
	if len(s) != width {
		return parseFail(f, len(s), "%d rows of %d squares: the board must be square", len(s), width)
	}
	return s, nil
}

// parseFields reads coords (ROW:COL fields) or a permutation (one
// column a row): one line of 1-based fields.
func parseFields(f Format, text string) (Solution, error) {
	lines := nonEmptyLines(text)
	if len(lines) != 1 {
		return parseFail(f, 1, "want exactly one non-empty line, got %d", len(lines))
	}
	fields := strings.Fields(text)
	n := len(fields)
	s := make(Solution, n)
	for i := range s {
		s[i] = -1
	}
	for i, field := range fields {
		row, colText := i+1, field
		if f == FormatCoords {
			var rowText string
			var ok bool
			rowText, colText, ok = strings.Cut(field, ":")
			if !ok {
				return parseFail(f, 1, "%q: want ROW:COL", field)
			}
			var err error
			if row, err = strconv.Atoi(rowText); err != nil || row < 1 || row > n {
				return parseFail(f, 1, "%q: row must be 1..%d", field, n)
			}
			if s[row-1] >= 0 {
				return parseFail(f, 1, "two queens in row %d", row)
			}
		}
		col, err := strconv.Atoi(colText)
		if err != nil || col < 1 || col > n {
			return parseFail(f, 1, "%q: column must be 1..%d", field, n)
		}
		s[row-1] = col - 1
	}
	return s, nil
}

// parseJSON reads {"n":N,"queens":[N 0-based columns]}.
func parseJSON(f Format, text string) (Solution, error) {
	var v struct {
		N      *int  `json:"n"`
		Queens []int `json:"queens"`
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return parseFail(f, 1, "%v", err)
	}
	if dec.More() {
		return parseFail(f, 1, "more than one JSON value")
	}
	if v.N == nil || *v.N != len(v.Queens) || len(v.Queens) == 0 {
		return parseFail(f, 1, `want {"n":N,"queens":[N columns]}`)
	}
	for row, col := range v.Queens {
		if col < 0 || col >= len(v.Queens) {
			return parseFail(f, 1, "row %d: column %d is off the board (0-based)", row, col)
		}
	}
	return Solution(v.Queens), nil
}

type lineKind int

const (
	lineBlank lineKind = iota
	lineLabel          // a board's column labels
	lineRow
	lineBad
)

// gridRow reads one line of a board or matrix: for each square, whether it
// holds a queen.
func gridRow(f Format, line string) (cells []bool, kind lineKind) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return nil, lineBlank
	}
	if f == FormatBoard && allDigits(fields[0]) {
		if len(fields) == 1 || allDigits(fields[1]) {
			for _, field := range fields {
				if !allDigits(field) {
					return nil, lineBad
				}
			}
			return nil, lineLabel
		}
		fields = fields[1:] // the row label
	}
	empty, queen := '.', 'Q'
	if f == FormatMatrix {
		empty, queen = '0', '1'
	}
	for _, field := range fields {
		for _, r := range field {
			switch r {
			case empty:
				cells = append(cells, false)
			case queen:
				cells = append(cells, true)
			default:
				return nil, lineBad
			}
		}
	}
	return cells, lineRow
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func nonEmptyLines(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}

// AppendColumnLabels appends the 1-based column numbers of an n×n text
// board, each line after indent: one line per digit, most significant
// first, so that every column stays one character wide (as
// [FormatBoard] labels its columns).
func AppendColumnLabels(dst []byte, n int, indent string) []byte {
	for d := digits(n) - 1; d >= 0; d-- {
		dst = append(dst, indent...)
		pow := 1
		for range d {
			pow *= 10
		}
		for col := 1; col <= n; col++ {
			if col > 1 {
				dst = append(dst, ' ')
			}
			if col < pow {
				dst = append(dst, ' ')
			} else {
				dst = append(dst, byte('0'+col/pow%10))
			}
		}
		dst = append(dst, '\n')
	}
	return dst
}
