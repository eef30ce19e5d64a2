package shard

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/internal/workers"
)

// Sum is the merged count of all the shards of a count.
type Sum struct {
	N, Shards, Parts int
	Total, Unique    Uint128 // solutions, and solutions distinct up to symmetry
	Nodes            Uint128
	Elapsed          time.Duration // summed over the shards
	Longest          time.Duration // of the slowest shard
	// Confirmed counts the shards whose lines of two engines that share
	// no counting code (see [Independent]) agree: the same work, the same
	// tallies, found by other code (a quorum of independent runs, as
	// volunteer computing checks its workers).
	Confirmed int
	// Repeated counts the shards given again by the engine of an earlier
	// line of theirs, or by an engine of the same search (the GPU runs the
	// constellations' search), with the same tallies: the same code run
	// again (or the same line copied, its host or engine field edited) is
	// a repeat, not a confirmation.
	Repeated int
	// Slowest lists up to 5 shards, the slowest first (their pieces and
	// tallies left out).
	Slowest []Result
	// MostNodes is the largest number of queens one shard placed: with
	// Nodes/Shards, the imbalance of the split that does not depend on the
	// machines.
	MostNodes Uint128
}

// Merge adds up the results of all the shards of one count, each
// checked by [Parse] or made by [Run], as a [Merger] does one at a time.
// It refuses (with an error naming the shards) results of different
// boards, schemes, shard counts or versions ([ErrMismatch]), a shard
// index given twice with different tallies ([ErrDuplicate]; the same
// tallies again, whatever the nodes, are a confirmation by another engine
// or a repeat by the same one, see [Sum.Confirmed] and [Sum.Repeated]) or
// not at all ([MissingError], wrapping [ErrMissing]), pieces that are not
// those of the split of this version of the program ([ErrCoverage]), and
// sums that are not whole, overflow, or are impossible (more classes than
// solutions, or more than 8 solutions per class: [ErrCorrupt]).
func Merge(results []Result) (Sum, error) {
	var m Merger
	for _, r := range results {
		if err := m.Add(r); err != nil {
			return Sum{}, err
		}
	}
	return m.Sum()
}

// A Merger adds up the lines of one count one at a time, in any order, as
// [Merge] does, holding per shard a hash of its tallies and the engines
// of its lines (12 bytes, in pages of 4096 shards made as their first
// line comes), never the lines: a merge of millions of lines streams. With Verify set it keeps, of the lines, the pieces drawn
// for a recount ([Merger.Recount]); it also keeps what a [Record] needs.
// The zero Merger is ready to use and recounts nothing.
type Merger struct {
	// Verify, if not nil, is called once, with the number of pieces in the
	// whole split, for the number of pieces to draw for the recount
	// (clamped to 0..parts, then more than [MaxRecount] is an error); its error
	// stops the merge.
	Verify func(parts int) (int, error)
	Seed   uint64 // the seed of the draw
	// Plain recounts the pieces drawn with the plain search (see
	// plainCount: it shares no counting code with any engine) instead of
	// the engine each line names, so that the recount judges the lines by
	// arithmetic, whatever their engine fields say. Of a split into
	// sub-parts ([SchemeSplit]) it draws whole constellations, Verify
	// asked with their number, and compares each with the sum of its
	// sub-parts' tallies.
	Plain bool

	started bool
	r0      Result // the first line, its pieces and tallies dropped
	hashes  maphash.Seed
	pages   [][]seenShard // shard i at pages[i/shardPage][i%shardPage]
	seen    int           // shards with a line
	engines []string      // of the lines, in the order met: bit i of seenShard.engines
	total   Sums
	sum     Sum

	drawn  bool
	draw   map[int32][]drawn // the pieces drawn, by shard, until its first line comes
	picks  []pick            // in the order drawn
	groups int               // sub-parts a pick of Plain's stands with (its constellation's), 1 but for SchemeSplit
	lines  int               // lines added
	listed []RecordLine      // the first maxRecordLines lines, for the record
	digest [4]uint64         // of every line: see [Record]
	spent  int64             // milliseconds summed over every line, saturating: Record.Elapsed
}

