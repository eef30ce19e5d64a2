package shard

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"

	"github.com/queens-dev/queens/internal/testutil"
)

// runAll runs every shard of n split k ways and returns their lines.
func runAll(t *testing.T, n, k int, version string) [][]byte {
	t.Helper()
	var lines [][]byte
	for i := range k {
		r, err := Run(context.Background(), Spec{N: n, Index: i, Shards: k, Version: version}, Options{Threads: 2})
		if err != nil {
			t.Fatalf("Run(n=%d, %d/%d): %v", n, i, k, err)
		}
		lines = append(lines, r.AppendLine(nil))
	}
	return lines
}

// parseMerge parses the lines and merges them.
func parseMerge(lines [][]byte) (Sum, error) {
	rs, err := parseAll(lines)
	if err != nil {
		return Sum{}, err
	}
	return Merge(rs)
}

// TestMergeKnown runs every shard of n = 1..14 (K = 1, 2, 7, 64), passes
// each result through its line, merges them in a random order and checks
// the sums against the published counts.
func TestMergeKnown(t *testing.T) {
	ns := []int{1, 2, 3, 4, 5, 6, 8, 10, 11, 12, 13, 14}
	if testing.Short() {
		ns = ns[:len(ns)-2]
	}
	for _, n := range ns {
		for _, k := range []int{1, 2, 7, 64} {
			t.Run(fmt.Sprintf("n=%d/K=%d", n, k), func(t *testing.T) {
				lines := runAll(t, n, k, "test")
				rand.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
				sum, err := parseMerge(lines)
				want, _ := board.Known(n)
				if err != nil || sum.Total != From64(want.Total) || sum.Unique != From64(want.Unique) {
					t.Fatalf("merge = %d solutions (%d unique), %v; want %d (%d)", sum.Total, sum.Unique, err, want.Total, want.Unique)
				}
				all, _ := backtrack.Subproblems(n)
				if sum.Parts != len(all) || sum.Shards != k || sum.N != n {
					t.Errorf("merge: n=%d, %d shards, %d parts; want %d, %d, %d", sum.N, sum.Shards, sum.Parts, n, k, len(all))
				}
			})
		}
	}
}

// TestPieces checks that the shards of a split cover every piece exactly
// once, whatever the number of pieces, and that the fingerprints differ.
func TestPieces(t *testing.T) {
	if testutil.Race {
		t.Skip("-race: one goroutine splitting n up to 27, over a minute under the detector; the plain run checks it whole")
	}
	for _, n := range []int{1, 4, 9, 16, 27} {
		all, _ := backtrack.Subproblems(n)
		ks := []int{1, 3, len(all), len(all) + 5}
		if len(all) > 5000 {
			ks = []int{1, 3, 1000} // a shard per piece would take minutes
		}
		for _, k := range ks {
			seen := map[backtrack.Subproblem]int{}
			fps := map[string]bool{}
			for i := range k {
				s := Spec{N: n, Index: i, Shards: k, Version: "v"}
				pieces, parts, err := s.Pieces()
				if err != nil || parts != len(all) {
					t.Fatalf("%v: Pieces: %d parts, %v", s, parts, err)
				}
				for _, p := range pieces {
					seen[p]++
				}
				fps[constellationPrint(s, pieces)] = true
			}
			if len(seen) != len(all) || len(fps) != k {
				t.Errorf("n=%d K=%d: %d distinct pieces of %d, %d fingerprints", n, k, len(seen), len(all), len(fps))
			}
			for p, c := range seen {
				if c != 1 {
					t.Errorf("n=%d K=%d: piece %v in %d shards", n, k, p, c)
				}
			}
		}
	}
	for _, s := range []Spec{{N: 0, Shards: 1}, {N: 33, Shards: 1}, {N: 8, Shards: 0}, {N: 8, Index: 3, Shards: 3}, {N: 8, Index: -1, Shards: 3}} {
		if _, _, err := s.Pieces(); err == nil {
			t.Errorf("%+v: Pieces gave no error", s)
		}
	}
}

