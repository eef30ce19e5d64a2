package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/urfave/cli/v2"
)

// The flags several commands share. Each command takes the ones it needs,
// so that names, usage texts and defaults stay the same everywhere. They are
// functions because urfave/cli flags keep state between runs.
func SizeFlag() cli.Flag {
	// Not Required: urfave/cli prints the help on stdout for a missing
	// required flag; boardSize reports it as a usage error instead.
	// The range is each command's own (board.CheckSize).
	return IntFlag("n", 0, math.MinInt, math.MaxInt, "board size `N` (N x N board, N queens; required)")
}

// PlaceFlag is --place R:C, repeatable: a pre-placed queen, 1-based.
func PlaceFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "place", Usage: "pre-place a queen at `R:C` (1-based row from the top, column from the left); repeatable"}
}

// AllFlag is --all: every solution, as a stream.
func AllFlag() cli.Flag { return &cli.BoolFlag{Name: "all", Usage: "print every solution (a stream)"} }

// CountFlag is --count: the number of solutions only.
func CountFlag() cli.Flag {
	return &cli.BoolFlag{Name: "count", Usage: "print only the number of solutions"}
}

// LimitFlag is --limit K: at most K solutions (0: no limit).
func LimitFlag() cli.Flag {
	return IntFlag("limit", 0, 0, math.MaxInt, "print at most `K` solutions (0: no limit)")
}

// OutFlag is -o/--output FILE: where the results go (- for stdout).
func OutFlag() cli.Flag {
	return &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "-", Usage: "write results to `FILE` (- for stdout); a regular file is written to a temporary name, then renamed; " +
		"FILE.gz, .xz or .zst (any case) is written gzip, xz or zstd, and other compressors' suffixes are refused"}
}

// StatsFlag is --stats: statistics on stderr, after the results.
func StatsFlag() cli.Flag {
	return &cli.BoolFlag{Name: "stats", Usage: "print statistics (nodes, time, ...) on stderr"}
}

// ThreadsFlag is --threads T: worker threads, 1 to maxThreads
// (default: GOMAXPROCS).
func ThreadsFlag() cli.Flag {
	// GOMAXPROCS honours the affinity mask and the cgroup's CPU limit
	// (Go 1.25, the module's floor).
	f := IntFlag("threads", runtime.GOMAXPROCS(0), 1, maxThreads, fmt.Sprintf("worker threads `T` (1 to %d)", maxThreads))
	f.DefaultText = "GOMAXPROCS: the CPUs this process may use (affinity, cgroup CPU limit)"
	return f
}

// TimeoutFlag is --timeout D: give up after D (not negative; 0: never).
func TimeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "timeout", Action: DurationRange("timeout", 0, math.MaxInt64),
		Usage: "give up after `D` (a Go duration such as 30s or 2m; 0: never), exit status 1"}
}

// IntFlag returns an integer flag read in base 10 only and checked
// against min..max as it is parsed: urfave/cli's IntFlag reads 010 as
// octal 8 and 0x10 as 16. c.Int(name) reads it as it reads an IntFlag.
func IntFlag(name string, value, min, max int, usage string) *cli.GenericFlag {
	return &cli.GenericFlag{Name: name, Value: &decimal{v: value, name: name, min: min, max: max}, Usage: usage}
}

// decimalFlag returns f as an IntFlag if it is one of urfave/cli's
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
		g = IntFlag(f.Name, f.Value, math.MinInt, math.MaxInt, f.Usage)
		g.Aliases, g.DefaultText, g.Hidden, g.Category = f.Aliases, f.DefaultText, f.Hidden, f.Category
		if act := f.Action; act != nil {
			action = func(c *cli.Context) error { return act(c, c.Int(f.Name)) }
		}
	case *cli.Int64Flag:
		g = IntFlag(f.Name, int(f.Value), math.MinInt, math.MaxInt, f.Usage)
		g.Aliases, g.DefaultText, g.Hidden, g.Category = f.Aliases, f.DefaultText, f.Hidden, f.Category
		if act := f.Action; act != nil {
			action = func(c *cli.Context) error { return act(c, c.Int64(f.Name)) }
		}
	case *cli.UintFlag:
		g = IntFlag(f.Name, int(f.Value), 0, math.MaxInt, f.Usage)
		g.Aliases, g.DefaultText, g.Hidden, g.Category = f.Aliases, f.DefaultText, f.Hidden, f.Category
		if act := f.Action; act != nil {
			action = func(c *cli.Context) error { return act(c, c.Uint(f.Name)) }
		}
	case *cli.Uint64Flag:
		g = IntFlag(f.Name, int(min(f.Value, math.MaxInt)), 0, math.MaxInt, f.Usage)
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

// decimal is the value of an IntFlag.
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

// DurationRange returns a flag action refusing a duration outside
// min..max.
func DurationRange(name string, min, max time.Duration) func(*cli.Context, time.Duration) error {
	return func(_ *cli.Context, d time.Duration) error {
		switch {
		case d < min && min == 0:
			return Usagef("--%s %v: cannot be negative", name, d)
		case d < min || d > max:
			return Usagef("--%s %v: want %v to %v", name, d, min, max)
		}
		return nil
	}
}

