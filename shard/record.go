package shard

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/quote"
)

// ErrRecord is wrapped by the errors of [ParseRecord] and [CheckRecord]: a
// record that is damaged, or that its lines do not reproduce.
var ErrRecord = errors.New("merge record does not check")

// A Record is what a merge found and how it was checked, kept so that the
// merge can be checked again later from the same lines ([CheckRecord]):
// the count, the versions and engines of the lines, the recount (how
// many pieces, the seed of the draw and the pieces drawn), the
// confirmations and repeats, the kinds of check the count rests on
// (Checks), and each line by the SHA-256 checksum it carries, with its
// host and elapsed time (the first 65,536 lines; every line in
// line_count and lines_digest). It is written as one line of JSON with
// its own checksum at the end, like a shard line:
//
//	{"kind":"queens-merge-record","n":10,"total":"724","unique":"92","published":"matches",
//	 "shards":4,"parts":273,"versions":["v1.2.0"],"engines":["constellations"],
//	 "verify":3,"seed":8301457212,"recounted":[{"shard":1,"piece":"1:5:6:7"},...],
//	 "confirmed":0,"repeated":0,"checks":["published-table","recount-sample"],
//	 "lines":[{"shard":0,"checksum":"...","engine":"constellations","host":"node1","elapsed":0.01},...],
//	 "line_count":4,"lines_digest":"...","elapsed":0.04,"merged_by":"v1.2.0","checksum":"..."}
//
// total and unique are strings of decimal digits: from n = 30 they pass
// 2^64, which JSON readers do not all hold.
type Record struct {
	Kind      string   `json:"kind"`
	N         int      `json:"n"`
	Total     string   `json:"total"`
	Unique    string   `json:"unique"`
	Published string   `json:"published"` // "matches", "differs" or "unknown" (n beyond the table)
	Shards    int      `json:"shards"`
	Parts     int      `json:"parts"`
	Versions  []string `json:"versions"` // of the lines: one, as Merge requires
	Engines   []string `json:"engines"`  // of the lines, sorted

	Verify    int       `json:"verify"` // pieces recounted, drawn with Seed
	Seed      uint64    `json:"seed"`
	Recounted []Checked `json:"recounted"`

	Confirmed int `json:"confirmed"` // shards whose lines of two engines agree (Sum.Confirmed)
	Repeated  int `json:"repeated"`  // shards given again by the same engine (Sum.Repeated)
	// Checks names the kinds of check the count rests on, of
	// [CheckPublished], [CheckRecount], [CheckEngine] and [CheckRepeat],
	// in that order; none when only the lines' own checks hold.
	Checks []string `json:"checks"`

	Lines       []RecordLine `json:"lines"`        // the lines given, by shard: all of them up to 65,536, else none
	LineCount   int          `json:"line_count"`   // the lines given
	LinesDigest string       `json:"lines_digest"` // of every line given, in any order: see Merger
	Elapsed     float64      `json:"elapsed"`      // seconds, summed over every line given (in whole milliseconds, as the lines have them)
	MergedBy    string       `json:"merged_by"`    // the version of queens that merged: not checked (see NotChecked)
	Checksum    string       `json:"checksum,omitempty"`
}

// The kinds of check a [Record] rests on (Record.Checks).
const (
	CheckPublished = "published-table"    // the count matches the published table
	CheckRecount   = "recount-sample"     // pieces drawn at random were recounted and agree
	CheckEngine    = "independent-engine" // every shard was counted by two engines that agree
	CheckRepeat    = "repeat"             // some shards were counted again by the same engine: no independent check
)

// NotChecked names the fields of a [Record] that no check re-derives
// from the lines: merged_by, the version of the program that merged
// (the checking program may be another). [Merger.Check] re-derives every
// other field.
var NotChecked = []string{"merged_by"}

// RecordLine is one shard line in a [Record].
type RecordLine struct {
	Shard    int     `json:"shard"`
	Checksum string  `json:"checksum"` // the line's own, the SHA-256 of its body
	Engine   string  `json:"engine"`
	Host     string  `json:"host"`
	Elapsed  float64 `json:"elapsed"`
}

const recordKind = "queens-merge-record"