// TestMergeRefuses breaks a good set of lines in every way merge must
// catch.
func TestMergeRefuses(t *testing.T) {
	good := runAll(t, 10, 4, "test")
	other := runAll(t, 9, 4, "test")
	otherK := runAll(t, 10, 5, "test")
	otherV := runAll(t, 10, 4, "test2")
	if _, err := parseMerge(good); err != nil {
		t.Fatalf("merge of good lines: %v", err)
	}
	edit := func(line []byte, old, new string) []byte {
		if !bytes.Contains(line, []byte(old)) {
			t.Fatalf("%s does not contain %s", line, old)
		}
		return bytes.Replace(line, []byte(old), []byte(new), 1)
	}
	// resign recomputes the checksum of an edited line, as a careless
	// script might.
	resign := func(line []byte) []byte {
		line = bytes.TrimSpace(line)
		i := bytes.LastIndex(line, []byte(checksumKey))
		body := append(bytes.Clone(line[:i]), '}')
		return []byte(string(line[:i]) + checksumKey + checksum(body) + "\"}")
	}
	r1, _ := Parse(good[1])
	tampered := edit(good[1], fmt.Sprintf(`"total24":%d`, r1.Total24), fmt.Sprintf(`"total24":%d`, r1.Total24.Lo+24))
	with := func(i int, l []byte) [][]byte {
		c := append([][]byte(nil), good...)
		c[i] = l
		return c
	}
	cases := []struct {
		name  string
		lines [][]byte
		want  error
	}{
		{"none", nil, ErrMissing},
		{"missing", good[:3], ErrMissing},
		{"missing-first", good[1:], ErrMissing},
		{"duplicate-disagrees", append(good[:4:4], doubled(t, good[2])), ErrDuplicate},
		{"duplicate-instead", with(3, good[2]), ErrMissing},
		{"huge-shard-count", [][]byte{resign(edit(good[0], `"shards":4`, `"shards":9223372036854775807`))}, ErrCorrupt},
		{"tally-edited", with(1, resign(edit(good[1], `"tallies":[[`, `"tallies":[[24`))), ErrCorrupt},
		{"sums-overflow", with(1, overflowing(t, good[1])), ErrCorrupt},
		{"tampered-count", with(1, tampered), ErrChecksum},
		{"tampered-resigned", with(1, resign(tampered)), ErrCorrupt},
		{"tampered-fingerprint", with(1, resign(edit(good[1], `"fingerprint":"`, `"fingerprint":"0`))), ErrCorrupt},
		{"tampered-pieces", with(1, resign(edit(good[1], `"covered":`, `"covered":1`))), ErrCorrupt},
		{"truncated", with(2, good[2][:len(good[2])/2]), ErrChecksum},
		{"no-checksum", with(2, good[2][:bytes.LastIndex(good[2], []byte(checksumKey))]), ErrChecksum},
		{"mixed-n", with(2, other[2]), ErrMismatch},
		{"mixed-K", with(2, otherK[2]), ErrMismatch},
		{"mixed-version", with(0, otherV[0]), ErrMismatch},
		{"garbage", with(0, []byte("14772512 solutions")), ErrNotShard},
		{"json-count", with(0, []byte(`{"n":10,"total":724,"unique":92}`)), ErrNotShard},
		{"empty-line", with(0, []byte("")), ErrNotShard},
		{"unknown-field", with(0, resign(edit(good[0], `"parts"`, `"extra":1,"parts"`))), ErrNotShard},
		{"reordered", with(0, resign(edit(edit(good[0], `"n":10,`, ``), `"shard":0,`, `"shard":0,"n":10,`))), ErrCorrupt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseMerge(c.lines)
			if !errors.Is(err, c.want) {
				t.Errorf("merge: %v; want an error wrapping %q", err, c.want)
			}
		})
	}
}

// resignCheckpoint recomputes the checksum line of an edited checkpoint,
// as a careless script might: the tally checks must still catch an edit
// that no count can give.
func resignCheckpoint(data []byte) []byte {
	body := data[:bytes.LastIndex(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))+1]
	return fmt.Appendf(bytes.Clone(body), "{\"checksum\":%q}\n", checksum(body))
}

// doubled returns line with one piece counted twice, consistently (tally,
// sums, checksum): a line a buggy or dishonest worker could write, which
// only a second run of the shard or a recount catches.
func doubled(t *testing.T, line []byte) []byte {
	t.Helper()
	r, err := Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range r.Tallies {
		if p.Total24 > 0 {
			r.Tallies[i].Total24 *= 2
			r.Tallies[i].Unique24 *= 2
			r.Sums, _ = SumTallies(r.Tallies)
			return r.AppendLine(nil)
		}
	}
	t.Fatal("no piece with solutions to double")
	return nil
}