// checkEmpty refuses a flag given an empty value (--checkpoint "",
// -o ""): an empty value is a slip (an unset shell variable), never a
// choice. Flags that take no value, and those parsed as numbers or
// durations (which refuse "" themselves), are not concerned. It is
// every command's Before (see SetUsageErrors).
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
			return Usagef("%s%s: empty value", dashes, name)
		}
	}
	return nil
}

// FormatFlag returns a --format flag listing the formats a command accepts.
func FormatFlag(names ...string) *cli.StringFlag {
	usage := "output format `F`: "
	for i, n := range names {
		if i > 0 {
			usage += ", "
		}
		usage += n
	}
	return &cli.StringFlag{Name: "format", Value: names[0], Usage: usage}
}

// TimeoutContext returns ctx, ending after timeout (--timeout) if it is
// not 0; call cancel when the command is done.
func TimeoutContext(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout > 0 {
		return context.WithTimeout(ctx, timeout)
	}
	return context.WithCancel(ctx)
}

// FlagsBefore refuses a flag written after the arguments args
// (urfave/cli stops reading flags at the first argument, so it would be
// taken for one): "queens merge a.jsonl --verify 5" says so instead of
// failing to read a file named --verify.
func FlagsBefore(args []string, cmd, what string) error {
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && (a[1] == '-' || a[1] >= 'a' && a[1] <= 'z' || a[1] >= 'A' && a[1] <= 'Z') {
			return Usagef("%s: %s comes after %s: put the flags first (queens %s FLAGS... ARGS...)", cmd, a, what, cmd)
		}
	}
	return nil
}

// SolutionFlags are the flags the commands that print solutions share
// (backtrack, sat; board takes a few of them), and the command's
// arguments: read once, by ReadSolutionFlags, the one place that looks
// them up by name.
type SolutionFlags struct {
	Args             []string
	N                int
	NSet             bool // -n given
	All, Count       bool
	Limit            int
	LimitSet         bool
	Unique           UniqueMode
	uniqueSet        bool // --unique given, even as --unique=false
	Place            []string
	FormatName       string
	FormatSet        bool
	Output           string
	attacks, numbers bool
	Stats            bool
	Threads          int
	Timeout          time.Duration

	// Set by the command's check.
	Format board.Format
	Placed []board.Queen
}

// ReadSolutionFlags reads the solution flags of c's command; those it
// lacks read as their zero values.
func ReadSolutionFlags(c *cli.Context) SolutionFlags {
	f := SolutionFlags{
		Args: c.Args().Slice(), N: c.Int("n"), NSet: c.IsSet("n"),
		All: c.Bool("all"), Count: c.Bool("count"), Limit: c.Int("limit"), LimitSet: c.IsSet("limit"),
		uniqueSet: c.IsSet("unique"), Place: c.StringSlice("place"),
		FormatName: c.String("format"), FormatSet: c.IsSet("format"), Output: c.String("output"),
		attacks: c.Bool("attacks"), numbers: c.Bool("numbers"), Stats: c.Bool("stats"),
		Threads: c.Int("threads"), Timeout: c.Duration("timeout"),
	}
	if u, ok := c.Generic("unique").(*UniqueMode); ok && u != nil {
		f.Unique = UniqueMode{On: u.On, Rotations: u.Rotations}
	}
	return f
}

// CheckBoardSize checks -n, which must be given, against the command's
// Limit max.
func CheckBoardSize(n int, nSet bool, max int) error {
	if !nSet {
		return Usagef("missing -n N, the board size")
	}
	return UsageErr(board.CheckSize(n, max))
}

// ParsePlacements reads the --place values and checks them against an
// N×n board.
func ParsePlacements(place []string, n int) ([]board.Queen, error) {
	qs, err := board.ParseQueens(place)
	if err == nil {
		err = board.CheckPlacement(n, qs)
	}
	return qs, UsageErr(err)
}

// FlagOn is a flag's name and whether it is on (set, and true for a
// boolean), for ExclusiveFlags.
type FlagOn struct {
	Name string
	On   bool
}

// ExclusiveFlags returns a usage error if more than one of flags is on.
func ExclusiveFlags(flags ...FlagOn) error {
	set := ""
	for _, f := range flags {
		if f.On {
			if set != "" {
				return Usagef("--%s and --%s cannot be used together", set, f.Name)
			}
			set = f.Name
		}
	}
	return nil
}

// EncodingFlag is --encoding E: the at-most-one encoding of the CNF
// (sat, dimacs).
func EncodingFlag() cli.Flag {
	return &cli.StringFlag{Name: "encoding", Value: string(encode.Auto),
		Usage: "at-most-one encoding `E`: " + EncodingNames() + " or auto (pairwise for small n, commander for large)"}
}

// EncodingNames lists the encodings for help texts.
func EncodingNames() string {
	var names []string
	for _, enc := range encode.Encodings() {
		names = append(names, string(enc))
	}
	return strings.Join(names, ", ")
}
