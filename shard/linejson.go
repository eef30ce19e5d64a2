package shard

import (
	"bytes"
	"encoding/json"
	"math"
	"math/bits"
	"strconv"
)

// The JSON of a line, written and read without reflection: a merge reads
// millions of lines (16.8 M for n = 28), and encoding/json's decoder and
// encoder were most of its time. appendJSON writes exactly what
// json.Marshal writes of a line (its test compares the two, fuzzed);
// parseJSON reads only that form, in that order, and gives up on
// anything else (an escape in a string, a null, a field out of place),
// leaving it to encoding/json, so that what Parse accepts, and its
// errors, are those of encoding/json.

// appendJSON appends l as json.Marshal writes it.
func (l *line) appendJSON(b []byte) []byte {
	b = appendJSONString(append(b, `{"kind":`...), l.Kind)
	b = strconv.AppendInt(append(b, `,"n":`...), int64(l.N), 10)
	b = strconv.AppendInt(append(b, `,"shard":`...), int64(l.Shard), 10)
	b = strconv.AppendInt(append(b, `,"shards":`...), int64(l.Shards), 10)
	b = appendJSONString(append(b, `,"scheme":`...), l.Scheme)
	if l.Split != 0 {
		b = strconv.AppendInt(append(b, `,"split":`...), int64(l.Split), 10)
	}
	if l.Engine != "" {
		b = appendJSONString(append(b, `,"engine":`...), l.Engine)
	}
	b = strconv.AppendInt(append(b, `,"parts":`...), int64(l.Parts), 10)
	b = strconv.AppendInt(append(b, `,"covered":`...), int64(l.Covered), 10)
	b = append(b, `,"pieces":`...)
	if l.Pieces == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range l.Pieces {
			if i > 0 {
				b = append(b, ',')
			}
			if p == nil {
				b = append(b, "null"...)
				continue
			}
			b = append(b, '[')
			for j, x := range p {
				if j > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, x, 10)
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	b = append(b, `,"tallies":`...)
	if l.Tallies == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, t := range l.Tallies {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendUint(append(b, '['), t[0], 10)
			b = strconv.AppendUint(append(b, ','), t[1], 10)
			b = strconv.AppendUint(append(b, ','), t[2], 10)
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	b = appendJSONString(append(b, `,"total":`...), l.Total)
	b = appendJSONString(append(b, `,"unique":`...), l.Unique)
	b = l.Total24.appendDecimal(append(b, `,"total24":`...))
	b = l.Unique24.appendDecimal(append(b, `,"unique24":`...))
	b = l.Nodes.appendDecimal(append(b, `,"nodes":`...))
	b = appendJSONFloat(append(b, `,"elapsed":`...), l.Elapsed)
	b = appendJSONString(append(b, `,"host":`...), l.Host)
	b = strconv.AppendInt(append(b, `,"threads":`...), int64(l.Threads), 10)
	b = appendJSONString(append(b, `,"start":`...), l.Start)
	b = appendJSONString(append(b, `,"version":`...), l.Version)
	b = appendJSONString(append(b, `,"fingerprint":`...), l.Fingerprint)
	return append(b, '}')
}

// appendJSONString appends s as json.Marshal writes it: as it is, quoted,
// when it holds only printable ASCII that needs no escape (HTML's <, >
// and & included); json.Marshal's own form otherwise.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string cannot fail
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendJSONFloat appends f (finite) as json.Marshal writes a float64:
// the shortest decimal that reads back as f, with an exponent (its
// "e-09" written "e-9") below 1e-6 and from 1e21.
func appendJSONFloat(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		q, _ := json.Marshal(f) // an error, written as nothing: no line has it
		return append(b, q...)
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// lineScanner reads the JSON of a line in the form appendJSON writes; ok
// turns false at the first thing out of that form.
type lineScanner struct {
	b  []byte
	ok bool
}

// lit consumes s.
func (s *lineScanner) lit(t string) {
	if s.ok && len(s.b) >= len(t) && string(s.b[:len(t)]) == t {
		s.b = s.b[len(t):]
		return
	}
	s.ok = false
}

// peek reports whether s comes next.
func (s *lineScanner) peek(t string) bool {
	return s.ok && len(s.b) >= len(t) && string(s.b[:len(t)]) == t
}

// token consumes and returns the bytes up to the next ',', ']' or '}'.
func (s *lineScanner) token() []byte {
	i := 0
	for i < len(s.b) && s.b[i] != ',' && s.b[i] != ']' && s.b[i] != '}' {
		i++
	}
	t := s.b[:i]
	s.b = s.b[i:]
	if i == 0 {
		s.ok = false
	}
	return t
}

// digits reads a whole number of decimal digits, without sign, below
// 2^64 (its form, leading zeros and all, is the round trip's to check).
func (s *lineScanner) digits() uint64 {
	t := s.token()
	var x uint64
	for i, c := range t {
		d := uint64(c - '0')
		if d > 9 {
			s.ok = false
			return 0
		}
		if i < 19 { // below 10^19: no overflow
			x = x*10 + d
			continue
		}
		hi, lo := bits.Mul64(x, 10)
		var carry uint64
		if x, carry = bits.Add64(lo, d, 0); hi != 0 || carry != 0 {
			s.ok = false
			return 0
		}
	}
	return x
}

// int64 reads a whole number in int64's range.
func (s *lineScanner) int64() int64 {
	neg := s.peek("-")
	if neg {
		s.lit("-")
	}
	x := s.digits()
	switch {
	case !neg && x <= math.MaxInt64:
		return int64(x)
	case neg && x <= 1<<63:
		return int64(-x)
	}
	s.ok = false
	return 0
}

// int reads a whole number in int's range.
func (s *lineScanner) int() int {
	x := s.int64()
	if x < math.MinInt || x > math.MaxInt {
		s.ok = false
	}
	return int(x)
}

// uint64 reads a whole number in uint64's range.
func (s *lineScanner) uint64() uint64 { return s.digits() }

// uint128 reads a number as [Uint128.UnmarshalJSON] does.
func (s *lineScanner) uint128() Uint128 {
	if i := bytes.IndexAny(s.b, ",]}"); i >= 0 && i < 20 { // below 10^19: in 64 bits
		return From64(s.digits())
	}
	x, err := ParseUint128(string(s.token()))
	s.ok = s.ok && err == nil
	return x
}

// float reads a float64.
func (s *lineScanner) float() float64 {
	x, err := strconv.ParseFloat(string(s.token()), 64)
	s.ok = s.ok && err == nil
	return x
}

// string reads a string with no escape and no byte past ASCII.
func (s *lineScanner) string() string {
	s.lit(`"`)
	for i := 0; s.ok && i < len(s.b); i++ {
		switch c := s.b[i]; {
		case c == '"':
			t := string(s.b[:i])
			s.b = s.b[i+1:]
			return t
		case c < 0x20 || c >= 0x7f || c == '\\':
			s.ok = false
		}
	}
	s.ok = false
	return ""
}

// parseJSON reads body into l, reporting whether it was in the form
// appendJSON writes (l is then what encoding/json would read, provided
// that appendJSON(l) gives body back: the caller's check).
func (l *line) parseJSON(body []byte) bool {
	s := &lineScanner{b: body, ok: true}
	s.lit(`{"kind":`)
	l.Kind = s.string()
	s.lit(`,"n":`)
	l.N = s.int()
	s.lit(`,"shard":`)
	l.Shard = s.int()
	s.lit(`,"shards":`)
	l.Shards = s.int()
	s.lit(`,"scheme":`)
	l.Scheme = s.string()
	if s.peek(`,"split":`) {
		s.lit(`,"split":`)
		l.Split = s.int()
	}
	if s.peek(`,"engine":`) {
		s.lit(`,"engine":`)
		l.Engine = s.string()
	}
	s.lit(`,"parts":`)
	l.Parts = s.int()
	s.lit(`,"covered":`)
	l.Covered = s.int()
	s.lit(`,"pieces":[`)
	// The pieces' numbers in one array, sliced once it is whole.
	flat, ends := make([]int64, 0, 5*16), make([]int, 0, 16)
	for s.ok && !s.peek("]") {
		if len(ends) > 0 {
			s.lit(",")
		}
		s.lit("[")
		for k := 0; s.ok && !s.peek("]"); k++ {
			if k > 0 {
				s.lit(",")
			}
			flat = append(flat, s.int64())
		}
		s.lit("]")
		ends = append(ends, len(flat))
	}
	s.lit("]")
	l.Pieces = make([][]int64, len(ends))
	start := 0
	for i, end := range ends {
		l.Pieces[i] = flat[start:end:end]
		start = end
	}
	s.lit(`,"tallies":[`)
	l.Tallies = make([][3]uint64, 0, len(ends))
	for s.ok && !s.peek("]") {
		if len(l.Tallies) > 0 {
			s.lit(",")
		}
		var t [3]uint64
		s.lit("[")
		t[0] = s.uint64()
		s.lit(",")
		t[1] = s.uint64()
		s.lit(",")
		t[2] = s.uint64()
		s.lit("]")
		l.Tallies = append(l.Tallies, t)
	}
	s.lit("]")
	s.lit(`,"total":`)
	l.Total = s.string()
	s.lit(`,"unique":`)
	l.Unique = s.string()
	s.lit(`,"total24":`)
	l.Total24 = s.uint128()
	s.lit(`,"unique24":`)
	l.Unique24 = s.uint128()
	s.lit(`,"nodes":`)
	l.Nodes = s.uint128()
	s.lit(`,"elapsed":`)
	l.Elapsed = s.float()
	s.lit(`,"host":`)
	l.Host = s.string()
	s.lit(`,"threads":`)
	l.Threads = s.int()
	s.lit(`,"start":`)
	l.Start = s.string()
	s.lit(`,"version":`)
	l.Version = s.string()
	s.lit(`,"fingerprint":`)
	l.Fingerprint = s.string()
	s.lit("}")
	return s.ok && len(s.b) == 0
}
