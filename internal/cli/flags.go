package cli

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/urfave/cli/v2"
)

// The flags several commands share. Each command takes the ones it needs,
// so that names, usage texts and defaults stay the same everywhere. They are
// functions because urfave/cli flags keep state between runs.
func sizeFlag() cli.Flag {
	// Not Required: urfave/cli prints the help on stdout for a missing
	// required flag; boardSize reports it as a usage error instead.
	// The range is each command's own (board.CheckSize).
	return intFlag("n", 0, math.MinInt, math.MaxInt, "board size `N` (N x N board, N queens; required)")
}
func placeFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "place", Usage: "pre-place a queen at `R:C` (1-based row from the top, column from the left); repeatable"}
}
func allFlag() cli.Flag { return &cli.BoolFlag{Name: "all", Usage: "print every solution (a stream)"} }
func countFlag() cli.Flag {
	return &cli.BoolFlag{Name: "count", Usage: "print only the number of solutions"}
}
func limitFlag() cli.Flag {
	return intFlag("limit", 0, 0, math.MaxInt, "print at most `K` solutions (0: no limit)")
}
func outFlag() cli.Flag {
	return &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "-", Usage: "write results to `FILE` (- for stdout); a regular file is written to a temporary name, then renamed; " +
		"FILE.gz, .xz or .zst (any case) is written gzip, xz or zstd, and other compressors' suffixes are refused"}
}
func statsFlag() cli.Flag {
	return &cli.BoolFlag{Name: "stats", Usage: "print statistics (nodes, time, ...) on stderr"}
}
func threadsFlag() cli.Flag {
	// GOMAXPROCS honours the affinity mask and the cgroup's CPU limit
	// (Go 1.25, the module's floor).
	f := intFlag("threads", runtime.GOMAXPROCS(0), 1, maxThreads, fmt.Sprintf("worker threads `T` (1 to %d)", maxThreads))
	f.DefaultText = "GOMAXPROCS: the CPUs this process may use (affinity, cgroup CPU limit)"
	return f
}
func timeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "timeout", Action: durationRange("timeout", 0, math.MaxInt64),
		Usage: "give up after `D` (a Go duration such as 30s or 2m; 0: never), exit status 1"}
}

// intFlag returns an integer flag read in base 10 only and checked
// against min..max as it is parsed: urfave/cli's IntFlag reads 010 as
// octal 8 and 0x10 as 16. c.Int(name) reads it as it reads an IntFlag.
func intFlag(name string, value, min, max int, usage string) *cli.GenericFlag {
	return &cli.GenericFlag{Name: name, Value: &decimal{v: value, name: name, min: min, max: max}, Usage: usage}
}

// decimalFlag returns f as an intFlag if it is one of urfave/cli's
// integer flags (IntFlag, Int64Flag, UintFlag, Uint64Flag), which read
// 010 as octal 8 and 0x10 as 16; it keeps its name, default, usage and
// action, and c.Int, c.Int64, c.Uint and c.Uint64 read it as before. The
// unsigned ones refuse a negative value; the range beyond that is the
// command's to check. Other flags come back as they are.
func decimalFlag(f cli.Flag) cli.Flag {
	var g *cli.GenericFlag
	var action func(*cli.Context) error
	switch f := f.(type) {
	case *cli.IntFlag:
		g = intFlag(f.Name, f.Value, math.MinInt, math.MaxInt, f.Usage)
		g.Aliases, g.DefaultText, g.Hidden, g.Category = f.Aliases, f.DefaultText, f.Hidden, f.Category
		if act := f.Action; act != nil {
			action = func(c *cli.Context) error { return act(c, c.Int(f.Name)) }
		}
	case *cli.Int64Flag:
		g = intFlag(f.Name, int(f.Value), math.MinInt, math.MaxInt, f.Usage)
		g.Aliases, g.DefaultText, g.Hidden, g.Category = f.Aliases, f.DefaultText, f.Hidden, f.Category
		if act := f.Action; act != nil {
			action = func(c *cli.Context) error { return act(c, c.Int64(f.Name)) }
		}
	case *cli.UintFlag:
		g = intFlag(f.Name, int(f.Value), 0, math.MaxInt, f.Usage)
		g.Aliases, g.DefaultText, g.Hidden, g.Category = f.Aliases, f.DefaultText, f.Hidden, f.Category
		if act := f.Action; act != nil {
			action = func(c *cli.Context) error { return act(c, c.Uint(f.Name)) }
		}
	case *cli.Uint64Flag:
		g = intFlag(f.Name, int(min(f.Value, math.MaxInt)), 0, math.MaxInt, f.Usage)
		g.Aliases, g.DefaultText, g.Hidden, g.Category = f.Aliases, f.DefaultText, f.Hidden, f.Category
		if act := f.Action; act != nil {
			action = func(c *cli.Context) error { return act(c, c.Uint64(f.Name)) }
		}
	default:
		return f
	}
	if action != nil {
		g.Action = func(c *cli.Context, _ any) error { return action(c) }
	}
	return g
}

// decimal is the value of an intFlag.
type decimal struct {
	v        int
	name     string
	min, max int
}

func (d *decimal) String() string {
	if d == nil {
		return "0"
	}
	return strconv.Itoa(d.v)
}

func (d *decimal) Set(s string) error {
	v, err := parseDecimal(s)
	switch {
	case err != nil:
		return err
	case v < d.min && d.min == 0:
		return fmt.Errorf("--%s cannot be negative", d.name)
	case v < d.min && d.min == 1:
		return fmt.Errorf("--%s must be at least 1", d.name)
	case v < d.min && d.max == math.MaxInt:
		return fmt.Errorf("--%s must be at least %d", d.name, d.min)
	case v < d.min || v > d.max:
		return fmt.Errorf("--%s must be %d to %d", d.name, d.min, d.max)
	}
	d.v = v
	return nil
}

