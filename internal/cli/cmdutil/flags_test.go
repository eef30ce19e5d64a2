package cmdutil

import (
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// FuzzParseDecimal: parseDecimal accepts exactly an optional sign and
// decimal digits within the range of int, and reads them as strconv does
// in base 10 (never octal or hex).
func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"0", "8", "010", "-3", "+7", "0x10", "1_000", "", "-", " 8", "9223372036854775807",
		"9223372036854775808", "-9223372036854775808", "٣", "1e3", "08"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parseDecimal(s)
		want, werr := strconv.ParseInt(s, 10, strconv.IntSize)
		digits := strings.TrimLeft(s, "+-")
		plain := len(s)-len(digits) <= 1 && digits != "" && strings.Trim(digits, "0123456789") == ""
		switch {
		case !plain && err == nil:
			t.Errorf("parseDecimal(%q) = %d, want an error", s, v)
		case plain && werr == nil && (err != nil || int64(v) != want):
			t.Errorf("parseDecimal(%q) = %d, %v; want %d", s, v, err, want)
		case plain && werr != nil && (err == nil || err.Error() != "value out of range"):
			t.Errorf("parseDecimal(%q) = %d, %v; want value out of range", s, v, err)
		case err == nil:
			if back, err := parseDecimal(strconv.Itoa(v)); err != nil || back != v {
				t.Errorf("parseDecimal(Itoa(%d)) = %d, %v", v, back, err)
			}
		}
	})
}

// TestDecimalFlagConversion: every urfave/cli integer flag of a command
// is read in base 10 once SetUsageErrors has seen the command, and its
// action gets the value; the unsigned ones refuse a negative value.
func TestDecimalFlagConversion(t *testing.T) {
	var got []any
	newCmd := func() *cli.Command {
		got = nil
		cmd := &cli.Command{Name: "x", Action: func(*cli.Context) error { return nil }, Flags: []cli.Flag{
			&cli.IntFlag{Name: "a", Action: func(_ *cli.Context, v int) error { got = append(got, v); return nil }},
			&cli.Int64Flag{Name: "b", Action: func(_ *cli.Context, v int64) error { got = append(got, v); return nil }},
			&cli.UintFlag{Name: "c", Action: func(_ *cli.Context, v uint) error { got = append(got, v); return nil }},
			&cli.Uint64Flag{Name: "d", Value: 7, Action: func(_ *cli.Context, v uint64) error { got = append(got, v); return nil }},
		}}
		SetUsageErrors(cmd)
		return cmd
	}
	app := &cli.App{Commands: []*cli.Command{newCmd()}, Writer: io.Discard, ErrWriter: io.Discard}
	if err := app.Run([]string{"q", "x", "--a", "010", "--b", "-010", "--c", "010", "--d", "0010"}); err != nil {
		t.Fatal(err)
	}
	want := []any{10, int64(-10), uint(10), uint64(10)}
	if !slices.Equal(got, want) {
		t.Errorf("actions got %v, want %v", got, want)
	}
	for _, args := range [][]string{{"--a", "0x10"}, {"--b", "1_0"}, {"--c", "-1"}, {"--d", "-1"}} {
		app := &cli.App{Commands: []*cli.Command{newCmd()}, Writer: io.Discard, ErrWriter: io.Discard}
		if err := app.Run(append([]string{"q", "x"}, args...)); err == nil || ExitCode(err) != 2 {
			t.Errorf("%v: error %v, want a usage error", args, err)
		}
	}
}
