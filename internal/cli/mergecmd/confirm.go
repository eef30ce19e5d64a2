package mergecmd

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/shard"
)

// confirmAction runs merge --confirm RECORD_A RECORD_B FILE...: the two
// records of one count, each by engines of its own split, are checked
// against their lines (as --check-record does, each line going to the
// record of its split) and compared. It succeeds only when the two are of
// one n, their engines are independent (different splits, so different
// searches: the constellations and the join), each checks, and their
// counts agree. Two records of one engine, or of engines of one split (the
// GPU's is the constellations' search on other hardware), are a repeat,
// not a confirmation.
func (m *mergeRun) confirmAction(ctx context.Context) error {
	if len(m.args) < 3 {
		return cmdutil.Usagef("merge --confirm: want two records and the lines of both counts: RECORD_A RECORD_B FILE...")
	}
	paths := m.args[:2]
	recs, splits, err := m.confirmRecords(ctx, paths)
	if err != nil {
		return err
	}
	a, b := recs[0], recs[1]
	in, err := newInputs(m.stdin, m.args[2:], "")
	if err != nil {
		return err
	}
	ms := [2]*shard.Merger{a.Merger(), b.Merger()}
	var pls [2]*plainCheck
	if pls[0], err = m.newPlain(); err != nil {
		return err
	}
	// One seed for both draws, printed once: --seed S repeats them.
	pls[1] = m.newPlainSeeded(pls[0].seed)
	err = in.each(ctx, m.threads, in.explained(ctx, func(r shard.Result) error {
		for i, split := range splits {
			if e, ok := shard.LookupEngine(r.Engine); ok && schemeFamily(e) == split {
				if err := ms[i].Add(r); err != nil {
					return err
				}
				return pls[i].add(r)
			}
		}
		return fmt.Errorf("merge --confirm: the line of shard %d (%s) is of neither record's engines (%s; %s)", r.Shard, r.Source,
			strings.Join(a.Engines, ", "), strings.Join(b.Engines, ", "))
	}))
	if err != nil {
		return err
	}
	for i, mg := range ms {
		if err := mg.Check(ctx, recs[i], m.threads); err != nil {
			if ctx.Err() != nil {
				return err
			}
			return cmdutil.Failf("merge --confirm: %s: %v", paths[i], err)
		}
		if err := pls[i].recount(ctx, paths[i], m.threads); err != nil {
			return err
		}
	}
	if a.Total != b.Total || a.Unique != b.Unique {
		return cmdutil.Failf("merge --confirm: the two counts of n = %d DIFFER: %s solutions (%s unique) by %s in %s, %s (%s) by %s in %s",
			a.N, a.Total, a.Unique, strings.Join(a.Engines, ", "), paths[0], b.Total, b.Unique, strings.Join(b.Engines, ", "), paths[1])
	}
	return m.writeConfirmed(paths, recs, pls)
}

// confirmRecords reads the two records of --confirm (paths) and the
// splits their engines count: they must be two, of one n, by engines of
// different splits.
func (m *mergeRun) confirmRecords(ctx context.Context, paths []string) (recs [2]shard.Record, splits [2]string, err error) {
	if a, err := os.Stat(paths[0]); err == nil {
		if b, err := os.Stat(paths[1]); err == nil && os.SameFile(a, b) {
			return recs, splits, cmdutil.Usagef("merge --confirm: %s and %s are the same record: a record does not confirm itself", paths[0], paths[1])
		}
	}
	for i, path := range paths {
		if recs[i], err = readRecord(ctx, path, m.limit()); err != nil {
			return recs, splits, err
		}
		if splits[i], err = recordSplit(recs[i]); err != nil {
			return recs, splits, cmdutil.Failf("merge --confirm: %s: %v", path, err)
		}
	}
	a, b := recs[0], recs[1]
	switch {
	case a.N != b.N:
		err = cmdutil.Failf("merge --confirm: %s counts n = %d, %s n = %d: not one count", paths[0], a.N, paths[1], b.N)
	case slices.Equal(a.Engines, b.Engines):
		err = cmdutil.Failf("merge --confirm: %s and %s were both counted by %s: a repeat of the same code, not a confirmation",
			paths[0], paths[1], strings.Join(a.Engines, ", "))
	case splits[0] == splits[1]:
		err = cmdutil.Failf("merge --confirm: %s (%s) and %s (%s) count the same pieces of one split with one search: not independent engines (count one with the constellations, the other with the join)",
			paths[0], strings.Join(a.Engines, ", "), paths[1], strings.Join(b.Engines, ", "))
	}
	return recs, splits, err
}

// writeConfirmed says that the records at paths confirm each other.
func (m *mergeRun) writeConfirmed(paths []string, recs [2]shard.Record, pls [2]*plainCheck) error {
	a, b := recs[0], recs[1]
	if m.format == "json" {
		type side struct {
			Record    string   `json:"record"`
			Engines   []string `json:"engines"`
			Checks    []string `json:"checks"`
			Recounted int      `json:"recounted"`      // pieces recounted with the plain search
			Seed      uint64   `json:"seed"`           // of their draw
			Note      string   `json:"note,omitempty"` // why the default recounted fewer than 16
		}
		return cmdutil.WriteJSONLine(m.stdout, struct {
			N         int      `json:"n"`
			Total     string   `json:"total"`
			Unique    string   `json:"unique"`
			Published string   `json:"published"`
			Checks    []string `json:"checks"`
			Records   [2]side  `json:"records"`
		}{a.N, a.Total, a.Unique, a.Published, []string{shard.CheckEngine},
			[2]side{{paths[0], a.Engines, a.Checks, len(pls[0].checked), pls[0].seed, pls[0].note()},
				{paths[1], b.Engines, b.Checks, len(pls[1].checked), pls[1].seed, pls[1].note()}}})
	}
	_, err := fmt.Fprintf(m.stdout, "n = %d: %s solutions (%s unique), confirmed by two independent engines: %s (%s; checks: %s) and %s (%s; checks: %s)\n%s: %s%s: %s",
		a.N, a.Total, a.Unique, strings.Join(a.Engines, ", "), paths[0], checksOf(a), strings.Join(b.Engines, ", "), paths[1], checksOf(b),
		paths[0], pls[0].report(), paths[1], pls[1].report())
	return err
}

// recordSplit returns the split a record's engines count the pieces of (see
// schemeFamily): one for all of them, or an error.
func recordSplit(rec shard.Record) (string, error) {
	split := ""
	for _, name := range rec.Engines {
		e, ok := shard.LookupEngine(name)
		if !ok {
			return "", fmt.Errorf("unknown engine %q", name)
		}
		if split != "" && schemeFamily(e) != split {
			return "", fmt.Errorf("engines of two splits (%s)", strings.Join(rec.Engines, ", "))
		}
		split = schemeFamily(e)
	}
	if split == "" {
		return "", fmt.Errorf("no engine named")
	}
	return split, nil
}

// schemeFamily names the split whose pieces e counts: the constellations
// (whole or in sub-parts) or the parts of the join.
func schemeFamily(e shard.Engine) string {
	if e.Scheme == shard.JoinScheme {
		return shard.JoinScheme
	}
	return shard.Scheme
}

// checksOf writes a record's checks for a message, "none" for none.
func checksOf(rec shard.Record) string {
	if len(rec.Checks) == 0 {
		return "none"
	}
	return strings.Join(rec.Checks, ", ")
}
