package shard

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"github.com/queens-dev/queens/backtrack"
)

// Result is what one shard found: the line of JSON that [Result.AppendLine]
// writes and [Parse] reads (see the package comment).
type Result struct {
	N, Shard, Shards int
	Scheme           string
	// Engine names what counted the pieces (see [Engine]): "" in a line
	// written before lines named it, which Parse reads as
	// [EngineConstellations].
	Engine          string
	Parts           int                    // pieces in the whole split
	Pieces          []backtrack.Subproblem // the pieces covered
	Tallies         []backtrack.Tally      // what each piece found, in the order of Pieces
	backtrack.Tally                        // their sums, in 24ths
	Elapsed         time.Duration          // wall time of the run (milliseconds in the line)
	Version         string
	Fingerprint     string

	// Where and how the shard ran, for merge --stats; not checked.
	Host    string
	Threads int
	Start   time.Time // seconds, UTC

	// Source says where the line was read (such as "shard-3.json:1"), for
	// messages; it is not part of the line.
	Source string
}

// addTallies adds up tallies, refusing sums past 2^64 (which would wrap around,
// possibly to the right answer).
func addTallies(ts []backtrack.Tally) (backtrack.Tally, error) {
	var s backtrack.Tally
	for _, t := range ts {
		var c1, c2, c3 uint64
		s.Total24, c1 = bits.Add64(s.Total24, t.Total24, 0)
		s.Unique24, c2 = bits.Add64(s.Unique24, t.Unique24, 0)
		s.Nodes, c3 = bits.Add64(s.Nodes, t.Nodes, 0)
		if c1|c2|c3 != 0 {
			return s, fmt.Errorf("%w: sums past 2^64", ErrCorrupt)
		}
	}
	return s, nil
}

// Spec returns the shard r is a result of.
func (r Result) Spec() Spec {
	return Spec{N: r.N, Index: r.Shard, Shards: r.Shards, Version: r.Version}
}

const kind = "queens-shard"

// maxElapsed bounds a line's elapsed seconds (about 31 years), so that a
// forged number cannot overflow the durations merge adds up.
const maxElapsed = 1e9

// line is the JSON form of a Result, fields in the order of the line.
type line struct {
	Kind        string      `json:"kind"`
	N           int         `json:"n"`
	Shard       int         `json:"shard"`
	Shards      int         `json:"shards"`
	Scheme      string      `json:"scheme"`
	Engine      string      `json:"engine,omitempty"`
	Parts       int         `json:"parts"`
	Covered     int         `json:"covered"`
	Pieces      [][4]int    `json:"pieces"`
	Tallies     [][3]uint64 `json:"tallies"`
	Total       string      `json:"total"`
	Unique      string      `json:"unique"`
	Total24     uint64      `json:"total24"`
	Unique24    uint64      `json:"unique24"`
	Nodes       uint64      `json:"nodes"`
	Elapsed     float64     `json:"elapsed"`
	Host        string      `json:"host"`
	Threads     int         `json:"threads"`
	Start       string      `json:"start"`
	Version     string      `json:"version"`
	Fingerprint string      `json:"fingerprint"`
}

func (r Result) line() line {
	l := line{
		Kind: kind, N: r.N, Shard: r.Shard, Shards: r.Shards, Scheme: r.Scheme, Engine: r.Engine,
		Parts: r.Parts, Covered: len(r.Pieces), Pieces: [][4]int{},
		Total: fraction24(r.Total24), Unique: fraction24(r.Unique24),
		Total24: r.Total24, Unique24: r.Unique24, Nodes: r.Nodes,
		Elapsed: float64(r.Elapsed.Milliseconds()) / 1000, Host: r.Host, Threads: r.Threads,
		Version: r.Version, Fingerprint: r.Fingerprint, Tallies: [][3]uint64{},
	}
	if !r.Start.IsZero() {
		l.Start = r.Start.UTC().Format(time.RFC3339)
	}
	for _, p := range r.Pieces {
		l.Pieces = append(l.Pieces, [4]int{p.Top, p.Bottom, p.Left, p.Right})
	}
	for _, t := range r.Tallies {
		l.Tallies = append(l.Tallies, [3]uint64{t.Total24, t.Unique24, t.Nodes})
	}
	return l
}

// fraction24 writes x/24 exactly: a whole number, or a reduced fraction.
func fraction24(x uint64) string {
	if x%24 == 0 {
		return strconv.FormatUint(x/24, 10)
	}
	d := uint64(24)
	for _, p := range []uint64{2, 2, 2, 3} {
		if x%p == 0 && d%p == 0 {
			x, d = x/p, d/p
		}
	}
	return fmt.Sprintf("%d/%d", x, d)
}

// body returns the line up to the checksum, closed with a brace: the bytes
// the checksum covers.
func (l line) body() []byte {
	b, err := json.Marshal(l)
	if err != nil {
		panic("shard: marshal result: " + err.Error()) // plain fields cannot fail
	}
	return b
}

