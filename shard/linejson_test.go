package shard

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"
)

// lineJSONSeeds returns lines of every scheme and some odd field values
// (fresh copies): the seeds of FuzzLineJSON.
func lineJSONSeeds(t testing.TB) []line {
	ls, err := lineSeeds()
	if err != nil {
		t.Fatal(err)
	}
	for i := range ls {
		ls[i].Pieces, ls[i].Tallies = slices.Clone(ls[i].Pieces), slices.Clone(ls[i].Tallies)
	}
	return ls
}

var lineSeeds = sync.OnceValues(func() ([]line, error) {
	var ls []line
	for _, s := range []Spec{
		{N: 8, Shards: 2, Version: "v1"},
		{N: 12, Index: 2, Shards: 3, Version: "dev", Split: 4},
		{N: 10, Index: 1, Shards: 5, Version: "x", Scheme: JoinScheme},
	} {
		r, err := Run(context.Background(), s, Options{Threads: 1, Engine: cmpEngine(s)})
		if err != nil {
			return nil, err
		}
		r.Host, r.Start = "node<1>&\"\\\u2028é\x7f\x01", time.Unix(1764547200, 0)
		ls = append(ls, r.line())
	}
	l := ls[0]
	for _, e := range []float64{0, 1e-7, 1.5e-9, 123456.789, 1e21, 3e22, 0.000001, 5e-324} {
		l.Elapsed = e
		ls = append(ls, l)
	}
	l.Host, l.Version, l.Pieces, l.Tallies = "\xff\xfe bad utf-8", "", nil, nil
	return append(ls, l, line{}), nil
})

// cmpEngine returns the engine of the scheme of s.
func cmpEngine(s Spec) string {
	if s.Scheme == JoinScheme {
		return EngineJoin
	}
	return EngineConstellations
}

// TestLineJSON checks that a line is written as json.Marshal writes it,
// and read back by parseJSON as encoding/json reads it.
func TestLineJSON(t *testing.T) {
	ls := lineJSONSeeds(t)
	for _, l := range ls {
		checkLineJSON(t, l)
	}
	// The lines queens writes take the fast path.
	for _, l := range ls[:3] {
		l.Host = "node-1.example"
		var back line
		if !back.parseJSON(l.appendJSON(nil)) || !reflect.DeepEqual(back, l) {
			t.Errorf("parseJSON did not read back %+v: %+v", l, back)
		}
	}
}

// FuzzLineJSON checks appendJSON against json.Marshal, and parseJSON
// against encoding/json, on lines with fuzzed strings and numbers, and on
// fuzzed bodies.
func FuzzLineJSON(f *testing.F) {
	for _, l := range lineJSONSeeds(f) {
		f.Add(l.Host, l.Version, l.N, l.Elapsed, uint64(l.Parts), l.appendJSON(nil))
	}
	f.Fuzz(func(t *testing.T, host, version string, n int, elapsed float64, x uint64, body []byte) {
		l := lineJSONSeeds(t)[1]
		if !math.IsInf(elapsed, 0) && !math.IsNaN(elapsed) {
			l.Elapsed = elapsed
		}
		l.Host, l.Version, l.N, l.Shard, l.Nodes = host, version, n, -n, Uint128{x, x >> 3}
		if len(l.Tallies) > 0 {
			l.Tallies[0][2] = x
		}
		checkLineJSON(t, l)
		var fast line
		if fast.parseJSON(body) && bytes.Equal(fast.appendJSON(nil), body) {
			var slow line
			if err := decodeStrict(body, &slow); err != nil || !reflect.DeepEqual(fast, slow) {
				t.Fatalf("%s: parseJSON read %+v, encoding/json %+v (%v)", body, fast, slow, err)
			}
		}
	})
}

// checkLineJSON checks l's JSON against encoding/json's.
func checkLineJSON(t *testing.T, l line) {
	t.Helper()
	want, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	got := l.appendJSON(nil)
	if !bytes.Equal(got, want) {
		t.Fatalf("appendJSON wrote\n%s\njson.Marshal\n%s", got, want)
	}
	var fast, slow line
	if err := decodeStrict(got, &slow); err != nil {
		t.Fatal(err)
	}
	if fast.parseJSON(got) && !reflect.DeepEqual(fast, slow) {
		t.Fatalf("parseJSON read %+v, encoding/json %+v", fast, slow)
	}
}

// TestParseJSONOddNumbers checks parseJSON on numbers out of the form
// json.Marshal writes, or out of range: where it and the round trip
// accept a body, encoding/json reads the same line from it.
func TestParseJSONOddNumbers(t *testing.T) {
	good := lineJSONSeeds(t)[1]
	good.Nodes, good.Host = Uint128{Hi: 1, Lo: 5}, "node1"
	body := good.appendJSON(nil)
	for _, c := range []struct{ old, new string }{
		{`"n":12`, `"n":012`}, {`"n":12`, `"n":-0`}, {`"n":12`, `"n":+12`}, {`"n":12`, `"n":1e1`},
		{`"n":12`, `"n":9223372036854775808`}, {`"n":12`, `"n":-9223372036854775808`}, {`"n":12`, `"n":-9223372036854775809`},
		{`"n":12`, `"n":18446744073709551616`}, {`"n":12`, `"n":12.0`}, {`"n":12`, `"n":`},
		{`"tallies":[[`, `"tallies":[[18446744073709551615,`}, {`"tallies":[[`, `"tallies":[[18446744073709551616,`},
		{`"tallies":[[`, `"tallies":[[-1,`}, {`"nodes":`, `"nodes":0`}, {`"nodes":`, `"nodes":340282366920938463463374607431768211456`},
		{`"elapsed":`, `"elapsed":1e400`}, {`"elapsed":`, `"elapsed":0x1`}, {`"pieces":[[`, `"pieces":[[-1,`},
	} {
		odd := bytes.Replace(body, []byte(c.old), []byte(c.new), 1)
		var fast, slow line
		fastOK := fast.parseJSON(odd) && bytes.Equal(fast.appendJSON(nil), odd)
		slowErr := decodeStrict(odd, &slow)
		slowOK := slowErr == nil && bytes.Equal(slow.appendJSON(nil), odd)
		if fastOK && (!slowOK || !reflect.DeepEqual(fast, slow)) {
			t.Errorf("%s -> %s: parseJSON read %+v, encoding/json %+v (%v)", c.old, c.new, fast, slow, slowErr)
		}
		if fastOK != slowOK {
			t.Errorf("%s -> %s: parseJSON and round trip accept it: %v, encoding/json: %v (%v)", c.old, c.new, fastOK, slowOK, slowErr)
		}
	}
	var back line
	if !back.parseJSON(body) || !reflect.DeepEqual(back, good) {
		t.Errorf("a line with nodes past 2^64 not read back: %+v", back)
	}
}