// overflowing returns line with tallies whose sum passes 2^64 and wraps
// round to the line's sums.
func overflowing(t *testing.T, line []byte) []byte {
	t.Helper()
	r, err := Parse(line)
	if err != nil || len(r.Tallies) < 2 {
		t.Fatalf("%v, %d pieces", err, len(r.Tallies))
	}
	// 2^64 - 24*8*k added to one piece and 24*8*k to another: the sum
	// wraps to what it was.
	const k = 1 << 50
	r.Tallies[0].Total24 += (1<<63 - 96*k) * 2
	r.Tallies[0].Unique24 = r.Tallies[0].Total24 / 8
	r.Tallies[1].Total24 += 192 * k
	r.Tallies[1].Unique24 = r.Tallies[1].Total24 / 8
	var unique uint64 // wrapped around past 2^64
	for _, p := range r.Tallies {
		unique += p.Unique24
	}
	r.Unique24 = From64(unique)
	return r.AppendLine(nil)
}

// TestMergeConfirms checks that a shard given again by the same engine
// (another host, the same line copied) or by the GPU after the
// constellations (the same search; a line whose engine field was edited)
// counts as a repeat, never as a confirmation, and that merge names the
// slowest shards.
func TestMergeConfirms(t *testing.T) {
	good := runAll(t, 10, 4, "test")
	edit := func(line []byte, f func(r *Result)) []byte {
		r, err := Parse(line)
		if err != nil {
			t.Fatal(err)
		}
		f(&r)
		return r.AppendLine(nil)
	}
	elsewhere := func(r *Result) { r.Host = "another-" + r.Host }
	gpu := func(r *Result) { r.Engine = EngineGPU }
	for _, c := range []struct {
		name                string
		more                [][]byte
		confirmed, repeated int
	}{
		{"the gpu", [][]byte{edit(good[2], gpu), edit(good[0], gpu)}, 0, 2},
		{"another host", [][]byte{edit(good[2], elsewhere), edit(good[0], elsewhere)}, 0, 2},
		{"the same line", [][]byte{good[2], good[2], good[2]}, 0, 1},
		{"both", [][]byte{edit(good[1], elsewhere), edit(good[1], gpu), edit(good[1], gpu)}, 0, 1},
	} {
		sum, err := parseMerge(append(good[:4:4], c.more...))
		if err != nil || sum.Total != From64(724) || sum.Unique != From64(92) || sum.Confirmed != c.confirmed || sum.Repeated != c.repeated || len(sum.Slowest) != 4 {
			t.Errorf("%s: merge = %+v, %v; want 724, %d confirmed, %d repeated", c.name, sum, err, c.confirmed, c.repeated)
		}
	}
	sum, err := parseMerge(good)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(sum.Slowest); i++ {
		if sum.Slowest[i].Elapsed > sum.Slowest[i-1].Elapsed {
			t.Errorf("slowest shards not in order: %v then %v", sum.Slowest[i-1].Elapsed, sum.Slowest[i].Elapsed)
		}
	}
}

func TestRanges(t *testing.T) {
	for _, c := range []struct {
		idx  []int
		base int
		want string
	}{
		{nil, 0, ""}, {[]int{3}, 0, "3"}, {[]int{2, 16, 39, 40, 41}, 1, "3,17,40-42"}, {[]int{0, 1}, 0, "0,1"}, {[]int{0, 1, 2, 5, 6}, 0, "0-2,5,6"},
	} {
		if got := Ranges(c.idx, c.base); got != c.want {
			t.Errorf("Ranges(%v, %d) = %q, want %q", c.idx, c.base, got, c.want)
		}
	}
}

