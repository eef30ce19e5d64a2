package drat_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/queens-dev/queens/drat"
)

// satisfiable decides f by trying every assignment (f.Vars <= 20).
func satisfiable(f *drat.Formula) bool {
	for m := 0; m < 1<<f.Vars; m++ {
		ok := true
		for _, c := range f.Clauses {
			sat := false
			for _, l := range c {
				v := l
				if v < 0 {
					v = -v
				}
				if (m>>(v-1)&1 == 1) == (l > 0) {
					sat = true
					break
				}
			}
			if !sat {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// randomCase builds a small random formula and a random DRAT proof
// (random lemmas, some deletions of formula clauses, the empty clause) from
// rng. Lemmas may use one variable beyond the formula.
func randomCase(rng *rand.Rand) (*drat.Formula, string) {
	vars := 2 + rng.IntN(5)
	f := &drat.Formula{Vars: vars}
	clause := func(nv, maxLen int) []int {
		c := make([]int, 1+rng.IntN(maxLen))
		for i := range c {
			c[i] = 1 + rng.IntN(nv)
			if rng.IntN(2) == 0 {
				c[i] = -c[i]
			}
		}
		return c
	}
	for i := 2 + rng.IntN(4*vars); i > 0; i-- {
		f.Clauses = append(f.Clauses, clause(vars, 3))
	}
	var b strings.Builder
	for i := rng.IntN(8); i > 0; i-- {
		if rng.IntN(5) == 0 {
			b.WriteString("d ")
			for _, l := range f.Clauses[rng.IntN(len(f.Clauses))] {
				fmt.Fprintf(&b, "%d ", l)
			}
		} else {
			for _, l := range clause(vars+1, 2) {
				fmt.Fprintf(&b, "%d ", l)
			}
		}
		b.WriteString("0\n")
	}
	b.WriteString("0\n")
	return f, b.String()
}

// TestSoundRandom: no random proof may verify a satisfiable formula, as
// DRAT, as binary DRAT, or converted to LRAT; and the check must accept
// some of them, or the test proves nothing.
func TestSoundRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	verified := 0
	for i := 0; i < 5000; i++ {
		f, proof := randomCase(rng)
		sat := satisfiable(f)
		for _, p := range []string{proof, string(toBinary(strings.Split(proof, "\n")))} {
			_, err := drat.CheckDRAT(context.Background(), f, strings.NewReader(p))
			if err == nil && sat {
				t.Fatalf("satisfiable %v verified by proof\n%s", f.Clauses, proof)
			}
		}
		var lrat bytes.Buffer
		if _, err := drat.ConvertDRAT(context.Background(), f, strings.NewReader(proof), &lrat); err == nil {
			verified++
			if _, err := drat.CheckLRAT(context.Background(), f, &lrat); err != nil {
				t.Fatalf("%v: converted LRAT fails: %v\nDRAT:\n%s\nLRAT:\n%s", f.Clauses, err, proof, lrat.String())
			}
		}
	}
	if verified < 100 {
		t.Errorf("only %d of 5000 random proofs verified; the test is too weak", verified)
	}
	t.Logf("%d of 5000 random proofs verified", verified)
}

// FuzzCheck: whatever the proof bytes, the checkers never panic and never
// verify a satisfiable formula.
func FuzzCheck(f *testing.F) {
	f.Add([]byte{3, 1, 2, 0, 0xff, 2, 0}, []byte("1 0\n0\n"))
	f.Add([]byte{2, 1, 0, 0xfe, 0}, []byte("a\x02\x00a\x00"))
	f.Add([]byte{2, 1, 0, 0xfe, 0}, []byte("3 1 0 1 0\n4 0 3 2 0\n"))
	f.Add([]byte(ratCNF), []byte(ratProof))
	f.Fuzz(fuzzBody)
}

// fuzzBody builds a formula from fb (first byte: 1..6 variables, then
// literals, 0 ends a clause) and checks proof against it both ways.
func fuzzBody(t *testing.T, fb, proof []byte) {
	if len(fb) == 0 {
		return
	}
	form := &drat.Formula{Vars: 1 + int(fb[0])%6}
	var c []int
	for _, b := range fb[1:] {
		l := int(int8(b)) % (form.Vars + 1)
		if l == 0 {
			form.Clauses = append(form.Clauses, c)
			c = nil
			continue
		}
		c = append(c, l)
	}
	sat := satisfiable(form)
	if _, err := drat.CheckDRAT(context.Background(), form, bytes.NewReader(proof)); err == nil && sat {
		t.Fatalf("DRAT verified satisfiable %v", form.Clauses)
	}
	if _, err := drat.CheckLRAT(context.Background(), form, bytes.NewReader(proof)); err == nil && sat {
		t.Fatalf("LRAT verified satisfiable %v", form.Clauses)
	}
}
