package shard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
)

// TestEngine checks the engine named in a line: Run writes it, a line
// without one (written before lines named it) reads as constellations, an
// unknown engine is refused, lines of two engines of one scheme merge, and
// Verify recounts with the engine the line names.
func TestEngine(t *testing.T) {
	cpu := runAll(t, 9, 3, "test")
	if !bytes.Contains(cpu[0], []byte(`"scheme":"round-robin","engine":"constellations",`)) {
		t.Fatalf("line without the engine after the scheme: %s", cpu[0])
	}
	r, err := Parse(cpu[1])
	if err != nil {
		t.Fatal(err)
	}
	r.Engine = ""
	old := r.AppendLine(nil)
	if bytes.Contains(old, []byte("engine")) {
		t.Fatalf("a line of no engine names one: %s", old)
	}
	if got, err := Parse(old); err != nil || got.Engine != EngineConstellations {
		t.Errorf("Parse(line without engine) = engine %q, %v; want %q", got.Engine, err, EngineConstellations)
	}
	r.Engine = "abacus"
	if _, err := Parse(r.AppendLine(nil)); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), `unknown engine "abacus"`) {
		t.Errorf("Parse(unknown engine): %v; want ErrCorrupt naming it", err)
	}
	if _, err := Run(context.Background(), Spec{N: 6, Shards: 1}, Options{Engine: "abacus"}); err == nil {
		t.Error("Run with an unknown engine: no error")
	}

	// Shard 1 counted by another engine, of the same pieces: one count.
	g, err := Run(context.Background(), Spec{N: 9, Index: 1, Shards: 3, Version: "test"}, Options{Engine: EngineGPU})
	if err != nil {
		t.Fatal(err)
	}
	if sum, err := parseMerge([][]byte{cpu[0], g.AppendLine(nil), cpu[2]}); err != nil || sum.Total != From64(352) {
		t.Errorf("merge of constellations and gpu lines = %+v, %v; want 352 solutions", sum, err)
	}

}

// TestEngines checks the table of engines: unique names, a recount for
// each engine's scheme, the published counts from every engine that
// counts whole boards, and a table that no caller can change.
func TestEngines(t *testing.T) {
	es := Engines()
	if len(es) < 3 || es[0].Name != EngineConstellations {
		t.Fatalf("Engines() = %d engines, first %q; want constellations first", len(es), es[0].Name)
	}
	seen := map[string]bool{}
	for _, e := range es {
		if seen[e.Name] || e.Name == "" || e.MaxN < 1 {
			t.Errorf("engine %q: repeated, unnamed or without a limit (MaxN %d)", e.Name, e.MaxN)
		}
		seen[e.Name] = true
		if got, ok := LookupEngine(e.Name); !ok || got.Name != e.Name {
			t.Errorf("LookupEngine(%q) = %q, %v", e.Name, got.Name, ok)
		}
		if (schemeOf(e.Scheme) == JoinScheme) != (e.RecountJoin != nil) || (schemeOf(e.Scheme) == Scheme) != (e.Recount != nil) {
			t.Errorf("engine %s of scheme %q: no recount of its pieces", e.Name, schemeOf(e.Scheme))
		}
		if e.Count == nil {
			continue
		}
		for _, n := range []int{1, 2, 6, 10} {
			total, unique, err := e.Count(context.Background(), n, true)
			if known, _ := board.Known(n); err != nil || total != known.Total || unique != known.Unique {
				t.Errorf("engine %s: Count(%d) = %d, %d, %v; published %d, %d", e.Name, n, total, unique, err, known.Total, known.Unique)
			}
		}
	}
	es[0].Name = "changed"
	if _, ok := LookupEngine("changed"); ok || Engines()[0].Name != EngineConstellations {
		t.Error("a change to Engines()'s slice changed the table")
	}
	if _, ok := LookupEngine("abacus"); ok {
		t.Error(`LookupEngine("abacus"): found`)
	}
}

// parseAll parses lines.
func parseAll(lines [][]byte) ([]Result, error) {
	var rs []Result
	for _, l := range lines {
		r, err := Parse(l)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// TestRecountTallies checks that recounts and confirmations judge what
// every correct engine agrees on, the tallies, not the work: a line of
// the GPU with other nodes repeats the CPU's line of its shard (the same
// search: no confirmation) and passes a recount, and one piece's forged count is named with both
// figures.
func TestRecountTallies(t *testing.T) {
	cpu := runAll(t, 9, 3, "test")
	g, err := Parse(cpu[1])
	if err != nil {
		t.Fatal(err)
	}
	g.Engine, g.Host = EngineGPU, "gpu-node"
	for i := range g.Tallies {
		g.Tallies[i].Nodes += 3
	}
	g.Sums, _ = SumTallies(g.Tallies)
	rs, err := parseAll([][]byte{cpu[0], cpu[1], cpu[2], g.AppendLine(nil)})
	if err != nil {
		t.Fatal(err)
	}
	rs[1], rs[3] = rs[3], rs[1] // the GPU's line first: it is the one recounted
	if sum, err := Merge(rs); err != nil || sum.Confirmed != 0 || sum.Repeated != 1 || sum.Total != From64(352) {
		t.Errorf("merge of a CPU and a GPU line of one shard = %+v, %v; want 352 and 1 repeated (the same search), none confirmed", sum, err)
	}
	if _, err := Verify(context.Background(), rs, 1<<20, 1); err != nil {
		t.Errorf("Verify of a GPU line with its own nodes: %v", err)
	}

	g.Tallies[2].Total24 += 24 * 8
	g.Tallies[2].Unique24 += 24
	g.Sums, _ = SumTallies(g.Tallies)
	forged, err := parseAll([][]byte{cpu[0], g.AppendLine(nil), cpu[2]})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("piece %v of shard 1 (engine gpu): the line says %s solutions", g.Pieces[2], fraction24(g.Tallies[2].Total24))
	if _, err := Verify(context.Background(), forged, 1<<20, 1); !errors.Is(err, ErrVerify) || !strings.Contains(err.Error(), want) {
		t.Errorf("Verify of a forged piece: %v; want ErrVerify with %q", err, want)
	}
	_, err = Merge(append(forged, rs[3]))
	if !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), "shard 1 of 3 disagrees with an earlier line of shard 1 (engines gpu)") {
		t.Errorf("Merge of two lines of shard 1 that differ in one piece: %v; want ErrDuplicate naming the shard and engines", err)
	}
}

// TestIndependent checks which engines confirm each other: only those that
// share no counting code.
func TestIndependent(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{EngineConstellations, EngineJoin, true}, {EngineJoin, EngineGPU, true}, {EngineGPU, EngineJoin, true},
		{EngineConstellations, EngineGPU, false}, {EngineGPU, EngineConstellations, false},
		{EngineConstellations, EngineConstellations, false}, {EngineGPU, EngineGPU, false}, {EngineJoin, EngineJoin, false},
		{"", EngineGPU, false}, {"", EngineJoin, true},
	} {
		if got := Independent(c.a, c.b); got != c.want {
			t.Errorf("Independent(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