// seenShard is what a Merger keeps of a shard: 12 bytes.
type seenShard struct {
	tallies [2]uint32 // hash of the tallies of its first line (solutions and classes)
	engines uint32    // bit i < 31: a line of Merger.engines[i] came (none: no line yet); bit 31: a repeat came
}

// shardPage is the number of shards in a page of Merger.pages: a page is
// made when the first line of one of its shards comes, so that a merge
// holds 12 bytes for each shard near one read (and at most 12 for every
// shard of K, whatever lines it reads), and looks a shard up without
// hashing.
const shardPage = 4096

// repeated is the bit of seenShard.engines that says a repeat came.
const repeated = 1 << 31

// drawn is a piece drawn for the recount: at position pos of its shard's
// pieces, drawn at-th.
type drawn struct{ pos, at int }

// pick is a piece drawn for the recount, with what its line claims.
type pick struct {
	key     key
	claimed backtrack.Tally
	shard   int
	source  string
	engine  string
	n       int
	set     bool
	filler  bool // a place of a group of Plain's that holds no piece (see drawWholes)
}

// MaxRecount bounds the pieces a [Merger] draws for a recount (it holds
// each until it is recounted), so that no number read from a record sizes
// anything large: more is a second count, better run as one and compared
// (merge --confirm).
const MaxRecount = 1 << 20

// maxRecordLines bounds the lines a [Record] lists one by one; beyond it
// the record holds their count and digest only, so that a record of
// millions of lines stays a few hundred bytes.
const maxRecordLines = 1 << 16

// Add adds r, a line of the count ([Parse] checked it), refusing it with
// the errors of [Merge] (but for [ErrMissing], which is [Merger.Sum]'s).
func (m *Merger) Add(r Result) error {
	if !m.started {
		if err := r.Spec().check(); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		m.started, m.r0 = true, r
		m.r0.Pieces, m.r0.JoinPieces, m.r0.Tallies = nil, nil, nil
		m.hashes = maphash.MakeSeed()
		m.pages = make([][]seenShard, (r.Shards+shardPage-1)/shardPage) // r.Shards is checked: at most MaxShards
	}
	r0 := m.r0
	if r.Scheme != r0.Scheme && r.Engine != r0.Engine {
		// Engines mix only when they count the same pieces.
		return fmt.Errorf("merge: %w: shard %d%s was counted by engine %s with scheme %s, shard %d%s by engine %s with scheme %s: "+
			"the two split the count into different pieces, so their lines do not add up (count every shard of one count with one of them)",
			ErrMismatch, r0.Shard, from(r0), engineOf(r0), r0.Scheme, r.Shard, from(r), engineOf(r), r.Scheme)
	}
	for _, f := range []struct {
		name string
		a, b any
	}{
		{"n", r0.N, r.N}, {"shard count", r0.Shards, r.Shards}, {"scheme", r0.Scheme, r.Scheme}, {"split", r0.Split, r.Split},
		{"pieces in the split", r0.Parts, r.Parts}, {"version", r0.Version, r.Version},
	} {
		if f.a != f.b {
			return fmt.Errorf("merge: %w: shard %d%s has %s %v, shard %d%s has %v", ErrMismatch,
				r0.Shard, from(r0), f.name, f.a, r.Shard, from(r), f.b)
		}
	}
	keys, err := r.covered()
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if !m.drawn {
		if err := m.drawPieces(r.Parts, r.Shards, r.Split); err != nil {
			return err
		}
	}
	engine := engineOf(r)
	e := slices.Index(m.engines, engine)
	if e < 0 {
		e = len(m.engines)
		m.engines = append(m.engines, engine)
	}
	bit := uint32(1) << min(e, 30) // Parse admits registered engines only: a handful
	h := m.hashTallies(r.Tallies)
	m.addLine(r)
	page := m.pages[r.Shard/shardPage] // r.Shard < r.Shards = r0.Shards, checked above
	if page == nil {
		page = make([]seenShard, min(shardPage, r.Shards-r.Shard/shardPage*shardPage))
		m.pages[r.Shard/shardPage] = page
	}
	prev := &page[r.Shard%shardPage]
	if prev.engines != 0 {
		// The tallies of each piece must agree; the nodes are each
		// engine's (or run's) own work.
		if prev.tallies != h {
			return &DuplicateError{Line: r, Engines: m.enginesOf(prev.engines)}
		}
		// An engine of another search is a second opinion; the same
		// search again (the same engine, or the GPU after the
		// constellations: the same code on other hardware, or a line
		// whose engine field was edited) is a repeat. A shard counts once
		// as confirmed, once as repeated, whatever more lines come.
		had := prev.engines &^ repeated
		indep, same := m.searchOf(had, engine)
		if indep && !m.confirmed(had) {
			m.sum.Confirmed++
		}
		if same && prev.engines&repeated == 0 {
			m.sum.Repeated++
			prev.engines |= repeated
		}
		prev.engines |= bit
		return nil
	}
	*prev = seenShard{tallies: h, engines: bit}
	m.seen++
	for _, d := range m.draw[int32(r.Shard)] {
		m.picks[d.at] = pick{key: keys[d.pos], claimed: r.Tallies[d.pos], shard: r.Shard, source: r.Source, engine: engine, n: r.N, set: true}
	}
	delete(m.draw, int32(r.Shard))
	if m.total, err = m.total.add(r.Sums); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	m.sum.Elapsed = min(m.sum.Elapsed+r.Elapsed, math.MaxInt64/2) // saturates: 146 years
	m.sum.Longest = max(m.sum.Longest, r.Elapsed)
	if r.Nodes.Cmp(m.sum.MostNodes) > 0 {
		m.sum.MostNodes = r.Nodes
	}
	if len(m.sum.Slowest) < 5 || r.Elapsed > m.sum.Slowest[4].Elapsed {
		r.Pieces, r.JoinPieces, r.Tallies = nil, nil, nil
		i, _ := slices.BinarySearchFunc(m.sum.Slowest, r, func(a, b Result) int {
			return cmp.Or(cmp.Compare(b.Elapsed, a.Elapsed), -1) // after those as slow, as a stable sort does
		})
		m.sum.Slowest = slices.Insert(m.sum.Slowest, i, r)
		m.sum.Slowest = m.sum.Slowest[:min(5, len(m.sum.Slowest))]
	}
	return nil
}

