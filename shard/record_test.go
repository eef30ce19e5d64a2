package shard

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestRecord writes the record of a merge with a recount, reads it back,
// checks it against its lines given in another order, and refuses it
// against other lines, a changed record and a record whose recount the
// seed does not reproduce.
func TestRecord(t *testing.T) {
	ctx := context.Background()
	rs, err := parseAll(runAll(t, 9, 3, "test"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Merge(rs)
	if err != nil {
		t.Fatal(err)
	}
	checked, err := Verify(ctx, rs, 5, 42)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecord(sum, rs, checked, 42, "merger")
	line := rec.AppendLine(nil)
	for _, want := range []string{`{"kind":"queens-merge-record","n":9,"total":"352","unique":"46","published":"matches","shards":3,`,
		`"versions":["test"],"engines":["constellations"],"verify":5,"seed":42,"recounted":[{"shard":`} {
		if !bytes.Contains(line, []byte(want)) {
			t.Fatalf("record %s lacks %s", line, want)
		}
	}
	back, err := ParseRecord(line)
	if err != nil {
		t.Fatal(err)
	}
	reversed := slices.Clone(rs)
	slices.Reverse(reversed)
	if err := CheckRecord(ctx, back, reversed); err != nil {
		t.Errorf("CheckRecord against its lines in reverse: %v", err)
	}

	other := slices.Clone(rs)
	other[1].Host = "elsewhere" // another run of shard 1: the same count, another line
	if err := CheckRecord(ctx, back, other); !errors.Is(err, ErrRecord) || !strings.Contains(err.Error(), "shard 1 line") {
		t.Errorf("CheckRecord against another line of shard 1: %v; want ErrRecord naming it", err)
	}
	if err := CheckRecord(ctx, back, rs[:2]); !errors.Is(err, ErrMissing) {
		t.Errorf("CheckRecord with a line missing: %v; want ErrMissing", err)
	}
	if _, err := ParseRecord(bytes.Replace(line, []byte(`"total":"352"`), []byte(`"total":"353"`), 1)); !errors.Is(err, ErrRecord) {
		t.Errorf("ParseRecord of a changed record: %v; want ErrRecord", err)
	}
	forged := back
	forged.Seed = 43 // re-signed: the seed no longer draws the pieces listed
	if again, err := ParseRecord(forged.AppendLine(nil)); err != nil {
		t.Fatal(err)
	} else if err := CheckRecord(ctx, again, rs); !errors.Is(err, ErrRecord) || !strings.Contains(err.Error(), "the seed 43 draws") {
		t.Errorf("CheckRecord of a record whose seed draws other pieces: %v", err)
	}
	forged = back
	forged.Total = "353"
	if err := CheckRecord(ctx, forged, rs); !errors.Is(err, ErrRecord) || !strings.Contains(err.Error(), "total 353") {
		t.Errorf("CheckRecord of a record with another total: %v", err)
	}
}

// TestCheckRecordRecounted checks that a record whose list of pieces
// recounted was lengthened, emptied or cut (its checksum recomputed) is
// refused, never a panic or "all agree", and that one whose lines or
// digest were changed is refused too.
func TestCheckRecordRecounted(t *testing.T) {
	ctx := context.Background()
	rs, err := parseAll(runAll(t, 8, 3, "test"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Merge(rs)
	if err != nil {
		t.Fatal(err)
	}
	checked, err := Verify(ctx, rs, 2, 7)
	if err != nil || len(checked) != 2 {
		t.Fatalf("Verify = %v, %v", checked, err)
	}
	rec := NewRecord(sum, rs, checked, 7, "merger")
	if err := CheckRecord(ctx, rec, rs); err != nil {
		t.Fatalf("CheckRecord of the record itself: %v", err)
	}
	edits := map[string]func(r *Record){
		"longer":    func(r *Record) { r.Recounted = append(r.Recounted, r.Recounted...) },
		"emptied":   func(r *Record) { r.Recounted = []Checked{} },
		"cut":       func(r *Record) { r.Recounted = r.Recounted[:1] },
		"no lines":  func(r *Record) { r.Lines = []RecordLine{} },
		"digest":    func(r *Record) { r.LinesDigest = strings.Repeat("0", 64) },
		"checks":    func(r *Record) { r.Checks = append(r.Checks, CheckEngine) },
		"repeated":  func(r *Record) { r.Repeated = 1 },
		"linecount": func(r *Record) { r.LineCount++ },
		"elapsed":   func(r *Record) { r.Elapsed += 0.001 },
	}
	// merged_by is the one field no line gives (NotChecked).
	if back, err := ParseRecord(func() Record { r := rec; r.MergedBy = "forged"; return r }().AppendLine(nil)); err != nil {
		t.Fatal(err)
	} else if err := CheckRecord(ctx, back, rs); err != nil || !slices.Equal(NotChecked, []string{"merged_by"}) {
		t.Errorf("CheckRecord of a record merged by another version: %v (not checked: %q)", err, NotChecked)
	}
	for name, edit := range edits {
		forged := rec
		forged.Recounted = slices.Clone(rec.Recounted)
		edit(&forged)
		back, err := ParseRecord(forged.AppendLine(nil)) // re-signed
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := CheckRecord(ctx, back, rs); !errors.Is(err, ErrRecord) {
			t.Errorf("%s: CheckRecord = %v; want ErrRecord", name, err)
		}
	}
}

// TestRecordChecks checks the kinds of check a record says it rests on.
func TestRecordChecks(t *testing.T) {
	lines := runAll(t, 8, 2, "test")
	rs, err := parseAll(lines)
	if err != nil {
		t.Fatal(err)
	}
	gpu := make([]Result, len(rs))
	for i, r := range rs {
		r.Engine = EngineGPU
		if gpu[i], err = Parse(r.AppendLine(nil)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name    string
		results []Result
		k       int
		want    []string
	}{
		{"lines", rs, 0, []string{CheckPublished}},
		{"recount", rs, 3, []string{CheckPublished, CheckRecount}},
		{"repeat", append(slices.Clone(rs), rs[0]), 0, []string{CheckPublished, CheckRepeat}},
		// The GPU runs the constellations' search: a repeat, never an
		// independent engine, however many of its lines come.
		{"gpu", append(slices.Clone(rs), gpu...), 0, []string{CheckPublished, CheckRepeat}},
		{"some gpu", append(slices.Clone(rs), gpu[1]), 0, []string{CheckPublished, CheckRepeat}},
	} {
		sum, err := Merge(c.results)
		if err != nil {
			t.Fatal(err)
		}
		checked, err := Verify(context.Background(), c.results, c.k, 1)
		if err != nil {
			t.Fatal(err)
		}
		if rec := NewRecord(sum, c.results, checked, 1, "m"); !slices.Equal(rec.Checks, c.want) {
			t.Errorf("%s: checks %q; want %q", c.name, rec.Checks, c.want)
		}
	}
}

// TestCheckRecordHugeVerify checks that a record claiming a recount of
// more pieces than a merge draws is refused before anything is sized.
func TestCheckRecordHugeVerify(t *testing.T) {
	rs, err := parseAll(runAll(t, 6, 2, "test"))
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecord(Sum{}, rs, nil, 0, "m")
	rec.Verify = min(1<<40, math.MaxInt) // all the pieces are fewer: recounted, they differ from the record
	if err := CheckRecord(context.Background(), rec, rs); !errors.Is(err, ErrRecord) {
		t.Errorf("CheckRecord of a record with verify 2^40: %v; want ErrRecord", err)
	}
	// Of a split of more pieces than MaxRecount, the draw is refused
	// before it is sized.
	m := Merger{Verify: func(int) (int, error) { return min(1<<40, math.MaxInt), nil }}
	if err := m.drawPieces(MaxRecount+1, 3, 0); !errors.Is(err, ErrVerify) || m.picks != nil {
		t.Errorf("a draw of 2^40 of %d pieces: %v, %d picks; want ErrVerify and none", MaxRecount+1, err, len(m.picks))
	}
}

// TestDigestText checks that addDigest hashes the text it always hashed,
// fmt's "%d %s %s %q %v" of a line's fields, so that the digests of
// records written before still check.
func TestDigestText(t *testing.T) {
	for _, l := range []RecordLine{
		{Shard: 0, Checksum: "ab", Engine: EngineConstellations, Host: "node1", Elapsed: 0},
		{Shard: 16777215, Checksum: strings.Repeat("f", 64), Engine: EngineJoin, Host: "n\"ö\x01\u2028\xff", Elapsed: 1800.125},
		{Shard: 7, Engine: "x", Elapsed: 1e21},
		{Shard: 7, Elapsed: 1e-7},
		{Shard: 7, Elapsed: 123456789.001},
		{Shard: 7, Elapsed: 1e9},
	} {
		h := sha256.Sum256(fmt.Appendf(nil, "%d %s %s %q %v", l.Shard, l.Checksum, l.Engine, l.Host, l.Elapsed))
		var want [4]uint64
		for i := range want {
			want[i] = binary.BigEndian.Uint64(h[8*i:])
		}
		if got := addDigest([4]uint64{}, l); got != want {
			t.Errorf("%+v: digest %x, want %x", l, got, want)
		}
	}
}

// TestRecordElapsedAnyOrder checks that a record's elapsed is the sum over
// every line, whatever their order: a repeat of a shard that took
// another time, given first or last, gives the same record, which checks
// against the lines in either order.
func TestRecordElapsedAnyOrder(t *testing.T) {
	lines := runAll(t, 8, 2, "test")
	r, err := Parse(lines[1])
	if err != nil {
		t.Fatal(err)
	}
	r.Elapsed, r.Host = r.Elapsed+1234*time.Millisecond, "slow"
	first, err := parseAll([][]byte{r.AppendLine(nil), lines[0], lines[1]})
	if err != nil {
		t.Fatal(err)
	}
	last := []Result{first[1], first[2], first[0]}
	var recs []Record
	for _, rs := range [][]Result{first, last} {
		sum, err := Merge(rs)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, NewRecord(sum, rs, nil, 0, "m"))
	}
	want := float64((first[0].Elapsed + first[1].Elapsed + first[2].Elapsed).Milliseconds()) / 1000
	if recs[0].Elapsed != want || recs[1].Elapsed != want {
		t.Errorf("record elapsed %v and %v; want %v, the sum over the lines", recs[0].Elapsed, recs[1].Elapsed, want)
	}
	if err := CheckRecord(context.Background(), recs[0], last); err != nil {
		t.Errorf("CheckRecord against the lines in another order: %v", err)
	}
}
