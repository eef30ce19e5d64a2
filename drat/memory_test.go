package drat

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// cube3 is the formula of all eight clauses over variables 1..3.
func cube3() *Formula {
	f := &Formula{Vars: 3}
	for s := 0; s < 8; s++ {
		c := []int{1, 2, 3}
		for i := range c {
			if s>>i&1 == 1 {
				c[i] = -c[i]
			}
		}
		f.Clauses = append(f.Clauses, c)
	}
	return f
}

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestProofMemoryFollowsKept: a proof of 7 MB of tautologies (1 -1 0),
// or of one lemma repeated a million times before a refutation, costs
// memory for what is kept, not for its size (it was 28 bytes a byte);
// the repeated lemma still checks, as copies that deletions remove one
// at a time.
func TestProofMemoryFollowsKept(t *testing.T) {
	f := cube3()
	taut := strings.Repeat("1 -1 0\n", 1<<20)
	var res *Result
	var err error
	n := allocated(func() { res, err = CheckDRAT(context.Background(), f, strings.NewReader(taut)) })
	if !errors.Is(err, ErrNoEmptyClause) {
		t.Errorf("tautologies: %v, want no empty clause", err)
	}
	if n > 1<<20 {
		t.Errorf("a proof of %d bytes of tautologies allocated %d bytes", len(taut), n)
	}
	// (1 2) twice, deleted once: the copy left, with (1 -2 3) and
	// (1 -2 -3), makes (1) RUP once (1 2 3) and (1 2 -3) are gone.
	proof := strings.Repeat("-1 -2 -3 0\n", 1<<20) + "1 2 0\n1 2 0\nd 1 2 0\nd 1 2 3 0\nd 1 2 -3 0\n1 0\n2 0\n0\n"
	n = allocated(func() { res, err = CheckDRAT(context.Background(), f, strings.NewReader(proof)) })
	if err != nil {
		t.Fatalf("repeated lemmas: %v", err)
	}
	if n > 1<<20 {
		t.Errorf("a proof of %d bytes of one repeated lemma allocated %d bytes", len(proof), n)
	}
	if res.Lemmas != 1<<20+5 || res.SkippedLemmas != 1<<20+1 || res.Deletions != 3 {
		t.Errorf("result %+v: want %d lemmas, %d skipped, 3 deletions", res, 1<<20+5, 1<<20+1)
	}
	// Deleted twice, (1 2) is gone and (1) is not RUP.
	proof = "1 2 0\n1 2 0\nd 1 2 0\nd 1 2 0\nd 1 2 3 0\nd 1 2 -3 0\n1 0\n2 0\n0\n"
	var le *LemmaError
	if _, err := CheckDRAT(context.Background(), f, strings.NewReader(proof)); !errors.As(err, &le) || le.Index != 3 {
		t.Errorf("(1 2) deleted as often as added: %v, want lemma 3 refused", err)
	}
}

// countReader counts the bytes read from it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestProofNULs: a proof of NUL bytes is refused at its first word, text
// or binary, with a short message, reading no more than a buffer of it.
func TestProofNULs(t *testing.T) {
	for _, head := range []string{"", "a", "d"} {
		r := &countReader{r: io.MultiReader(strings.NewReader(head), bytes.NewReader(make([]byte, 100<<20)))}
		_, err := CheckDRAT(context.Background(), cube3(), r)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Offset > 64 {
			t.Errorf("%q and NULs: %v, want a parse error at its start", head, err)
		}
		if err != nil && len(err.Error()) > 200 {
			t.Errorf("%q and NULs: a message of %d bytes", head, len(err.Error()))
		}
		if r.n > 1<<20 {
			t.Errorf("%q and NULs: read %d bytes", head, r.n)
		}
	}
}

// TestProofMemoryBudget: a proof that would keep more than the process
// may use fails with ErrMemory before it takes the memory.
func TestProofMemoryBudget(t *testing.T) {
	defer func(b func() int64) { memoryBudget = b }(memoryBudget)
	memoryBudget = func() int64 { return 1 << 20 }
	var b strings.Builder
	for v := 4; b.Len() < 2<<20; v++ {
		fmt.Fprintf(&b, "1 2 %d 0\n", v)
	}
	_, err := CheckDRAT(context.Background(), cube3(), strings.NewReader(b.String()))
	if !errors.Is(err, ErrMemory) || strings.Contains(err.Error(), "\n") {
		t.Errorf("%v, want ErrMemory in one line", err)
	}
	// FRAT goes through the same parser, and so does CheckProof's
	// reading of it, text or binary.
	var frat strings.Builder
	bin := []byte("o\x01\x02\x04\x00") // an o step: FRAT, not DRAT
	for v := 4; frat.Len() < 2<<20; v++ {
		fmt.Fprintf(&frat, "a %d 1 2 %d 0\n", v+8, v)
		bin = binary.AppendUvarint(append(binary.AppendUvarint(append(bin, 'a'), uint64(v+8)), 2, 4), uint64(2*v))
		bin = append(bin, 0)
	}
	for _, proof := range []string{frat.String(), string(bin)} {
		res, err := CheckProof(context.Background(), cube3(), strings.NewReader(proof))
		if !errors.Is(err, ErrMemory) || !strings.Contains(err.Error(), "FRAT") {
			t.Errorf("FRAT of 2 MiB in 1 MiB: %+v, %v; want ErrMemory", res, err)
		}
	}
}

// TestLRATMemoryBudget: an LRAT proof larger than the memory budget
// allows fails with ErrMemory.
func TestLRATMemoryBudget(t *testing.T) {
	defer func(b func() int64) { memoryBudget = b }(memoryBudget)
	memoryBudget = func() int64 { return 1 << 20 }
	proof := strings.Repeat("c a comment line of an LRAT proof\n", 1<<15)
	if _, err := CheckLRAT(context.Background(), cube3(), strings.NewReader(proof)); !errors.Is(err, ErrMemory) {
		t.Errorf("%v, want ErrMemory", err)
	}
}