// checksum returns the hex SHA-256 of body.
func checksum(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

const checksumKey = `,"checksum":"`

// AppendLine appends r as one line of JSON, with its checksum and a
// newline, to b.
func (r Result) AppendLine(b []byte) []byte {
	body := r.line().body()
	b = append(b, body[:len(body)-1]...)
	b = append(b, checksumKey...)
	b = append(b, checksum(body)...)
	return append(b, "\"}\n"...)
}

// Parse reads one line written by [Result.AppendLine] (a trailing newline
// is allowed) and checks it: the checksum, that it is in the form
// AppendLine writes, and that its fields agree with each other (the exact
// sums with the 24ths, the number of pieces, the fingerprint). Errors wrap
// [ErrNotShard], [ErrChecksum] or [ErrCorrupt].
func Parse(text []byte) (Result, error) {
	text = bytes.TrimRight(text, "\r\n")
	if !bytes.HasPrefix(text, []byte(`{"kind":"`+kind+`"`)) {
		return Result{}, fmt.Errorf("parse shard result: %w", ErrNotShard)
	}
	i := bytes.LastIndex(text, []byte(checksumKey))
	if i < 0 || !bytes.HasSuffix(text, []byte(`"}`)) || len(text)-i != len(checksumKey)+64+2 {
		return Result{}, fmt.Errorf("parse shard result: %w: no checksum at the end of the line", ErrChecksum)
	}
	body := append(bytes.Clone(text[:i]), '}')
	if got := string(text[i+len(checksumKey) : len(text)-2]); got != checksum(body) {
		return Result{}, fmt.Errorf("parse shard result: %w (the line was changed or cut)", ErrChecksum)
	}
	var l line
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return Result{}, fmt.Errorf("parse shard result: %w: %v", ErrNotShard, err)
	}
	if !bytes.Equal(l.body(), body) {
		return Result{}, fmt.Errorf("parse shard result: %w: not in the form queens writes", ErrCorrupt)
	}
	r := Result{
		N: l.N, Shard: l.Shard, Shards: l.Shards, Scheme: l.Scheme, Engine: cmp.Or(l.Engine, EngineConstellations), Parts: l.Parts,
		Tally:   backtrack.Tally{Total24: l.Total24, Unique24: l.Unique24, Nodes: l.Nodes},
		Elapsed: time.Duration(math.Round(l.Elapsed*1000)) * time.Millisecond,
		Version: l.Version, Fingerprint: l.Fingerprint, Host: l.Host, Threads: l.Threads,
	}
	if l.Start != "" {
		start, err := time.Parse(time.RFC3339, l.Start)
		if err != nil {
			return Result{}, fmt.Errorf("parse shard result: %w: start %q: %v", ErrCorrupt, l.Start, err)
		}
		r.Start = start
	}
	for _, p := range l.Pieces {
		r.Pieces = append(r.Pieces, backtrack.Subproblem{Top: p[0], Bottom: p[1], Left: p[2], Right: p[3]})
	}
	for _, t := range l.Tallies {
		r.Tallies = append(r.Tallies, backtrack.Tally{Total24: t[0], Unique24: t[1], Nodes: t[2]})
	}
	bad := func(format string, args ...any) (Result, error) {
		return Result{}, fmt.Errorf("parse shard result (%v): %w: %s", r.Spec(), ErrCorrupt, fmt.Sprintf(format, args...))
	}
	switch s := r.Spec(); {
	case s.check() != nil:
		return bad("%v", s.check())
	case l.Scheme != Scheme:
		return bad("unknown scheme %q", l.Scheme)
	case !knownEngine(r.Engine):
		return bad("unknown engine %q (known: %s)", r.Engine, strings.Join(Engines(), ", "))
	case l.Covered != len(l.Pieces):
		return bad("covered %d but %d pieces listed", l.Covered, len(l.Pieces))
	case l.Total != fraction24(l.Total24) || l.Unique != fraction24(l.Unique24):
		return bad("total %s, unique %s disagree with total24 %d, unique24 %d", l.Total, l.Unique, l.Total24, l.Unique24)
	case l.Fingerprint != fingerprint(s, r.Pieces):
		return bad("fingerprint %s is not that of the work the line describes", l.Fingerprint)
	case len(r.Tallies) != len(r.Pieces):
		return bad("%d tallies for %d pieces", len(r.Tallies), len(r.Pieces))
	case l.Threads < 0:
		return bad("%d threads", l.Threads)
	case l.Elapsed < 0 || l.Elapsed > maxElapsed:
		return bad("elapsed %v s (want 0 to %v)", l.Elapsed, maxElapsed)
	}
	for i, t := range r.Tallies {
		if err := r.Pieces[i].CheckTally(r.N, t); err != nil {
			return bad("%v", err)
		}
	}
	if total, err := addTallies(r.Tallies); err != nil || total != r.Tally {
		return bad("the sums total24 %d, unique24 %d, nodes %d are not those of the pieces' tallies", r.Total24, r.Unique24, r.Nodes)
	}
	return r, nil
}
