package shard

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
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
	if sum, err := parseMerge([][]byte{cpu[0], g.AppendLine(nil), cpu[2]}); err != nil || sum.Total != 352 {
		t.Errorf("merge of constellations and gpu lines = %+v, %v; want 352 solutions", sum, err)
	}

	// An engine registered by a test recounts its own lines: one that
	// lies about a piece is caught by Verify.
	if err := RegisterEngine(Engine{Name: EngineConstellations, Recount: CPURecount}); err == nil {
		t.Error("RegisterEngine of a name taken: no error")
	}
	if err := RegisterEngine(Engine{Name: "test-liar"}); err == nil {
		t.Error("RegisterEngine without Recount: no error")
	}
	liar := func(ctx context.Context, n int, p backtrack.Subproblem) (backtrack.Tally, error) {
		tl, err := p.Count(ctx, n)
		tl.Total24 += 24 * 8
		tl.Unique24 += 24
		return tl, err
	}
	if err := RegisterEngine(Engine{Name: "test-liar", Recount: liar}); err != nil {
		t.Fatal(err)
	}
	g.Engine = "test-liar"
	rs, err := parseAll([][]byte{cpu[0], g.AppendLine(nil), cpu[2]})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(context.Background(), rs, 1<<20, 1); !errors.Is(err, ErrVerify) || !strings.Contains(err.Error(), "of shard 1") {
		t.Errorf("Verify with an engine whose recount differs: %v; want ErrVerify for shard 1", err)
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