// covered returns the pieces of r, checked to be those the split of this
// version deals its shard, or an error (wrapping [ErrCoverage]).
func (r Result) covered() ([]key, error) {
	pieces, parts, err := r.Spec().keys()
	if err != nil {
		return nil, err
	}
	keys := r.keys()
	if parts != r.Parts || !slices.Equal(pieces, keys) || fingerprint(r.Spec(), pieces) != r.Fingerprint || len(r.Tallies) != len(keys) {
		return nil, fmt.Errorf("%w: shard %d of %d%s (version %s) does not cover the pieces this version's split gives it",
			ErrCoverage, r.Shard, r.Shards, from(r), r.Version)
	}
	return keys, nil
}

// DuplicateError is the error of [Merger.Add] for a line of a shard that
// an earlier line gave with other tallies: it wraps [ErrDuplicate]. A
// Merger keeps a hash of each shard's tallies, not its lines, so it knows
// the later line only; a caller that can read its inputs again sets
// Earlier to the earlier line (the first of the shard it added), and the
// message then names the first piece whose tallies differ and both lines.
type DuplicateError struct {
	Line    Result  // the later line
	Engines string  // of the shard's earlier lines
	Earlier *Result // the earlier line, or nil
}

func (e *DuplicateError) Error() string {
	r := e.Line
	if e.Earlier == nil {
		return fmt.Sprintf("merge: %v: shard %d of %d%s disagrees with an earlier line of shard %d (engines %s): their tallies differ (this line, engine %s: %s solutions, %s unique)",
			ErrDuplicate, r.Shard, r.Shards, from(r), r.Shard, e.Engines, engineOf(r), fraction24Of(r.Total24), fraction24Of(r.Unique24))
	}
	a := *e.Earlier
	piece := "their pieces differ"
	if keys, ak := r.keys(), a.keys(); slices.Equal(keys, ak) {
		for i, k := range keys {
			if i < len(r.Tallies) && i < len(a.Tallies) && !sameCount(a.Tallies[i], r.Tallies[i]) {
				piece = fmt.Sprintf("piece %v: %s there, %s here", k, describe(a.Tallies[i]), describe(r.Tallies[i]))
				break
			}
		}
	}
	return fmt.Sprintf("merge: %v: shard %d of %d has two lines that disagree, at %s (engine %s) and at %s (engine %s): %s",
		ErrDuplicate, r.Shard, r.Shards, cmp.Or(a.Source, "?"), engineOf(a), cmp.Or(r.Source, "?"), engineOf(r), piece)
}

