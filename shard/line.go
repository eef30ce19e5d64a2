package shard

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/backtrack/join"
	"github.com/queens-dev/queens/internal/quote"
)

// Result is what one shard found: the line of JSON that [Result.AppendLine]
// writes and [Parse] reads (see the package comment).
type Result struct {
	N, Shard, Shards int
	Scheme           string
	Split            int // sub-parts per constellation in the scheme [SchemeSplit]; 0 in the others
	// Engine names what counted the pieces (see [Engine]): "" in a line
	// written before lines named it, which Parse reads as
	// [EngineConstellations].
	Engine string
	Parts  int                    // pieces in the whole split
	Pieces []backtrack.Subproblem // the pieces covered, of [Scheme]
	// JoinPieces are the pieces covered of [JoinScheme] (Pieces is then
	// empty).
	JoinPieces  []join.Piece
	Tallies     []backtrack.Tally // what each piece found, in the order of Pieces or JoinPieces
	Sums                          // their sums, in 24ths
	Elapsed     time.Duration     // wall time of the run (milliseconds in the line)
	Version     string
	Fingerprint string

	// Where and how the shard ran, for merge --stats; not checked.
	Host    string
	Threads int
	Start   time.Time // seconds, UTC

	// Source says where the line was read (such as "shard-3.json:1"), for
	// messages; it is not part of the line.
	Source string

	// body is the SHA-256 of the line Parse read (its checksum field),
	// so that a merge need not write the line again to name it; "" in a
	// Result not read by Parse. A Result changed after Parse is no line
	// until written and parsed again.
	body string
}

// Sums are the sums of tallies (see [backtrack.Tally]), in 128 bits: 24 ×
// the solutions passes 2^64 from n = 28.
type Sums struct {
	Total24  Uint128 // 24 × the solutions
	Unique24 Uint128 // 24 × the solutions distinct up to symmetry
	Nodes    Uint128 // queens placed by the searches
}

// add returns s + t, refusing sums past 2^128.
func (s Sums) add(t Sums) (Sums, error) {
	var o1, o2, o3 bool
	s.Total24, o1 = s.Total24.Add(t.Total24)
	s.Unique24, o2 = s.Unique24.Add(t.Unique24)
	s.Nodes, o3 = s.Nodes.Add(t.Nodes)
	if o1 || o2 || o3 {
		return s, fmt.Errorf("%w: sums past 2^128", ErrCorrupt)
	}
	return s, nil
}

// sumsOf returns t as Sums.
func sumsOf(t backtrack.Tally) Sums {
	return Sums{From64(t.Total24), From64(t.Unique24), From64(t.Nodes)}
}

// SumTallies returns the sums of tallies (errors wrap [ErrCorrupt] for
// sums past 2^128), as a [Result] holds them.
func SumTallies(ts []backtrack.Tally) (Sums, error) {
	var s Sums
	for _, t := range ts {
		var err error
		if s, err = s.add(sumsOf(t)); err != nil {
			return s, err
		}
	}
	return s, nil
}

// Spec returns the shard r is a result of.
func (r Result) Spec() Spec {
	return Spec{N: r.N, Index: r.Shard, Shards: r.Shards, Version: r.Version, Scheme: r.Scheme, Split: r.Split}
}

// MaxPieces bounds the pieces one line may list: more than any split has
// (n = 27 has about 200,000 constellations), so that a forged line
// cannot size anything large.
const MaxPieces = 1 << 22

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
	Split       int         `json:"split,omitempty"`
	Engine      string      `json:"engine,omitempty"`
	Parts       int         `json:"parts"`
	Covered     int         `json:"covered"`
	Pieces      [][]int64   `json:"pieces"`
	Tallies     [][3]uint64 `json:"tallies"`
	Total       string      `json:"total"`
	Unique      string      `json:"unique"`
	Total24     Uint128     `json:"total24"`
	Unique24    Uint128     `json:"unique24"`
	Nodes       Uint128     `json:"nodes"`
	Elapsed     float64     `json:"elapsed"`
	Host        string      `json:"host"`
	Threads     int         `json:"threads"`
	Start       string      `json:"start"`
	Version     string      `json:"version"`
	Fingerprint string      `json:"fingerprint"`
}

