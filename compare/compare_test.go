package compare

import (
	"context"
	"errors"
	"iter"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare/sets"
	"github.com/queens-dev/queens/internal/testutil"
)

// faulty wraps a source with a fault: filter drops solutions, extra adds
// some after the stream.
func faulty(src Source, drop func(board.Solution) bool, extra ...board.Solution) Source {
	return func(ctx context.Context, n int, place []board.Queen) iter.Seq2[board.Solution, error] {
		return func(yield func(board.Solution, error) bool) {
			for s, err := range src(ctx, n, place) {
				if err != nil || (drop != nil && drop(s)) {
					if err != nil {
						yield(nil, err)
						return
					}
					continue
				}
				if !yield(s, nil) {
					return
				}
			}
			for _, s := range extra {
				if len(s) == n && s.Contains(place) && !yield(s, nil) {
					return
				}
			}
		}
	}
}

func seq(src Source, n int) iter.Seq2[board.Solution, error] {
	return src(context.Background(), n, nil)
}

func shuffled(src Source, seed uint64) Source {
	return func(ctx context.Context, n int, place []board.Queen) iter.Seq2[board.Solution, error] {
		var all []board.Solution
		for s := range src(ctx, n, place) {
			all = append(all, s.Clone())
		}
		rand.New(rand.NewPCG(seed, 1)).Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		return func(yield func(board.Solution, error) bool) {
			for _, s := range all {
				if !yield(s, nil) {
					return
				}
			}
		}
	}
}

func TestFingerprintOrderIndependent(t *testing.T) {
	for n := 1; n <= 8; n++ {
		want := Run(context.Background(), Engine{Name: "brute", Solutions: testutil.All}, n, nil)
		for seed := uint64(0); seed < 5; seed++ {
			got := Run(context.Background(), Engine{Name: "shuffled", Solutions: shuffled(testutil.All, seed)}, n, nil)
			if got.Fingerprint != want.Fingerprint {
				t.Errorf("n=%d seed %d: shuffled fingerprint %v, want %v", n, seed, got.Fingerprint, want.Fingerprint)
			}
		}
		if c, ok := board.Known(n); !ok || want.Fingerprint.Count != c.Total || want.Unique != c.Unique {
			t.Errorf("n=%d: brute force %d (%d unique), published %+v", n, want.Fingerprint.Count, want.Unique, c)
		}
	}
}

func TestFingerprintSensitive(t *testing.T) {
	a, b := Fingerprint{}, Fingerprint{}
	s := board.Solution{1, 3, 0, 2}
	a.Add(s)
	b.Add(s)
	if a != b {
		t.Fatal("same multiset, different fingerprints")
	}
	b.Add(s) // a duplicate
	if a == b {
		t.Error("a duplicate does not change the fingerprint")
	}
	// Adding a solution and its mirror vs the mirror twice: different.
	c, d := Fingerprint{}, Fingerprint{}
	m := board.MirrorCols.Apply(s)
	c.Add(s)
	c.Add(m)
	d.Add(m)
	d.Add(m)
	if c == d || c.Count != d.Count {
		t.Error("multisets of the same size differ only in content and the fingerprint misses it")
	}
	// Merge equals adding one by one.
	var whole, p1, p2 Fingerprint
	for s := range seq(testutil.All, 6) {
		whole.Add(s)
		if s[0] < 3 {
			p1.Add(s)
		} else {
			p2.Add(s)
		}
	}
	p1.Merge(p2)
	if p1 != whole {
		t.Errorf("merged parts %v, whole %v", p1, whole)
	}
	// Distinct solutions of n=8 have distinct hashes.
	seen := map[[2]uint64]bool{}
	for s := range seq(testutil.All, 8) {
		hi, lo := sets.Hash(s)
		if seen[[2]uint64{hi, lo}] {
			t.Fatalf("hash collision at %v", s)
		}
		seen[[2]uint64{hi, lo}] = true
	}
}