// TestMergeCoverage checks that lines consistent with each other but not
// with this version's split are refused.
func TestMergeCoverage(t *testing.T) {
	var rs []Result
	for i := range 2 {
		r, err := Run(context.Background(), Spec{N: 8, Index: i, Shards: 2, Version: "v"}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	// Move a piece from shard 1 to shard 0: the pieces still cover the
	// board once, but not as the scheme deals them.
	rs[0].Pieces = append(rs[0].Pieces, rs[1].Pieces[0])
	rs[0].Tallies = append(rs[0].Tallies, rs[1].Tallies[0])
	rs[1].Pieces, rs[1].Tallies = rs[1].Pieces[1:], rs[1].Tallies[1:]
	for i := range rs {
		rs[i].Sums, _ = SumTallies(rs[i].Tallies)
		rs[i].Fingerprint = constellationPrint(rs[i].Spec(), rs[i].Pieces)
		if _, err := Parse(rs[i].AppendLine(nil)); err != nil {
			t.Fatalf("Parse: %v", err)
		}
	}
	if _, err := Merge(rs); !errors.Is(err, ErrCoverage) {
		t.Errorf("merge: %v; want %v", err, ErrCoverage)
	}
}

func TestFraction24(t *testing.T) {
	for x, want := range map[uint64]string{0: "0", 24: "1", 48: "2", 12: "1/2", 8: "1/3", 6: "1/4", 3: "1/8", 36: "3/2", 1: "1/24", 25: "25/24", 20: "5/6"} {
		if got := fraction24(x); got != want {
			t.Errorf("fraction24(%d) = %s, want %s", x, got, want)
		}
	}
}

// TestCheckpointResume stops a checkpointed count after a few pieces,
// resumes it from the file and checks the total, then checks that a
// changed or foreign checkpoint is refused.
func TestCheckpointResume(t *testing.T) {
	const n = 13
	want, _ := board.Known(n)
	path := filepath.Join(t.TempDir(), "ck")
	s := Spec{N: n, Shards: 1, Version: "v"}
	cp, err := OpenCheckpoint(path, s)
	if err != nil || len(cp.Done()) != 0 {
		t.Fatalf("OpenCheckpoint (new): %d done, %v", len(cp.Done()), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = Run(ctx, s, Options{Threads: 2, OnPiece: func(p Piece) error {
		err := cp.Record(p)
		if len(cp.Done()) == 5 {
			cancel()
		}
		return err
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run cancelled: %v, want context.Canceled", err)
	}
	recorded := len(cp.Done())
	if err := cp.Flush(); err != nil {
		t.Fatal(err)
	}
	// The checkpoint is locked while open: a second process is refused.
	if _, err := OpenCheckpoint(path, s); !errors.Is(err, ErrLocked) {
		t.Errorf("OpenCheckpoint while open elsewhere: %v, want %v", err, ErrLocked)
	}
	if cp.Saved() != recorded {
		t.Errorf("Saved() = %d after Flush, want %d", cp.Saved(), recorded)
	}
	cp.Close()
	cp, err = OpenCheckpoint(path, s)
	if err != nil {
		t.Fatal(err)
	}
	done := len(cp.Done())
	if done != recorded {
		t.Errorf("the file holds %d pieces after Flush, %d were recorded", done, recorded)
	}
	all, _ := backtrack.Subproblems(n)
	if err != nil || done < 5 || done >= len(all) {
		t.Fatalf("OpenCheckpoint after stop: %d of %d done, %v", done, len(all), err)
	}
	counted := 0
	res, err := Run(context.Background(), s, Options{Done: cp.Done(), OnPiece: func(p Piece) error { counted++; return cp.Record(p) }})
	if err != nil || res.Total24 != From64(24*want.Total) || res.Unique24 != From64(24*want.Unique) {
		t.Fatalf("resumed Run: %v/24 (%v/24 unique), %v; want %d (%d)", res.Total24, res.Unique24, err, want.Total, want.Unique)
	}
	if counted != len(all)-done {
		t.Errorf("resumed Run counted %d pieces, want %d", counted, len(all)-done)
	}
	full, _ := backtrack.Count(context.Background(), n, backtrack.CountOptions{})
	if res.Nodes != From64(full.Nodes) {
		t.Errorf("nodes over the two runs = %v, Count = %d", res.Nodes, full.Nodes)
	}
	cp.Close()

	// A different run, a changed file, a cut file, another file.
	for _, other := range []Spec{{N: 12, Shards: 1, Version: "v"}, {N: n, Shards: 1, Version: "w"}, {N: n, Index: 0, Shards: 2, Version: "v"}} {
		if _, err := OpenCheckpoint(path, other); !errors.Is(err, ErrCheckpoint) {
			t.Errorf("OpenCheckpoint(%v) of a checkpoint of %v: %v, want %v", other, s, err, ErrCheckpoint)
		}
	}
	data, _ := os.ReadFile(path)
	i := bytes.Index(data, []byte(`"total24":`)) + len(`"total24":`)
	for name, bad := range map[string][]byte{
		"changed":  append(append(bytes.Clone(data[:i]), '9'), data[i:]...),
		"cut":      data[:len(data)-10],
		"headless": data[bytes.IndexByte(data, '\n')+1:],
		"other":    []byte("hello\nworld\n!\n"),
		"resigned": resignCheckpoint(append(append(bytes.Clone(data[:i]), '9'), data[i:]...)),
	} {
		os.WriteFile(path, bad, 0o644)
		_, err := OpenCheckpoint(path, s)
		if !errors.Is(err, ErrCheckpoint) || (name == "resigned" && !strings.Contains(err.Error(), "stands for whole solutions")) {
			t.Errorf("%s checkpoint: %v, want %v", name, err, ErrCheckpoint)
		}
	}
	// Pieces of another shard passed to Run.
	if _, err := Run(context.Background(), Spec{N: n, Index: 1, Shards: 2}, Options{Done: cp.Done()}); !errors.Is(err, ErrCheckpoint) {
		t.Errorf("Run with foreign pieces: %v, want %v", err, ErrCheckpoint)
	}
}

// FuzzParse checks that Parse never panics and that whatever it accepts
// it writes back byte for byte.
func FuzzParse(f *testing.F) {
	for _, k := range []int{1, 3} {
		r, _ := Run(context.Background(), Spec{N: 6, Index: k - 1, Shards: k, Version: "v"}, Options{})
		f.Add(r.AppendLine(nil))
	}
	r, _ := Run(context.Background(), Spec{N: 9, Index: 1, Shards: 40, Version: "v", Split: 3}, Options{})
	f.Add(r.AppendLine(nil))
	f.Add([]byte(`{"kind":"queens-shard"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := Parse(line)
		if err != nil {
			return
		}
		if got := r.AppendLine(nil); !bytes.Equal(got, append(bytes.TrimRight(line, "\r\n"), '\n')) {
			t.Errorf("Parse(%q) then AppendLine = %q", line, got)
		}
		if !strings.HasPrefix(string(line), `{"kind":"queens-shard"`) {
			t.Errorf("Parse accepted %q", line)
		}
	})
}

// TestVerify recounts pieces: an honest set of lines passes, a line that
// counted a piece twice (consistent, resigned: checksums cannot catch it)
// is caught when its piece is drawn, and the same seed draws the same
// pieces.
func TestVerify(t *testing.T) {
	good := runAll(t, 9, 3, "test")
	parse := func(lines [][]byte) []Result {
		var rs []Result
		for i, l := range lines {
			r, err := Parse(l)
			if err != nil {
				t.Fatal(err)
			}
			r.Source = fmt.Sprintf("line-%d", i)
			rs = append(rs, r)
		}
		return rs
	}
	rs := parse(good)
	all, err := Verify(context.Background(), rs, 1<<30, 1)
	if err != nil || len(all) != rs[0].Parts {
		t.Fatalf("Verify(all) = %d pieces, %v; want %d, nil", len(all), err, rs[0].Parts)
	}
	a, _ := Verify(context.Background(), rs, 5, 7)
	b, _ := Verify(context.Background(), rs, 5, 7)
	if len(a) != 5 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("Verify with one seed drew %v then %v", a, b)
	}
	bad := parse([][]byte{good[0], doubled(t, good[1]), good[2]})
	_, err = Verify(context.Background(), bad, 1<<30, 1)
	if !errors.Is(err, ErrVerify) || !strings.Contains(err.Error(), "shard 1 (line-1)") {
		t.Errorf("Verify of a doubled piece: %v; want ErrVerify naming shard 1 (line-1)", err)
	}
}

// TestRunCounter runs shards with a counter of their own (as --gpu does):
// the same results as the CPU search, with the checkpoint's pieces kept,
// and a counter whose tally no count can give is refused.
func TestRunCounter(t *testing.T) {
	// A counter that leaves a piece out, or gives one twice, fails the run.
	for name, bad := range map[string]func(context.Context, int, []backtrack.Subproblem, func(int, backtrack.Tally) error) error{
		"silent": func(context.Context, int, []backtrack.Subproblem, func(int, backtrack.Tally) error) error { return nil },
		"twice": func(ctx context.Context, n int, pieces []backtrack.Subproblem, done func(int, backtrack.Tally) error) error {
			t, _ := pieces[0].Count(ctx, n)
			if err := done(0, t); err != nil {
				return err
			}
			return done(0, t)
		},
	} {
		if _, err := Run(context.Background(), Spec{N: 8, Shards: 1, Version: "v"}, Options{Counter: bad}); err == nil {
			t.Errorf("Run with a %s counter: no error", name)
		}
	}
	cpu := func(ctx context.Context, n int, pieces []backtrack.Subproblem, done func(int, backtrack.Tally) error) error {
		for i, p := range pieces {
			t, err := p.Count(ctx, n)
			if err == nil {
				err = done(i, t)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	want, _ := board.Known(11)
	var total, unique uint64
	for i := range 3 {
		s := Spec{N: 11, Index: i, Shards: 3, Version: "v"}
		plain, err := Run(context.Background(), s, Options{Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		recorded := 0
		got, err := Run(context.Background(), s, Options{Counter: cpu, OnPiece: func(Piece) error { recorded++; return nil }})
		if err != nil || !slices.Equal(got.Tallies, plain.Tallies) || recorded != len(plain.Pieces) {
			t.Fatalf("shard %d with a counter: %v, %d pieces recorded; tallies %v, want %v", i, err, recorded, got.Tallies, plain.Tallies)
		}
		total += got.Total24.Lo
		unique += got.Unique24.Lo
	}
	if total != 24*want.Total || unique != 24*want.Unique {
		t.Errorf("shards with a counter: %d/24 (%d/24), want %d (%d)", total, unique, want.Total, want.Unique)
	}
	liar := func(ctx context.Context, n int, pieces []backtrack.Subproblem, done func(int, backtrack.Tally) error) error {
		return done(0, backtrack.Tally{Total24: 24, Unique24: 5})
	}
	if _, err := Run(context.Background(), Spec{N: 11, Shards: 1, Version: "v"}, Options{Counter: liar}); err == nil || !strings.Contains(err.Error(), "counter's tally") {
		t.Errorf("Run with a lying counter: %v", err)
	}
}

// TestMergeClaimedShards checks that a line claiming the most shards a
// count may have sizes nothing: the merge's memory follows the lines read
// (here one), and the shards absent come back as runs.
func TestMergeClaimedShards(t *testing.T) {
	r, err := Run(context.Background(), Spec{N: 6, Index: 0, Shards: MaxShards, Version: "test"}, Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := parseAll([][]byte{r.AppendLine(nil)})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Merge(rs)
	runtime.ReadMemStats(&after)
	var miss *MissingError
	if !errors.As(err, &miss) || miss.Count != MaxShards-1 || !slices.Equal(miss.Missing, []Span{{1, MaxShards - 1}}) {
		t.Fatalf("Merge of one line of %d shards: %v; want shards 1-%d missing", MaxShards, err, MaxShards-1)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("Merge of one line claiming %d shards allocated %d bytes; want under 1 MiB", MaxShards, got)
	}
}

// TestCheckpointElapsed: a checkpoint carries the time its runs spent, so
// that a resumed shard's elapsed time covers every process; a damaged or
// forged figure is refused, never added in.
func TestCheckpointElapsed(t *testing.T) {
	const n = 10
	path := filepath.Join(t.TempDir(), "ck")
	s := Spec{N: n, Shards: 1, Version: "v"}
	cp, err := OpenCheckpoint(path, s)
	if err != nil || cp.Earlier() != 0 {
		t.Fatalf("OpenCheckpoint (new): earlier %v, %v", cp.Earlier(), err)
	}
	all, _ := backtrack.Subproblems(n)
	ctx, cancel := context.WithCancel(context.Background())
	Run(ctx, s, Options{Threads: 1, OnPiece: func(p Piece) error {
		cancel()
		return cp.Record(p)
	}})
	if err := cp.Flush(); err != nil {
		t.Fatal(err)
	}
	cp.Close()
	data, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(data, []byte("\n"))
	last := lines[len(lines)-3] // the elapsed line, before the checksum
	if !bytes.HasPrefix(last, []byte(`{"elapsed":`)) {
		t.Fatalf("the line before the checksum is %q, want the time spent", last)
	}
	withElapsed := func(line string) []byte {
		body := bytes.Join(lines[:len(lines)-3], nil)
		return resignCheckpoint(append(append(body, line...), lines[len(lines)-2]...))
	}
	os.WriteFile(path, withElapsed("{\"elapsed\":1000}\n"), 0o644)
	cp, err = OpenCheckpoint(path, s)
	if err != nil || cp.Earlier() != 1000*time.Second || len(cp.Done()) == 0 || len(cp.Done()) >= len(all) {
		t.Fatalf("OpenCheckpoint with 1000 s spent: earlier %v, %d of %d pieces, %v", cp.Earlier(), len(cp.Done()), len(all), err)
	}
	res, err := Run(context.Background(), s, Options{Done: cp.Done(), OnPiece: cp.Record})
	if err != nil || cp.Flush() != nil {
		t.Fatalf("resumed Run: %v", err)
	}
	cp.Close()
	if res.Elapsed >= time.Hour {
		t.Errorf("Run's own elapsed %v: the earlier runs' time is the caller's to add", res.Elapsed)
	}
	cp, err = OpenCheckpoint(path, s)
	if err != nil || cp.Earlier() < 1000*time.Second || cp.Earlier() > 1000*time.Second+time.Hour {
		t.Errorf("after the resumed run: earlier %v, %v; want 1000 s and this run's", cp.Earlier(), err)
	}
	cp.Close()
	for _, bad := range []string{`{"elapsed":-1}`, `{"elapsed":1e300}`, `{"elapsed":"x"}`, `{"elapsed":null}`, `{"elapsed":1}` + "\n" + `{"elapsed":1}`} {
		os.WriteFile(path, withElapsed(bad+"\n"), 0o644)
		if _, err := OpenCheckpoint(path, s); !errors.Is(err, ErrCheckpoint) {
			t.Errorf("checkpoint with %s: %v, want %v", bad, err, ErrCheckpoint)
		}
	}
}

// TestFingerprintText checks that fingerprint hashes the text it always
// hashed (written with fmt, as the lines of earlier versions were
// fingerprinted), for pieces of every scheme.
func TestFingerprintText(t *testing.T) {
	for _, s := range []Spec{
		{N: 10, Index: 1, Shards: 4, Version: "v1"},
		{N: 12, Index: 0, Shards: 3, Version: "dev", Split: 4},
		{N: 10, Index: 2, Shards: 5, Version: "x y", Scheme: JoinScheme},
		{N: 28, Index: 16777215, Shards: 1 << 24, Version: "bench", Split: 4096},
	} {
		keys, _, err := s.keys()
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "queens shard\nn %d\nscheme %s\nshards %d\nshard %d\nversion %s\n", s.N, s.scheme(), s.Shards, s.Index, s.Version)
		if s.Split > 0 {
			fmt.Fprintf(&b, "split %d\n", s.Split)
		}
		b.WriteString("pieces")
		for _, p := range keys {
			fmt.Fprintf(&b, " %v", p)
		}
		sum := sha256.Sum256([]byte(b.String()))
		if got, want := fingerprint(s, keys), hex.EncodeToString(sum[:16]); got != want || len(keys) == 0 {
			t.Errorf("%v (%d pieces): fingerprint %s, want %s", s, len(keys), got, want)
		}
	}
}

// TestMergerPages checks the shards a Merger finds missing, repeated and
// conflicting across its pages of shards: K = 2^24 lines of the n = 28
// plan (a full page), and K = 5000 (a last page of 904).
func TestMergerPages(t *testing.T) {
	var m Merger
	for _, i := range []int{16777215, 0, 5000, 4095, 4096} {
		l, _, err := planLine(nil, i)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Parse(l)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	var miss *MissingError
	if _, err := m.Sum(); !errors.As(err, &miss) || miss.Count != 1<<24-5 || miss.Ranges(0) != "1-4094,4097-4999,5001-16777214" {
		t.Fatalf("Sum: %v, want shards 1-4094,4097-4999,5001-16777214 missing", err)
	}

	m = Merger{}
	var first Result
	for _, i := range []int{4999, 0, 4999} {
		r, err := Run(context.Background(), Spec{N: 6, Index: i, Shards: 5000, Version: "test"}, Options{Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Add(r); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = r
		}
	}
	if _, err := m.Sum(); !errors.As(err, &miss) || miss.Count != 4998 || miss.Ranges(0) != "1-4998" {
		t.Fatalf("Sum: %v, want shards 1-4998 missing", err)
	}
	if m.sum.Repeated != 1 {
		t.Errorf("shard 4999 given twice: %d repeats, want 1", m.sum.Repeated)
	}
	first.Tallies = slices.Clone(first.Tallies)
	first.Tallies[0].Total24 += 24
	if err := m.Add(first); !errors.Is(err, ErrDuplicate) {
		t.Errorf("shard 0 again with other tallies: %v, want %v", err, ErrDuplicate)
	}
}