func (r Result) line() line {
	l := line{
		Kind: kind, N: r.N, Shard: r.Shard, Shards: r.Shards, Scheme: r.Scheme, Split: r.Split, Engine: r.Engine,
		Parts: r.Parts, Covered: len(r.keys()), Pieces: [][]int64{},
		Total: fraction24Of(r.Total24), Unique: fraction24Of(r.Unique24),
		Total24: r.Total24, Unique24: r.Unique24, Nodes: r.Nodes,
		Elapsed: float64(r.Elapsed.Milliseconds()) / 1000, Host: r.Host, Threads: r.Threads,
		Version: r.Version, Fingerprint: r.Fingerprint, Tallies: [][3]uint64{},
	}
	if !r.Start.IsZero() {
		l.Start = r.Start.UTC().Format(time.RFC3339)
	}
	for _, p := range r.keys() {
		l.Pieces = append(l.Pieces, formOf(r.Split, p))
	}
	for _, t := range r.Tallies {
		l.Tallies = append(l.Tallies, [3]uint64{t.Total24, t.Unique24, t.Nodes})
	}
	return l
}

// fraction24 writes x/24 exactly: a whole number, or a reduced fraction.
func fraction24(x uint64) string { return fraction24Of(From64(x)) }

// fraction24Of writes x/24 exactly, as fraction24 does.
func fraction24Of(x Uint128) string {
	q, r := x.DivMod(24)
	if r == 0 {
		return q.String()
	}
	d := uint64(24)
	for _, p := range []uint64{2, 2, 2, 3} {
		if _, r := x.DivMod(p); r == 0 && d%p == 0 {
			x, _ = x.DivMod(p)
			d /= p
		}
	}
	return fmt.Sprintf("%v/%d", x, d)
}

// body returns the line up to the checksum, closed with a brace: the bytes
// the checksum covers.
func (l line) body() []byte { return l.appendJSON(nil) }

