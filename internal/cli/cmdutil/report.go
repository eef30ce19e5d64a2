package cmdutil

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare"
)

// WriteUniqueCount writes a count as --unique asks: WriteCount's "T
// solutions (U unique)" for the classes under all 8 symmetries, and for
// --unique=rotations "T solutions (R unique up to rotation)", in JSON
// {"n":N,"total":T,"unique":R,"symmetry":"rotations"}.
func WriteUniqueCount(w io.Writer, format board.Format, n int, total uint64, mode UniqueMode, unique, rotations uint64) error {
	switch {
	case !mode.On:
		return WriteCount(w, format, n, total, nil, nil)
	case !mode.Rotations:
		return WriteCount(w, format, n, total, &unique, nil)
	case format == board.FormatJSON:
		return WriteJSONLine(w, struct {
			N        int    `json:"n"`
			Total    uint64 `json:"total"`
			Unique   uint64 `json:"unique"`
			Symmetry string `json:"symmetry"`
		}{n, total, rotations, "rotations"})
	}
	_, err := fmt.Fprintf(w, "%s (%d unique up to rotation)\n", SolutionsText(total), rotations)
	return err
}

// What a run reports besides its solutions: a count (--count) and the
// statistics (--stats), as text or JSON Lines.

// WriteCount prints a count: "T solutions" or "T solutions (U unique)", or
// in JSON {"n":N,"total":T} with "unique":U when unique is not nil, and
// "verified" and "verified_by" when v is not nil.
func WriteCount(w io.Writer, format board.Format, n int, total uint64, unique *uint64, v *Verification) error {
	var b []byte
	if format == board.FormatJSON {
		return WriteJSONLine(w, struct {
			N      int     `json:"n"`
			Total  uint64  `json:"total"`
			Unique *uint64 `json:"unique,omitempty"`
			*Verification
		}{n, total, unique, v})
	} else {
		// "1 solution", as a student reads it; scripts that want one
		// form for every count read --format json.
		b = append(b, SolutionsText(total)...)
		if unique != nil {
			b = fmt.Appendf(b, " (%d unique)", *unique)
		}
		b = append(b, '\n')
	}
	_, err := w.Write(b)
	return err
}

// Verification is the part of every JSON answer that says whether it was
// Verified and how.
type Verification = compare.Verification

// newVerification returns the JSON fields of a referee's verdict.
func newVerification(v compare.Verdict) *Verification { return v.Verification() }

// VerifiedBy returns the JSON fields of an answer verified by m.
func VerifiedBy(m compare.Method) *Verification { return newVerification(compare.Verdict{By: m}) }

// Stat is one statistic for WriteStats: a stable name (lowercase, the same
// in text and JSON) and an integer, or a duration written in seconds.
type Stat struct {
	Name  string
	Value any // a string, an integer or a time.Duration
}

// WriteStats writes statistics (to stderr, by the contract) on one line:
//
//	Stats: n=8 nodes=2057 backtracks=2056 solutions=92 seconds=0.0012
//
// or with --format json one JSON object, the names as keys:
//
//	{"stats":{"n":8,"nodes":2057,"backtracks":2056,"solutions":92,"seconds":0.0012}}
//
// Durations are seconds with up to 6 decimals.
func WriteStats(w io.Writer, format board.Format, stats ...Stat) error {
	b := []byte("stats:")
	if format == board.FormatJSON {
		b = []byte(`{"stats":{`)
	}
	for i, st := range stats {
		var v []byte
		switch x := st.Value.(type) {
		case time.Duration:
			v = strconv.AppendFloat(nil, math.Round(x.Seconds()*1e6)/1e6, 'f', -1, 64)
		default:
			v = fmt.Append(nil, x)
			if k := reflect.ValueOf(x).Kind(); format == board.FormatJSON && (k < reflect.Int || k > reflect.Uint64) {
				// A string, or a value written as one (an
				// encoding's name).
				v, _ = json.Marshal(string(v))
			}
		}
		if format == board.FormatJSON {
			if i > 0 {
				b = append(b, ',')
			}
			name, _ := json.Marshal(st.Name)
			b = fmt.Appendf(b, "%s:%s", name, v)
		} else {
			b = fmt.Appendf(b, " %s=%s", st.Name, v)
		}
	}
	if format == board.FormatJSON {
		b = append(b, "}}"...)
	}
	_, err := w.Write(append(b, '\n'))
	return err
}

// WriteJSONLine writes v as one line of JSON (encoding/json, so that any
// text in it is escaped as JSON requires).
func WriteJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// SymmetryNames lists the symmetries for a message ("none" for none).
func SymmetryNames(ts []board.Transform) string {
	if len(ts) == 0 {
		return "none"
	}
	return joinStrings(ts, ", ")
}

// joinStrings joins the String forms of xs with sep between them.
func joinStrings[T fmt.Stringer](xs []T, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = x.String()
	}
	return strings.Join(parts, sep)
}

// Plural returns "1 word" or "k words".
func Plural(k int, word string) string {
	if k == 1 {
		return "1 " + word
	}
	return strconv.Itoa(k) + " " + word + "s"
}
