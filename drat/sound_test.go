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

// randomFormula builds a random formula over 2..6 variables with clauses
// of 2 or 3 literals (no units, so lemmas are usually needed).
func randomFormula(rng *rand.Rand) *drat.Formula {
	vars := 2 + rng.IntN(5)
	f := &drat.Formula{Vars: vars}
	for i := 2 + rng.IntN(8*vars); i > 0; i-- {
		c := make([]int, 2+rng.IntN(2))
		for j := range c {
			c[j] = 1 + rng.IntN(vars)
			if rng.IntN(2) == 0 {
				c[j] = -c[j]
			}
		}
		f.Clauses = append(f.Clauses, c)
	}
	return f
}

// treeProof returns the DRAT proof of a tree-like DPLL refutation of f:
// for each node of the search tree (variables in order) that falsifies no
// clause, after both subtrees, the negation of the node's partial
// assignment; the root gives the empty clause. Each lemma is RUP, so the
// proof is valid exactly when f is unsatisfiable.
func treeProof(f *drat.Formula) []string {
	var lines []string
	val := make([]int, f.Vars+1) // 1 true, -1 false, 0 unassigned
	falsified := func() bool {
		for _, c := range f.Clauses {
			all := true
			for _, l := range c {
				v, want := l, 1
				if l < 0 {
					v, want = -l, -1
				}
				all = all && val[v] == -want
			}
			if all {
				return true
			}
		}
		return false
	}
	var rec func(depth int)
	rec = func(depth int) {
		if falsified() || depth == f.Vars {
			return
		}
		for _, sign := range []int{1, -1} {
			val[depth+1] = sign
			rec(depth + 1)
		}
		val[depth+1] = 0
		var b strings.Builder
		for v := 1; v <= depth; v++ {
			fmt.Fprintf(&b, "%d ", -v*val[v])
		}
		b.WriteString("0")
		lines = append(lines, b.String())
	}
	rec(0)
	return lines
}

// extended rewrites a tree proof with an extension variable e = Vars+1
// defined equal to variable 1 by two RAT lemmas ("-e 1 0" is blocked, "e -1
// 0" resolves only to a tautology), and e in place of 1 in every lemma, so
// the RAT lemmas are needed: the proof is valid exactly when the tree proof
// is.
func extended(f *drat.Formula, lines []string) []string {
	e := f.Vars + 1
	out := []string{fmt.Sprintf("-%d 1 0", e), fmt.Sprintf("%d -1 0", e)}
	for _, line := range lines {
		fs := strings.Fields(line)
		for i, x := range fs {
			switch x {
			case "1":
				fs[i] = fmt.Sprint(e)
			case "-1":
				fs[i] = fmt.Sprint(-e)
			}
		}
		out = append(out, strings.Join(fs, " "))
	}
	return out
}

// mutate damages a proof at random: drops, flips, inserts or deletes.
func mutate(rng *rand.Rand, f *drat.Formula, lines []string) []string {
	out := append([]string(nil), lines...)
	for k := 1 + rng.IntN(3); k > 0; k-- {
		i := rng.IntN(len(out) + 1)
		switch rng.IntN(4) {
		case 0: // drop a step
			if i < len(out) {
				out = append(out[:i], out[i+1:]...)
			}
		case 1: // flip a literal
			if i < len(out) {
				fs := strings.Fields(out[i])
				if j := rng.IntN(len(fs)); fs[j] != "0" && fs[j] != "d" {
					fs[j] = fmt.Sprint(-atoi(fs[j]))
				}
				out[i] = strings.Join(fs, " ")
			}
		case 2: // insert a random lemma, maybe with an extension variable
			var b strings.Builder
			for n := 1 + rng.IntN(2); n > 0; n-- {
				l := 1 + rng.IntN(f.Vars+1)
				if rng.IntN(2) == 0 {
					l = -l
				}
				fmt.Fprintf(&b, "%d ", l)
			}
			b.WriteString("0")
			out = append(out[:i], append([]string{b.String()}, out[i:]...)...)
		case 3: // delete a formula clause
			var b strings.Builder
			b.WriteString("d ")
			for _, l := range f.Clauses[rng.IntN(len(f.Clauses))] {
				fmt.Fprintf(&b, "%d ", l)
			}
			b.WriteString("0")
			out = append(out[:i], append([]string{b.String()}, out[i:]...)...)
		}
	}
	return out
}

// TestSoundRandom checks random formulas with tree-like proofs, intact and
// damaged, in text and binary DRAT and converted to LRAT: an intact proof
// verifies exactly when the formula is unsatisfiable (found by trying every
// assignment), and no proof ever verifies a satisfiable formula.
func TestSoundRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	verified, damagedOK, rat := 0, 0, 0
	const rounds = 3000
	for i := 0; i < rounds; i++ {
		f := randomFormula(rng)
		sat := satisfiable(f)
		good := treeProof(f)
		ext := extended(f, good)
		for d, lines := range [][]string{good, mutate(rng, f, good), ext, mutate(rng, f, ext)} {
			text := strings.Join(lines, "\n") + "\n"
			for _, p := range []string{text, string(toBinary(lines))} {
				_, err := drat.CheckDRAT(context.Background(), f, strings.NewReader(p))
				if err == nil && sat {
					t.Fatalf("satisfiable %v verified by proof\n%s", f.Clauses, text)
				}
				if d%2 == 0 && !sat && err != nil {
					t.Fatalf("unsatisfiable %v: valid tree proof refused: %v\n%s", f.Clauses, err, text)
				}
			}
			var lrat bytes.Buffer
			res, err := drat.ConvertDRAT(context.Background(), f, strings.NewReader(text), &lrat)
			if err != nil {
				continue
			}
			if d%2 == 0 {
				verified++
			} else {
				damagedOK++
			}
			rat += res.RAT
			if _, err := drat.CheckLRAT(context.Background(), f, &lrat); err != nil {
				t.Fatalf("%v: converted LRAT fails: %v\nDRAT:\n%s\nLRAT:\n%s", f.Clauses, err, text, lrat.String())
			}
		}
	}
	t.Logf("%d rounds: %d intact proofs verified, %d damaged proofs still valid (%d RAT lemmas)", rounds, verified, damagedOK, rat)
	if verified < rounds/5 || damagedOK < rounds/10 || rat < rounds/100 {
		t.Errorf("too few proofs verified; the test is too weak")
	}
}

// FuzzCheck: whatever the proof bytes, the checkers never panic and never
// verify a satisfiable formula, and a verified DRAT proof converts to an
// LRAT proof that verifies.
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
	var lrat bytes.Buffer
	if _, err := drat.ConvertDRAT(context.Background(), form, bytes.NewReader(proof), &lrat); err == nil {
		if sat {
			t.Fatalf("DRAT verified satisfiable %v", form.Clauses)
		}
		if _, err := drat.CheckLRAT(context.Background(), form, &lrat); err != nil {
			t.Fatalf("converted LRAT of %v fails: %v", form.Clauses, err)
		}
	}
	if _, err := drat.CheckLRAT(context.Background(), form, bytes.NewReader(proof)); err == nil && sat {
		t.Fatalf("LRAT verified satisfiable %v", form.Clauses)
	}
}