// checksum returns the hex SHA-256 of body.
func checksum(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

const checksumKey = `,"checksum":"`

// appendSigned appends body (a JSON object) to b with a checksum field
// at its end (the SHA-256 of body) and a newline.
func appendSigned(b, body []byte) []byte {
	b = append(b, body[:len(body)-1]...)
	b = append(b, checksumKey...)
	b = append(b, checksum(body)...)
	return append(b, "\"}\n"...)
}

// signedBody checks the checksum at the end of a line written by
// appendSigned and returns the body it covers, appended to dst; its error
// is the end of a message, after "checksum does not match".
func signedBody(dst, text []byte) ([]byte, error) {
	i := bytes.LastIndex(text, []byte(checksumKey))
	if i < 0 || !bytes.HasSuffix(text, []byte(`"}`)) || len(text)-i != len(checksumKey)+64+2 {
		return nil, errors.New(": no checksum at the end of the line")
	}
	body := append(append(dst, text[:i]...), '}')
	sum := sha256.Sum256(body)
	var want [64]byte
	hex.Encode(want[:], sum[:])
	if !bytes.Equal(text[i+len(checksumKey):len(text)-2], want[:]) {
		return nil, errors.New(" (the line was changed or cut)")
	}
	return body, nil
}

// lineBuffers hold the body of a line Parse read, and its JSON written
// again, for the next line: a merge parses millions.
var lineBuffers = sync.Pool{New: func() any { return new([2][]byte) }}

// decodeStrict decodes one JSON object with no unknown fields into v.
func decodeStrict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// lineChecksum returns the checksum of r's line: the one Parse read, or
// that of the line r would write.
func (r Result) lineChecksum() string {
	if r.body != "" {
		return r.body
	}
	return checksum(r.line().body())
}

// AppendLine appends r as one line of JSON, with its checksum and a
// newline, to b.
func (r Result) AppendLine(b []byte) []byte {
	return appendSigned(b, r.line().body())
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
	bufs := lineBuffers.Get().(*[2][]byte)
	defer func() {
		if cap(bufs[0])+cap(bufs[1]) <= 1<<20 { // no huge line's buffers kept
			lineBuffers.Put(bufs)
		}
	}()
	body, err := signedBody(bufs[0][:0], text)
	if err != nil {
		return Result{}, fmt.Errorf("parse shard result: %w%v", ErrChecksum, err)
	}
	bufs[0] = body
	var l line
	fast := l.parseJSON(body)
	if fast {
		bufs[1] = l.appendJSON(bufs[1][:0])
		fast = bytes.Equal(bufs[1], body)
	}
	if !fast {
		// Not in the form queens writes, or a form parseJSON leaves to
		// encoding/json: it finds what is wrong.
		l = line{}
		if err := decodeStrict(body, &l); err != nil {
			return Result{}, fmt.Errorf("parse shard result: %w: %v", ErrNotShard, err)
		}
		if !bytes.Equal(l.body(), body) {
			return Result{}, fmt.Errorf("parse shard result: %w: not in the form queens writes", ErrCorrupt)
		}
	}
	sum := string(text[len(text)-64-2 : len(text)-2]) // signedBody checked it
	r := Result{
		N: l.N, Shard: l.Shard, Shards: l.Shards, Scheme: l.Scheme, Split: l.Split, Engine: cmp.Or(l.Engine, EngineConstellations), Parts: l.Parts,
		Sums:    Sums{Total24: l.Total24, Unique24: l.Unique24, Nodes: l.Nodes},
		Elapsed: time.Duration(math.Round(l.Elapsed*1000)) * time.Millisecond,
		Version: l.Version, Fingerprint: l.Fingerprint, Host: l.Host, Threads: l.Threads, body: sum,
	}
	if l.Start != "" {
		start, err := time.Parse(time.RFC3339, l.Start)
		if err != nil {
			return Result{}, fmt.Errorf("parse shard result: %w: start %s: %v", ErrCorrupt, quote.Token(l.Start), err)
		}
		r.Start = start
	}
	bad := func(format string, args ...any) (Result, error) {
		return Result{}, fmt.Errorf("parse shard result (%v): %w: %s", r.Spec(), ErrCorrupt, fmt.Sprintf(format, args...))
	}
	if l.Scheme != Scheme && l.Scheme != JoinScheme && l.Scheme != SchemeSplit {
		return bad("unknown scheme %s", quote.Token(l.Scheme))
	}
	if len(l.Pieces) > MaxPieces {
		return bad("%d pieces (a split has at most %d)", len(l.Pieces), MaxPieces)
	}
	keys := make([]key, 0, len(l.Pieces))
	for _, p := range l.Pieces {
		k, err := splitKeyOf(l.Scheme, l.Split, p)
		if err != nil {
			return bad("%v", err)
		}
		keys = append(keys, k)
	}
	r.setKeys(keys)
	for _, t := range l.Tallies {
		r.Tallies = append(r.Tallies, backtrack.Tally{Total24: t[0], Unique24: t[1], Nodes: t[2]})
	}
	e, known := LookupEngine(r.Engine)
	switch s := r.Spec(); {
	case s.check() != nil:
		return bad("%v", s.check())
	case s.scheme() != l.Scheme:
		return bad("scheme %s with split %d", quote.Token(l.Scheme), l.Split)
	case !known:
		return bad("unknown engine %s (known: %s)", quote.Token(r.Engine), strings.Join(engineNames(), ", "))
	case family(schemeOf(e.Scheme)) != family(l.Scheme):
		return bad("engine %s counts the pieces of scheme %s, not %s", r.Engine, schemeOf(e.Scheme), l.Scheme)
	case l.Covered != len(l.Pieces):
		return bad("covered %d but %d pieces listed", l.Covered, len(l.Pieces))
	case l.Total != fraction24Of(l.Total24) || l.Unique != fraction24Of(l.Unique24):
		return bad("total %s, unique %s disagree with total24 %v, unique24 %v", l.Total, l.Unique, l.Total24, l.Unique24)
	case l.Fingerprint != fingerprint(s, keys):
		return bad("fingerprint %s is not that of the work the line describes", l.Fingerprint)
	case len(r.Tallies) != len(keys):
		return bad("%d tallies for %d pieces", len(r.Tallies), len(keys))
	case l.Threads < 0:
		return bad("%d threads", l.Threads)
	case l.Elapsed < 0 || l.Elapsed > maxElapsed:
		return bad("elapsed %v s (want 0 to %v)", l.Elapsed, maxElapsed)
	}
	if l.Scheme == JoinScheme {
		// A part must be one of the split's: its weight is what its
		// tally is checked against.
		all, err := allKeys(JoinScheme, r.N)
		if err != nil {
			return bad("%v", err)
		}
		for _, k := range keys {
			if !slices.Contains(all, k) {
				return bad("piece %v is not one of the %d pieces of n = %d", k, len(all), r.N)
			}
		}
	}
	for i, t := range r.Tallies {
		if err := keys[i].checkTally(r.N, t); err != nil {
			return bad("%v", err)
		}
	}
	if total, err := SumTallies(r.Tallies); err != nil || total != r.Sums {
		return bad("the sums total24 %v, unique24 %v, nodes %v are not those of the pieces' tallies", r.Total24, r.Unique24, r.Nodes)
	}
	return r, nil
}
