package cmdutil

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/board/draw"
	"github.com/urfave/cli/v2"
)

// emitTestSolutions are a few solutions per board size for runEmit.
var emitTestSolutions = []board.Solution{
	{1, 3, 0, 2}, {2, 0, 3, 1},
	{0, 4, 7, 5, 2, 6, 1, 3}, {0, 5, 7, 2, 6, 3, 1, 4}, {1, 3, 5, 7, 2, 0, 6, 4},
}

// runEmit runs a test command that hands the solutions of emitTestSolutions
// of size -n containing the --place queens to emitSolutions, the way the
// solving commands do, and returns what run would print and exit with.
func runEmit(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	// An app of this command alone, set up as the command line's.
	app := &cli.App{Name: "queens", Writer: &out, ErrWriter: &errb, HideVersion: true,
		ExitErrHandler: func(*cli.Context, error) {}, OnUsageError: OnUsageError}
	cmd := &cli.Command{
		Name:  "emit",
		Flags: []cli.Flag{SizeFlag(), PlaceFlag(), AllFlag(), CountFlag(), LimitFlag(), OutFlag(), AttacksFlag(), FormatFlag(SolutionFormats...)},
		Action: func(c *cli.Context) error {
			n := c.Int("n")
			placed, err := ParsePlacements(c.StringSlice("place"), n)
			if err != nil {
				return err
			}
			var sols []board.Solution
			for _, s := range emitTestSolutions {
				if !board.Valid(s) {
					t.Fatalf("test solution %v is not valid", s)
				}
				if len(s) == n && s.Contains(placed) {
					sols = append(sols, s)
				}
			}
			// As the solving commands write solutions.
			so, err := OpenSolutions(c.Context, c.App.Writer, ReadSolutionFlags(c), n, placed)
			if err != nil {
				return err
			}
			format, err := ParseSolutionFormat(c.String("format"))
			if err != nil {
				return err
			}
			_, err = WriteSolutions(so, format, n, func(yield func(board.Solution, error) bool) {
				for _, s := range sols {
					if !yield(s, nil) {
						return
					}
				}
			}, c.Int("limit"))
			return so.Finish(err)
		},
	}
	SetUsageErrors(cmd)
	app.Commands = append(app.Commands, cmd)
	if err := app.Run(append([]string{"queens", "emit"}, args...)); err != nil {
		fmt.Fprintf(&errb, "queens: %v\n", err)
		code = ExitCode(err)
	}
	return out.String(), errb.String(), code
}

// countSVGQueens parses data as XML and counts the queen paths, and those
// marked as pre-placed.
func countSVGQueens(t *testing.T, data []byte) (queens, placed int) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			if err != io.EOF {
				t.Fatalf("SVG is not XML: %v", err)
			}
			return queens, placed
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "path" {
			for _, a := range el.Attr {
				if a.Name.Local == "class" && strings.HasPrefix(a.Value, "queen") {
					queens++
					if a.Value == "queen placed" {
						placed++
					}
				}
			}
		}
	}
}