// Unwrap returns [ErrDuplicate].
func (e *DuplicateError) Unwrap() error { return ErrDuplicate }

// searchOf reports, for each engine of mask (of seenShard.engines,
// repeat bit cleared), whether it shares no counting code with engine
// name (indep) and whether it shares some (same).
func (m *Merger) searchOf(mask uint32, name string) (indep, same bool) {
	for i, e := range m.engines {
		if mask&(1<<min(i, 30)) == 0 {
			continue
		}
		if Independent(e, name) {
			indep = true
		} else {
			same = true
		}
	}
	return indep, same
}

// confirmed reports whether the engines of mask (of seenShard.engines,
// repeat bit cleared) hold two that share no counting code.
func (m *Merger) confirmed(mask uint32) bool {
	for i, e := range m.engines {
		if mask&(1<<min(i, 30)) != 0 {
			if indep, _ := m.searchOf(mask, e); indep {
				return true
			}
		}
	}
	return false
}

// Independent reports whether the engines named a and b share no
// counting code, so that their agreeing on a shard confirms it: the join
// against the constellations or the GPU. The GPU runs the constellations'
// search (package constellation, on other hardware): a GPU line agreeing
// with a constellations line is a repeat, as is any engine with itself.
func Independent(a, b string) bool { return search(a) != search(b) }

// search names the counting code an engine runs: the GPU's is the
// constellations'.
func search(engine string) string {
	if engine == EngineGPU {
		return EngineConstellations
	}
	return cmp.Or(engine, EngineConstellations)
}

// enginesOf names the engines of a mask of seenShard.engines.
func (m *Merger) enginesOf(mask uint32) string {
	var names []string
	for i, e := range m.engines {
		if mask&(1<<min(i, 30)) != 0 {
			names = append(names, e)
		}
	}
	return strings.Join(names, ", ")
}

// hashTallies hashes what every correct engine finds of the pieces: the
// solutions and classes, not the nodes.
func (m *Merger) hashTallies(ts []backtrack.Tally) [2]uint32 {
	var h maphash.Hash
	h.SetSeed(m.hashes)
	var b [16]byte
	for _, t := range ts {
		binary.LittleEndian.PutUint64(b[:8], t.Total24)
		binary.LittleEndian.PutUint64(b[8:], t.Unique24)
		h.Write(b[:])
	}
	x := h.Sum64()
	return [2]uint32{uint32(x), uint32(x >> 32)}
}

// addLine adds r to the lines of the record: listed (the first
// maxRecordLines) and in the digest.
func (m *Merger) addLine(r Result) {
	l := RecordLine{Shard: r.Shard, Checksum: r.lineChecksum(), Engine: engineOf(r),
		Host: r.Host, Elapsed: float64(r.Elapsed.Milliseconds()) / 1000}
	m.lines++
	m.spent = min(m.spent+r.Elapsed.Milliseconds(), maxElapsed*1000) // Parse bounds each by maxElapsed s
	if m.lines <= maxRecordLines {
		m.listed = append(m.listed, l)
	} else {
		m.listed = nil
	}
	m.digest = addDigest(m.digest, l)
}

// addDigest adds line l to the digest d: the sum, modulo 2^256, of the
// SHA-256 of each line's fields, so that the lines may come in any order,
// and a line given twice counts twice.
func addDigest(d [4]uint64, l RecordLine) [4]uint64 {
	// fmt's "%d %s %s %q %v" of the fields, without fmt (a merge adds
	// millions of lines).
	var buf [192]byte
	b := strconv.AppendInt(buf[:0], int64(l.Shard), 10)
	b = append(append(b, ' '), l.Checksum...)
	b = append(append(b, ' '), l.Engine...)
	b = strconv.AppendQuote(append(b, ' '), l.Host)
	b = strconv.AppendFloat(append(b, ' '), l.Elapsed, 'g', -1, 64)
	h := sha256.Sum256(b)
	var carry uint64
	for i := range d {
		d[i], carry = bits.Add64(d[i], binary.BigEndian.Uint64(h[8*i:]), carry)
	}
	return d
}