func TestSets(t *testing.T) {
	if d, err := Sets(seq(testutil.All, 7), seq(shuffled(testutil.All, 3), 7)); err != nil || !d.Empty() {
		t.Errorf("Sets(brute, shuffled) = %+v, %v, want empty", d, err)
	}
	dup := board.Solution{1, 3, 0, 2}
	d, err := Sets(seq(testutil.All, 4), seq(faulty(testutil.All, nil, dup), 4))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.OnlyA) != 0 || len(d.OnlyB) != 1 || !d.OnlyB[0].Equal(dup) {
		t.Errorf("Sets with a duplicate = %+v", d)
	}
	// A stream that fails is not an empty set: a bad board size used to
	// compare as "both empty".
	bad := backtrack.All(context.Background(), -1, backtrack.Options{})
	for _, pair := range [][2]iter.Seq2[board.Solution, error]{{bad, bad}, {seq(testutil.All, 4), bad}, {bad, seq(testutil.All, 4)}} {
		if d, err := Sets(pair[0], pair[1]); !errors.Is(err, board.ErrSize) {
			t.Errorf("Sets with a failing stream = %+v, %v; want an error wrapping board.ErrSize", d, err)
		}
	}
}

func TestCheckAgrees(t *testing.T) {
	engines := []Engine{{Name: "brute", Solutions: testutil.All}, {Name: "shuffled", Solutions: shuffled(testutil.All, 7)}}
	for n := 1; n <= 8; n++ {
		r := Check(context.Background(), n, nil, engines)
		if !r.OK() || r.Published == nil {
			t.Errorf("n=%d: %v", n, r.Findings)
		}
	}
	r := Check(context.Background(), 6, []board.Queen{{Row: 0, Col: 1}}, engines)
	if !r.OK() || r.Published != nil || r.Outcomes[0].Fingerprint.Count != 1 {
		t.Errorf("with a placement: %+v", r)
	}
}

// TestCheckFindsFaults injects faults and checks that Check reports the
// offending solutions themselves.
func TestCheckFindsFaults(t *testing.T) {
	const n = 9
	var victim board.Solution
	for s := range seq(testutil.All, n) {
		if s[0] == 4 && s[1] == 1 {
			victim = s.Clone()
			break
		}
	}
	bad := board.Solution{0, 2, 4, 6, 8, 1, 3, 5, 7} // 1:1 and 5:9 share a diagonal
	tests := []struct {
		name   string
		engine Source
		want   string // in the problems
		have   string // the engine that has the mismatched solution
		sol    board.Solution
	}{
		{"drops one solution", faulty(testutil.All, func(s board.Solution) bool { return s.Equal(victim) }), "differ", "brute", victim},
		{"skips a column", faulty(testutil.All, func(s board.Solution) bool { return s[2] == 3 }), "differ", "brute", nil},
		{"duplicates one", faulty(testutil.All, nil, victim), "differ", "faulty", victim},
		{"emits an invalid one", faulty(testutil.All, nil, bad), "invalid solution", "faulty", bad},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Check(context.Background(), n, nil, []Engine{{Name: "brute", Solutions: testutil.All}, {Name: "faulty", Solutions: tt.engine}})
			if r.OK() {
				t.Fatal("Check found nothing")
			}
			all := findingText(r)
			if !strings.Contains(all, tt.want) || !strings.Contains(all, "published") {
				t.Errorf("problems:\n%s\nwant %q and a published-count finding", all, tt.want)
			}
			if len(r.Mismatches) == 0 {
				t.Fatalf("no mismatch localised; problems:\n%s", all)
			}
			for _, m := range r.Mismatches {
				if m.Have != tt.have {
					t.Errorf("mismatch %v held by %s, want %s", m.Solution, m.Have, tt.have)
				}
			}
			if tt.sol != nil && !slices.ContainsFunc(r.Mismatches, func(m Mismatch) bool { return m.Solution.Equal(tt.sol) }) {
				t.Errorf("mismatches %+v do not name %v", r.Mismatches, tt.sol)
			}
		})
	}
}

func TestCheckCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := Check(ctx, 8, nil, []Engine{{Name: "brute", Solutions: testutil.All}})
	if r.OK() {
		t.Error("a cancelled check reports success")
	}
}

// BenchmarkFingerprint shows that comparing large sets takes constant
// memory: the fingerprint of the n=8 solutions allocates nothing per
// solution.
func BenchmarkFingerprint(b *testing.B) {
	var sols []board.Solution
	for s := range seq(testutil.All, 8) {
		sols = append(sols, s.Clone())
	}
	b.ReportAllocs()
	for b.Loop() {
		var f Fingerprint
		for _, s := range sols {
			f.Add(s)
		}
	}
	b.ReportMetric(float64(len(sols)), "solutions/op")
}