func TestEmitPictures(t *testing.T) {
	dir := t.TempDir()
	t.Run("svg to stdout", func(t *testing.T) {
		out, errs, code := runEmit(t, "-n", "8", "--format", "svg", "--limit", "1", "--place", "1:1", "--attacks")
		if code != 0 || errs != "" {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if q, p := countSVGQueens(t, []byte(out)); q != 8 || p != 1 {
			t.Errorf("%d queens, %d pre-placed, want 8 and 1", q, p)
		}
	})
	t.Run("png to a pipe", func(t *testing.T) {
		out, _, code := runEmit(t, "-n", "4", "--format", "png", "--limit", "1")
		img, err := png.Decode(strings.NewReader(out))
		want, werr := draw.Image(emitTestSolutions[0], nil)
		if werr != nil {
			t.Fatal(werr)
		}
		if code != 0 || err != nil || img.Bounds() != want.Rect {
			t.Errorf("exit %d, decode: %v, size %v, want %v", code, err, img.Bounds(), want.Rect)
		}
	})
	t.Run("one file per solution", func(t *testing.T) {
		for _, format := range []string{"png", "svg"} {
			sub := filepath.Join(dir, format) + "/"
			out, errs, code := runEmit(t, "-n", "8", "--format", format, "-o", sub)
			files, _ := filepath.Glob(sub + "*")
			if code != 0 || out != "" || errs != "" || len(files) != 3 {
				t.Fatalf("exit %d, stdout %q, stderr %q, files %v", code, out, errs, files)
			}
			for i, file := range files {
				if want := fmt.Sprintf("queens-8-%04d.%s", i+1, format); filepath.Base(file) != want {
					t.Errorf("file %s, want %s", file, want)
				}
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				if format == "svg" {
					if q, _ := countSVGQueens(t, data); q != 8 {
						t.Errorf("%s: %d queens", file, q)
					}
				} else if _, err := png.Decode(bytes.NewReader(data)); err != nil {
					t.Errorf("%s: %v", file, err)
				}
			}
		}
		// An existing directory needs no slash; --limit bounds the files.
		sub := filepath.Join(dir, "limited")
		os.Mkdir(sub, 0o755)
		if _, errs, code := runEmit(t, "-n", "8", "--format", "svg", "-o", sub, "--limit", "2"); code != 0 {
			t.Fatal(errs)
		}
		if files, _ := filepath.Glob(sub + "/*"); len(files) != 2 {
			t.Errorf("--limit 2 wrote %v", files)
		}
	})
	t.Run("no solution writes no picture", func(t *testing.T) {
		file := filepath.Join(dir, "none.png")
		out, _, code := runEmit(t, "-n", "3", "--format", "png", "-o", file)
		if _, err := os.Stat(file); code != 0 || out != "no solution\n" || err == nil {
			t.Errorf("exit %d, stdout %q, file %v", code, out, err)
		}
	})
}

func TestEmitFEN(t *testing.T) {
	out, _, code := runEmit(t, "-n", "8", "--format", "fen")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 3 {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	for i, line := range lines {
		if s, err := board.ParseFEN(line); err != nil || !s.Equal(emitTestSolutions[2+i]) {
			t.Errorf("line %q: %v, %v", line, s, err)
		}
	}
}

func TestEmitUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-n", "4", "--format", "svg"},                // two solutions, one picture
		{"-n", "4", "--format", "fen"},                // not a chessboard
		{"-n", "4", "--format", "board", "--attacks"}, // nothing to shade
		{"-n", "300", "--format", "png"},              // too big to draw
		{"-n", "4", "--format", "gif"},                // no such format
		{"-n", "4", "--format", "svg", "-o", "/nonexistent/dir/x.svg"},
	} {
		out, errs, code := runEmit(t, args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "queens: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}

func TestWriteStats(t *testing.T) {
	stats := []Stat{{"n", 8}, {"encoding", "seq"}, {"nodes", uint64(2057)}, {"seconds", 1500 * time.Microsecond}}
	for _, tt := range []struct {
		format board.Format
		want   string
	}{
		{board.FormatBoard, "stats: n=8 encoding=seq nodes=2057 seconds=0.0015\n"},
		{board.FormatJSON, `{"stats":{"n":8,"encoding":"seq","nodes":2057,"seconds":0.0015}}` + "\n"},
	} {
		var buf bytes.Buffer
		if err := WriteStats(&buf, tt.format, stats...); err != nil || buf.String() != tt.want {
			t.Errorf("writeStats(%s) = %q, %v, want %q", tt.format, buf.String(), err, tt.want)
		}
	}
	var v map[string]map[string]any
	var buf bytes.Buffer
	WriteStats(&buf, board.FormatJSON, stats...)
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil || v["stats"]["nodes"] != 2057.0 || v["stats"]["encoding"] != "seq" {
		t.Errorf("JSON stats %q: %v, %v", buf.String(), v, err)
	}
}

// BenchmarkSolutionWriterFlush measures what the paced flush policy of
// Stdout (a clock read per solution, a flush per 100 ms) costs a fast stream:
// perm lines of n = 12 into a 64 KiB buffer, with and without it.
func BenchmarkSolutionWriterFlush(b *testing.B) {
	sol := board.Solution{0, 2, 4, 7, 9, 11, 5, 10, 1, 6, 8, 3}
	for _, flush := range []bool{false, true} {
		b.Run("flush="+strconv.FormatBool(flush), func(b *testing.B) {
			w := bufio.NewWriterSize(io.Discard, 64<<10)
			sw := &SolutionWriter{W: w, Format: board.FormatPerm}
			if flush {
				sw.flush, sw.paced = w.Flush, true
			}
			for b.Loop() {
				if err := sw.Write(sol); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
