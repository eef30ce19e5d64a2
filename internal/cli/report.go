package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare"
)

// What a run reports besides its solutions: a count (--count) and the
// statistics (--stats), as text or JSON Lines.

// writeCount prints a count: "T solutions" or "T solutions (U unique)", or
// in JSON {"n":N,"total":T} with "unique":U when unique is not nil, and
// "verified" and "verified_by" when v is not nil.
func writeCount(w io.Writer, format board.Format, n int, total uint64, unique *uint64, v *verification) error {
	var b []byte
	if format == board.FormatJSON {
		return writeJSONLine(w, struct {
			N      int     `json:"n"`
			Total  uint64  `json:"total"`
			Unique *uint64 `json:"unique,omitempty"`
			*verification
		}{n, total, unique, v})
	} else {
		// "1 solution", as a student reads it; scripts that want one
		// form for every count read --format json.
		b = append(b, solutionsText(total)...)
		if unique != nil {
			b = fmt.Appendf(b, " (%d unique)", *unique)
		}
		b = append(b, '\n')
	}
	_, err := w.Write(b)
	return err
}

// verification is the part of every JSON answer that says whether it was
// verified and how.
type verification = compare.Verification

// newVerification returns the JSON fields of a referee's verdict.
func newVerification(v compare.Verdict) *verification { return v.Verification() }

// verifiedBy returns the JSON fields of an answer verified by m.
func verifiedBy(m compare.Method) *verification { return newVerification(compare.Verdict{By: m}) }

// stat is one statistic for writeStats: a stable name (lowercase, the same
// in text and JSON) and an integer, or a duration written in seconds.
type stat struct {
	name  string
	value any // a string, an integer or a time.Duration
}

// writeStats writes statistics (to stderr, by the contract) on one line:
//
//	stats: n=8 nodes=2057 backtracks=2056 solutions=92 seconds=0.0012
//
// or with --format json one JSON object, the names as keys:
//
//	{"stats":{"n":8,"nodes":2057,"backtracks":2056,"solutions":92,"seconds":0.0012}}
//
// Durations are seconds with up to 6 decimals.
func writeStats(w io.Writer, format board.Format, stats ...stat) error {
	b := []byte("stats:")
	if format == board.FormatJSON {
		b = []byte(`{"stats":{`)
	}
	for i, st := range stats {
		var v []byte
		switch x := st.value.(type) {
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
			name, _ := json.Marshal(st.name)
			b = fmt.Appendf(b, "%s:%s", name, v)
		} else {
			b = fmt.Appendf(b, " %s=%s", st.name, v)
		}
	}
	if format == board.FormatJSON {
		b = append(b, "}}"...)
	}
	_, err := w.Write(append(b, '\n'))
	return err
}

// writeJSONLine writes v as one line of JSON (encoding/json, so that any
// text in it is escaped as JSON requires).
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