// drawPieces draws the pieces of the recount among the parts pieces of
// the split: those at positions given by a partial Fisher-Yates shuffle
// of 0..parts-1 seeded with m.Seed, holding O(k) numbers, never the
// split. Position j of the split is piece j/shards of shard j%shards (the
// split deals its pieces round-robin).
//
// With Plain set and split > 0, it draws among the wholes (the split's
// constellations, each at split positions in a row, and the symmetric
// piece last, at one) and takes every position of each.
func (m *Merger) drawPieces(parts, shards, split int) error {
	m.drawn, m.groups = true, 1
	if m.Verify == nil {
		return nil
	}
	wholes := parts
	if m.Plain && split > 0 {
		m.groups, wholes = split, (parts-1)/split+1
	}
	k, err := m.Verify(wholes)
	if err != nil {
		return err
	}
	if k = min(max(k, 0), wholes); k*m.groups > MaxRecount {
		return fmt.Errorf("merge: %w: a recount of %d pieces (at most %d)", ErrVerify, k*m.groups, MaxRecount)
	}
	if m.groups > 1 {
		return m.drawWholes(wholes, shards, k)
	}
	rng := rand.New(rand.NewPCG(m.Seed, 0x71756565)) // "quee"
	moved := map[int]int{}                           // the shuffle's swaps, where they differ from the identity
	at := func(i int) int {
		if v, ok := moved[i]; ok {
			return v
		}
		return i
	}
	m.draw = map[int32][]drawn{}
	m.picks = make([]pick, k)
	for i := range k {
		j := i + rng.IntN(parts-i)
		p := at(j)
		moved[j] = at(i)
		delete(moved, i)
		m.draw[int32(p%shards)] = append(m.draw[int32(p%shards)], drawn{pos: p / shards, at: i})
	}
	return nil
}

// drawWholes draws k of the wholes of a split into m.groups sub-parts
// a constellation, as drawPieces draws pieces, and every position of
// each: pick g*m.groups+j is sub-part j of the g-th drawn (the symmetric
// piece, whole, fills its group's first pick only).
func (m *Merger) drawWholes(wholes, shards, k int) error {
	rng := rand.New(rand.NewPCG(m.Seed, 0x706c6169)) // "plai"
	moved := map[int]int{}
	at := func(i int) int {
		if v, ok := moved[i]; ok {
			return v
		}
		return i
	}
	m.draw = map[int32][]drawn{}
	m.picks = make([]pick, k*m.groups)
	for i := range k {
		j := i + rng.IntN(wholes-i)
		w := at(j)
		moved[j] = at(i)
		delete(moved, i)
		n := m.groups
		if w == wholes-1 {
			n = 1 // the symmetric piece
		}
		for s := range n {
			p := w*m.groups + s
			m.draw[int32(p%shards)] = append(m.draw[int32(p%shards)], drawn{pos: p / shards, at: i*m.groups + s})
		}
		for s := n; s < m.groups; s++ {
			m.picks[i*m.groups+s].set, m.picks[i*m.groups+s].filler = true, true
		}
	}
	return nil
}