func TestCheckFirstOnly(t *testing.T) {
	none := func(ctx context.Context, n int, place []board.Queen) iter.Seq2[board.Solution, error] {
		return func(yield func(board.Solution, error) bool) {}
	}
	r := Check(context.Background(), 8, nil, []Engine{{Name: "brute", Solutions: testutil.All}, {Name: "one", Solutions: testutil.All, FirstOnly: true}})
	if !r.OK() || r.Outcomes[1].Fingerprint.Count != 1 {
		t.Errorf("first-only engine: %v, count %d", r.Findings, r.Outcomes[1].Fingerprint.Count)
	}
	r = Check(context.Background(), 8, nil, []Engine{{Name: "brute", Solutions: testutil.All}, {Name: "liar", Solutions: none, FirstOnly: true}})
	if r.OK() || !strings.Contains(findingText(r), "liar: claims no solution") {
		t.Errorf("a first-only engine claiming no solution: %v", r.Findings)
	}
	if f := r.Findings[0]; f.Kind != FalseUnsat || f.Engine != "liar" || f.Reference != "" || f.Want != 92 || !f.Fails("liar") || f.Fails("brute") {
		t.Errorf("the finding is %+v, want FalseUnsat about liar against the published 92", f)
	}
	r = Check(context.Background(), 3, nil, []Engine{{Name: "brute", Solutions: testutil.All}, {Name: "none", Solutions: none, FirstOnly: true}})
	if !r.OK() {
		t.Errorf("n=3, no solution anywhere: %v", r.Findings)
	}
}

// TestLocalize drives the localisation of a disagreement past exactLimit:
// at n = 12 (14200 solutions) an engine that drops one solution differs
// from the backtracker only in its fingerprint, and Check must split the
// problem by pre-placed queens until the parts are small enough to
// compare exactly, then name the dropped solution and who has it.
func TestLocalize(t *testing.T) {
	const n = 12
	if c, ok := board.Known(n); !ok || c.Total <= exactLimit {
		t.Fatalf("n=%d has %d solutions, not more than exactLimit %d: the test would not localise", n, c.Total, exactLimit)
	}
	var victim board.Solution // the 5000th solution in the backtracker's order
	k := 0
	for s, err := range Backtrack(context.Background(), n, nil) {
		if k++; err != nil || k == 5000 {
			victim = s
			break
		}
	}
	if !board.Valid(victim) {
		t.Fatalf("victim %v is not a solution", victim)
	}
	dropper := faulty(Backtrack, func(s board.Solution) bool { return s.Equal(victim) })
	r := Check(context.Background(), n, nil, []Engine{{Name: "backtrack", Solutions: Backtrack}, {Name: "dropper", Solutions: dropper}})
	if r.OK() {
		t.Fatal("a dropped solution at n=12 went unnoticed")
	}
	if len(r.Mismatches) != 1 {
		t.Fatalf("mismatches %+v, want exactly the dropped solution", r.Mismatches)
	}
	m := r.Mismatches[0]
	if !m.Solution.Equal(victim) || m.Have != "backtrack" || m.Missing != "dropper" || m.HaveCopies != 1 || m.MissingCopies != 0 {
		t.Errorf("mismatch %+v, want %v held once by backtrack and missing from dropper", m, victim)
	}
	// An extra copy is localised the same way, to the engine that has it.
	doubler := faulty(Backtrack, nil, victim)
	r = Check(context.Background(), n, nil, []Engine{{Name: "backtrack", Solutions: Backtrack}, {Name: "doubler", Solutions: doubler}})
	if len(r.Mismatches) != 1 || !r.Mismatches[0].Solution.Equal(victim) || r.Mismatches[0].Have != "doubler" || r.Mismatches[0].HaveCopies != 2 {
		t.Errorf("mismatches %+v, want %v twice in doubler", r.Mismatches, victim)
	}
}

// findingText is every finding of r, one line each.
func findingText(r Result) string {
	lines := make([]string, len(r.Findings))
	for i, f := range r.Findings {
		lines[i] = f.String()
	}
	return strings.Join(lines, "\n")
}