// errNotDecimal is parseDecimal's error for anything but digits.
var errNotDecimal = errors.New("want a decimal integer")

// parseDecimal reads a decimal integer: an optional sign and the digits
// 0-9, nothing else (no 0x, no 1_000, no spaces); leading zeros do not
// make it octal. A number beyond the range of int is an error that says
// "value out of range".
func parseDecimal(s string) (int, error) {
	digits := s
	if len(digits) > 0 && (digits[0] == '-' || digits[0] == '+') {
		digits = digits[1:]
	}
	if digits == "" {
		return 0, errNotDecimal
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, errNotDecimal
		}
	}
	v, err := strconv.ParseInt(s, 10, strconv.IntSize)
	if err != nil {
		return 0, errors.New("value out of range") // the only error left
	}
	return int(v), nil
}

// durationRange returns a flag action refusing a duration outside
// min..max.
func durationRange(name string, min, max time.Duration) func(*cli.Context, time.Duration) error {
	return func(_ *cli.Context, d time.Duration) error {
		switch {
		case d < min && min == 0:
			return usagef("--%s %v: cannot be negative", name, d)
		case d < min || d > max:
			return usagef("--%s %v: want %v to %v", name, d, min, max)
		}
		return nil
	}
}

// checkEmpty refuses a flag given an empty value (--checkpoint "",
// -o ""): an empty value is a slip (an unset shell variable), never a
// choice. Flags that take no value, and those parsed as numbers or
// durations (which refuse "" themselves), are not concerned. It is
// every command's Before (see setUsageErrors).
func checkEmpty(c *cli.Context) error {
	for _, f := range c.Command.Flags {
		name := f.Names()[0]
		if !c.IsSet(name) {
			continue
		}
		empty := false
		switch f.(type) {
		case *cli.StringFlag:
			empty = c.String(name) == ""
		case *cli.StringSliceFlag:
			for _, v := range c.StringSlice(name) {
				empty = empty || v == ""
			}
		}
		if empty {
			dashes := "--"
			if len(name) == 1 {
				dashes = "-"
			}
			return usagef("%s%s: empty value", dashes, name)
		}
	}
	return nil
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

// timeoutContext returns ctx, ending after timeout (--timeout) if it is
// not 0; call cancel when the command is done.
func timeoutContext(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout > 0 {
		return context.WithTimeout(ctx, timeout)
	}
	return context.WithCancel(ctx)
}

// flagsBefore refuses a flag written after the arguments args
// (urfave/cli stops reading flags at the first argument, so it would be
// taken for one): "queens merge a.jsonl --verify 5" says so instead of
// failing to read a file named --verify.
func flagsBefore(args []string, cmd, what string) error {
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && (a[1] == '-' || a[1] >= 'a' && a[1] <= 'z' || a[1] >= 'A' && a[1] <= 'Z') {
			return usagef("%s: %s comes after %s: put the flags first (queens %s FLAGS... ARGS...)", cmd, a, what, cmd)
		}
	}
	return nil
}

// solutionFlags are the flags the commands that print solutions share
// (backtrack, sat; board takes a few of them), and the command's
// arguments: read once, by readSolutionFlags, the one place that looks
// them up by name.
type solutionFlags struct {
	args             []string
	n                int
	nSet             bool // -n given
	all, count       bool
	limit            int
	limitSet         bool
	unique           uniqueMode
	uniqueSet        bool // --unique given, even as --unique=false
	place            []string
	formatName       string
	formatSet        bool
	output           string
	attacks, numbers bool
	stats            bool
	threads          int
	timeout          time.Duration

	// Set by the command's check.
	format board.Format
	placed []board.Queen
}

// readSolutionFlags reads the solution flags of c's command; those it
// lacks read as their zero values.
func readSolutionFlags(c *cli.Context) solutionFlags {
	f := solutionFlags{
		args: c.Args().Slice(), n: c.Int("n"), nSet: c.IsSet("n"),
		all: c.Bool("all"), count: c.Bool("count"), limit: c.Int("limit"), limitSet: c.IsSet("limit"),
		uniqueSet: c.IsSet("unique"), place: c.StringSlice("place"),
		formatName: c.String("format"), formatSet: c.IsSet("format"), output: c.String("output"),
		attacks: c.Bool("attacks"), numbers: c.Bool("numbers"), stats: c.Bool("stats"),
		threads: c.Int("threads"), timeout: c.Duration("timeout"),
	}
	if u, ok := c.Generic("unique").(*uniqueMode); ok && u != nil {
		f.unique = uniqueMode{on: u.on, rotations: u.rotations}
	}
	return f
}

// checkBoardSize checks -n, which must be given, against the command's
// limit max.
func checkBoardSize(n int, nSet bool, max int) error {
	if !nSet {
		return usagef("missing -n N, the board size")
	}
	return usageErr(board.CheckSize(n, max))
}

// parsePlacements reads the --place values and checks them against an
// n×n board.
func parsePlacements(place []string, n int) ([]board.Queen, error) {
	qs, err := board.ParseQueens(place)
	if err == nil {
		err = board.CheckPlacement(n, qs)
	}
	return qs, usageErr(err)
}

// flagOn is a flag's name and whether it is on (set, and true for a
// boolean), for exclusiveFlags.
type flagOn struct {
	name string
	on   bool
}

// exclusiveFlags returns a usage error if more than one of flags is on.
func exclusiveFlags(flags ...flagOn) error {
	set := ""
	for _, f := range flags {
		if f.on {
			if set != "" {
				return usagef("--%s and --%s cannot be used together", set, f.name)
			}
			set = f.name
		}
	}
	return nil
}
