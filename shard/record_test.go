package shard

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
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