// NewRecord returns the record of the merge of results (sum, from
// [Merge]) and of its recount (checked, from [Verify] with seed; none if
// nothing was recounted), merged by the program version mergedBy.
func NewRecord(sum Sum, results []Result, checked []Checked, seed uint64, mergedBy string) Record {
	var m Merger
	for _, r := range results {
		m.Add(r) // Merge took them
	}
	return m.Record(sum, checked, seed, mergedBy)
}

// Record returns the record of the lines added (sum, from
// [Merger.Sum]) and of their recount (checked, from [Merger.Recount] with
// seed; none if nothing was recounted), merged by the program version
// mergedBy.
func (m *Merger) Record(sum Sum, checked []Checked, seed uint64, mergedBy string) Record {
	rec := Record{
		Kind: recordKind, N: sum.N, Total: sum.Total.String(), Unique: sum.Unique.String(),
		Published: Published(sum), Shards: sum.Shards, Parts: sum.Parts,
		Versions: []string{m.r0.Version}, Engines: slices.Sorted(slices.Values(m.engines)),
		Verify: len(checked), Seed: seed, Recounted: append([]Checked{}, checked...),
		Confirmed: sum.Confirmed, Repeated: sum.Repeated, Checks: []string{},
		Lines: slices.Clone(m.listed), LineCount: m.lines, MergedBy: mergedBy,
		Elapsed: float64(m.spent) / 1000,
	}
	if len(checked) == 0 {
		rec.Seed = 0
	}
	for i := range rec.Recounted {
		rec.Recounted[i].Source = ""
	}
	if rec.Lines == nil {
		rec.Lines = []RecordLine{}
	}
	var digest [32]byte
	for i, x := range m.digest {
		binary.BigEndian.PutUint64(digest[8*i:], x)
	}
	rec.LinesDigest = hex.EncodeToString(digest[:])
	slices.SortStableFunc(rec.Lines, func(a, b RecordLine) int {
		return cmp.Or(cmp.Compare(a.Shard, b.Shard), cmp.Compare(a.Checksum, b.Checksum))
	})
	for _, c := range []struct {
		on   bool
		name string
	}{
		{rec.Published == "matches", CheckPublished}, {len(checked) > 0, CheckRecount},
		{sum.Confirmed == sum.Shards && sum.Shards > 0, CheckEngine}, {sum.Repeated > 0, CheckRepeat},
	} {
		if c.on {
			rec.Checks = append(rec.Checks, c.name)
		}
	}
	return rec
}

// Published says what the published table says of sum: "matches",
// "differs", or "unknown" for n beyond the table (then recounts and
// confirmations are the only checks).
func Published(sum Sum) string {
	want, ok := board.Known(sum.N)
	switch {
	case !ok:
		return "unknown"
	case sum.Total == From64(want.Total) && sum.Unique == From64(want.Unique):
		return "matches"
	}
	return "differs"
}

// AppendLine appends rec as one line of JSON, with its checksum, to b.
func (rec Record) AppendLine(b []byte) []byte {
	rec.Checksum = ""
	body, err := json.Marshal(rec)
	if err != nil {
		panic("shard: marshal record: " + err.Error()) // plain fields cannot fail
	}
	return appendSigned(b, body)
}

// ParseRecord reads a record written by [Record.AppendLine], checking its
// checksum and form. Errors wrap [ErrRecord].
func ParseRecord(text []byte) (Record, error) {
	text = bytes.TrimRight(text, "\r\n")
	if !bytes.HasPrefix(text, []byte(`{"kind":"`+recordKind+`"`)) {
		return Record{}, fmt.Errorf("parse record: %w: not a merge record", ErrRecord)
	}
	body, err := signedBody(nil, text)
	if err != nil {
		return Record{}, fmt.Errorf("parse record: %w: checksum does not match%v", ErrRecord, err)
	}
	var rec Record
	if err := decodeStrict(body, &rec); err != nil {
		return Record{}, fmt.Errorf("parse record: %w: %v", ErrRecord, err)
	}
	if again := rec.AppendLine(nil); !bytes.Equal(bytes.TrimRight(again, "\n"), text) {
		return Record{}, fmt.Errorf("parse record: %w: not in the form queens writes", ErrRecord)
	}
	return rec, nil
}