// Sum returns the sum of the lines added, or the errors of [Merge]: no
// line, shards absent ([MissingError]), sums not whole or impossible.
func (m *Merger) Sum() (Sum, error) {
	if !m.started {
		return Sum{}, fmt.Errorf("merge: %w: no shard results", ErrMissing)
	}
	r0 := m.r0
	if m.seen < r0.Shards {
		miss := &MissingError{N: r0.N, Shards: r0.Shards, Split: r0.Split, Scheme: r0.Scheme, Count: r0.Shards - m.seen}
		// The gaps between the shards seen: at most one more than the
		// lines read, however many shards the lines claim.
		for i := 0; i < r0.Shards; i++ {
			page := m.pages[i/shardPage]
			if page != nil && page[i%shardPage].engines != 0 {
				continue
			}
			if k := len(miss.Missing) - 1; k >= 0 && miss.Missing[k].Last == i-1 {
				miss.Missing[k].Last = i
			} else {
				miss.Missing = append(miss.Missing, Span{i, i})
			}
		}
		return Sum{}, miss
	}
	sum := m.sum
	sum.Slowest = slices.Clone(sum.Slowest)
	var r1, r2 uint64
	sum.Total, r1 = m.total.Total24.DivMod(24)
	sum.Unique, r2 = m.total.Unique24.DivMod(24)
	if r1 != 0 || r2 != 0 {
		return Sum{}, fmt.Errorf("merge: %w: the sums %s and %s are not whole", ErrCorrupt, fraction24Of(m.total.Total24), fraction24Of(m.total.Unique24))
	}
	sum.N, sum.Shards, sum.Parts, sum.Nodes = r0.N, r0.Shards, r0.Parts, m.total.Nodes
	if most, over := sum.Unique.Mul64(8); sum.Unique.Cmp(sum.Total) > 0 || !over && sum.Total.Cmp(most) > 0 {
		return Sum{}, fmt.Errorf("merge: %w: %v solutions in %v classes is impossible (a class holds 1 to 8 solutions)", ErrCorrupt, sum.Total, sum.Unique)
	}
	return sum, nil
}

// engineOf returns the engine of r: [EngineConstellations] when r names
// none.
func engineOf(r Result) string { return cmp.Or(r.Engine, EngineConstellations) }

// Span is a run of shard indexes, First to Last (0-based, inclusive).
type Span struct{ First, Last int }

// MissingError is the error of [Merge] when shards are absent: it wraps
// [ErrMissing] and lists them, so that a caller can resubmit them; with
// the count's N, Shards, Split and Scheme, as the lines give them.
type MissingError struct {
	N, Shards, Split int
	Scheme           string
	Count            int    // the shards absent
	Missing          []Span // the absent shards, 0-based, in order
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("merge: %v: %d of %d shards absent (0-based: %s; a Slurm array numbered from 1 reruns them with --array=%s)",
		ErrMissing, e.Count, e.Shards, e.Ranges(0), e.Ranges(1))
}

// Unwrap returns [ErrMissing].
func (e *MissingError) Unwrap() error { return ErrMissing }

// Ranges writes the absent shards as [Ranges] does, each plus base.
func (e *MissingError) Ranges(base int) string { return SpanRanges(e.Missing, base) }

// from names where r was read, for messages: " (FILE:LINE)", or "".
func from(r Result) string {
	if r.Source == "" {
		return ""
	}
	return " (" + r.Source + ")"
}

// Ranges writes sorted shard indexes as a job array does, each plus base,
// runs of three or more as ranges: Ranges([]int{2, 16, 39, 40, 41}, 1) is
// "3,17,40-42".
func Ranges(idx []int, base int) string {
	var spans []Span
	for _, i := range idx {
		if k := len(spans) - 1; k >= 0 && spans[k].Last == i-1 {
			spans[k].Last = i
		} else {
			spans = append(spans, Span{i, i})
		}
	}
	return SpanRanges(spans, base)
}

// SpanRanges writes spans as [Ranges] writes shard indexes, each plus
// base.
func SpanRanges(spans []Span, base int) string {
	var b strings.Builder
	for _, s := range spans {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		switch {
		case s.Last-s.First >= 2:
			fmt.Fprintf(&b, "%d-%d", s.First+base, s.Last+base)
		case s.Last > s.First:
			fmt.Fprintf(&b, "%d,%d", s.First+base, s.Last+base)
		default:
			fmt.Fprintf(&b, "%d", s.First+base)
		}
	}
	return b.String()
}