// CheckRecord checks that the lines reproduce rec: merged, they give the
// same count, shards, versions, engines, confirmations and repeats, they
// are the very lines of the record (by their checksums, and the digest of
// them all), and recounting as the record says (the same number of
// pieces, drawn with the same seed: the same pieces) agrees with them. A
// piece recounted is counted again, so this takes as long as the merge's
// recount did. Errors wrap [ErrRecord] (naming the first difference), or
// are those of [Merge] and [Verify], or ctx's. [Merger.Check] does the
// same with lines added one at a time.
func CheckRecord(ctx context.Context, rec Record, results []Result) error {
	m := rec.Merger()
	for _, r := range results {
		if err := m.Add(r); err != nil {
			return fmt.Errorf("check record: %w", err)
		}
	}
	return m.Check(ctx, rec, 1)
}

// Merger returns a [Merger] that draws the pieces rec's recount drew,
// for [Merger.Check].
func (rec Record) Merger() *Merger {
	return &Merger{Verify: func(int) (int, error) { return rec.Verify, nil }, Seed: rec.Seed}
}

// Check checks rec against the lines added to m (made by
// [Record.Merger]), as [CheckRecord] does, recounting on threads
// goroutines.
func (m *Merger) Check(ctx context.Context, rec Record, threads int) error {
	if rec.Kind != recordKind {
		return fmt.Errorf("check record: %w: kind %s", ErrRecord, quote.Token(rec.Kind))
	}
	sum, err := m.Sum()
	if err != nil {
		return fmt.Errorf("check record: %w", err)
	}
	var checked []Checked
	if rec.Verify > 0 {
		if checked, err = m.Recount(ctx, threads); err != nil {
			return fmt.Errorf("check record: %w", err)
		}
	}
	// merged_by, the version that merged, is the one field no line
	// gives: it is taken as the record says (see [NotChecked]).
	again := m.Record(sum, checked, rec.Seed, rec.MergedBy)
	for _, d := range []struct {
		what       string
		want, have any
	}{
		{"n", rec.N, again.N}, {"total", rec.Total, again.Total}, {"unique", rec.Unique, again.Unique},
		{"published", rec.Published, again.Published}, {"shards", rec.Shards, again.Shards},
		{"parts", rec.Parts, again.Parts}, {"versions", rec.Versions, again.Versions},
		{"engines", rec.Engines, again.Engines}, {"confirmed", rec.Confirmed, again.Confirmed},
		{"repeated", rec.Repeated, again.Repeated}, {"checks", rec.Checks, again.Checks},
		{"line count", rec.LineCount, again.LineCount}, {"lines", len(rec.Lines), len(again.Lines)},
		{"elapsed", rec.Elapsed, again.Elapsed},
		{"pieces recounted", rec.Verify, len(checked)}, {"pieces listed as recounted", len(rec.Recounted), len(again.Recounted)},
	} {
		if fmt.Sprint(d.want) != fmt.Sprint(d.have) {
			return fmt.Errorf("check record: %w: the record has %s %s, the lines give %s", ErrRecord, d.what,
				quote.Text(fmt.Sprint(d.want)), quote.Text(fmt.Sprint(d.have)))
		}
	}
	for i, l := range rec.Lines {
		if l != again.Lines[i] {
			return fmt.Errorf("check record: %w: the record has shard %d line %s (%s, %v s), the lines give shard %d line %s (%s, %v s)",
				ErrRecord, l.Shard, quote.Text(l.Checksum), quote.Text(l.Host), l.Elapsed,
				again.Lines[i].Shard, again.Lines[i].Checksum, quote.Text(again.Lines[i].Host), again.Lines[i].Elapsed)
		}
	}
	for i, c := range rec.Recounted {
		if c != again.Recounted[i] {
			return fmt.Errorf("check record: %w: the seed %d draws piece %s of shard %d where the record has %s of shard %d",
				ErrRecord, rec.Seed, again.Recounted[i].Piece, again.Recounted[i].Shard, quote.Text(c.Piece), c.Shard)
		}
	}
	if rec.LinesDigest != again.LinesDigest {
		return fmt.Errorf("check record: %w: the record's lines digest %s is not that of the lines, %s", ErrRecord,
			quote.Text(rec.LinesDigest), again.LinesDigest)
	}
	// Whatever else the record says (a field no check above names) must
	// be what the lines give too.
	rec.Checksum = ""
	if a, b := rec.AppendLine(nil), again.AppendLine(nil); !bytes.Equal(a, b) {
		return fmt.Errorf("check record: %w: it is not the record the lines give", ErrRecord)
	}
	return nil
}