// Recount recounts the pieces drawn (see [Merger.Verify]) on threads
// goroutines (<= 0: 1), each with the [Engine] its line names, and
// compares them with the lines, as [Verify] does; call it after
// [Merger.Sum] succeeded. It returns the pieces checked, in the order
// drawn.
func (m *Merger) Recount(ctx context.Context, threads int) ([]Checked, error) {
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g := max(m.groups, 1)
	jobs := len(m.picks) / g
	errs := make([]error, jobs)
	workers.Run(ctx, jobs, max(1, threads), nil, func() struct{} { return struct{}{} },
		func(_ struct{}, i int, stop *atomic.Bool) bool {
			if m.Plain {
				errs[i] = plainRecount(ctx, m.picks[i*g:(i+1)*g])
			} else {
				errs[i] = m.picks[i].recount(ctx)
			}
			if errs[i] != nil {
				stop.Store(true)
				cancel() // the recounts under way stop too
				return false
			}
			return true
		}, func(struct{}) {})
	// The first error in the order drawn, but for the cancellations one
	// caused.
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
	}
	if err := parent.Err(); err != nil {
		return nil, err
	}
	checked := make([]Checked, jobs)
	for i := range checked {
		p := m.picks[i*g]
		piece := p.key
		if m.Plain {
			piece.sp = piece.sp.Whole() // a split's constellation recounted whole
		}
		checked[i] = Checked{Shard: p.shard, Source: p.source, Piece: piece.String()}
	}
	return checked, nil
}

// plainRecount recounts with the plain search the piece of group (its
// sub-parts, or one piece) and compares it with the sum of their tallies.
func plainRecount(ctx context.Context, group []pick) error {
	var claimed backtrack.Tally
	for _, p := range group {
		if !p.set {
			return fmt.Errorf("verify: %w: a piece drawn is in no line", ErrMissing)
		}
		if p.filler {
			continue
		}
		var c1, c2 uint64
		claimed.Total24, c1 = bits.Add64(claimed.Total24, p.claimed.Total24, 0)
		claimed.Unique24, c2 = bits.Add64(claimed.Unique24, p.claimed.Unique24, 0)
		claimed.Nodes += p.claimed.Nodes
		if c1 != 0 || c2 != 0 {
			return fmt.Errorf("%w: piece %v of shard %d%s: its sub-parts' tallies pass 2^64", ErrVerify, p.key, p.shard, fromSource(p.source))
		}
	}
	p := group[0]
	whole := p.key
	whole.sp = whole.sp.Whole()
	what := fmt.Sprintf("piece %v of shard %d%s (engine %s)", whole, p.shard, fromSource(p.source), p.engine)
	if len(group) > 1 && !group[1].filler {
		what = fmt.Sprintf("constellation %v (its %d sub-parts; the first in shard %d%s, engine %s)", whole, len(group), p.shard, fromSource(p.source), p.engine)
	}
	got, err := plainCount(ctx, p.n, whole)
	if err != nil {
		return fmt.Errorf("verify %s: %w", what, err)
	}
	if !sameCount(got, claimed) {
		return fmt.Errorf("%w: %s: the lines say %s, a recount with the plain search %s", ErrVerify, what, describe(claimed), describe(got))
	}
	return nil
}

// recount recounts p with the engine of its line and compares.
func (p pick) recount(ctx context.Context) error {
	if !p.set {
		return fmt.Errorf("verify: %w: a piece drawn is in no line", ErrMissing)
	}
	e, ok := LookupEngine(p.engine)
	if !ok {
		return fmt.Errorf("verify piece %v of shard %d%s: unknown engine %q", p.key, p.shard, fromSource(p.source), p.engine)
	}
	var got backtrack.Tally
	var err error
	switch {
	case p.key.join != (schemeOf(e.Scheme) == JoinScheme):
		err = fmt.Errorf("engine %s counts the pieces of scheme %s", e.Name, schemeOf(e.Scheme))
	case p.key.join:
		got, err = e.RecountJoin(ctx, p.n, p.key.jp)
	default:
		got, err = e.Recount(ctx, p.n, p.key.sp)
	}
	if err != nil {
		return fmt.Errorf("verify piece %v of shard %d%s: %w", p.key, p.shard, fromSource(p.source), err)
	}
	// Every correct engine finds the same tallies; the nodes are the
	// work of one engine's search, reported but not judged.
	if !sameCount(got, p.claimed) {
		return fmt.Errorf("%w: piece %v of shard %d%s (engine %s): the line says %s, a recount %s",
			ErrVerify, p.key, p.shard, fromSource(p.source), p.engine, describe(p.claimed), describe(got))
	}
	return nil
}

// fromSource names a source for messages as from does.
func fromSource(s string) string { return from(Result{Source: s}) }
