package testutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/queens-dev/queens/encode"
)

// CheckRUP is a slow, plain forward checker of DRUP proofs (DRAT proofs
// whose lemmas are all RUP, as cadical, kissat and picosat write them),
// text or binary, for tests that need a proof checker independent of the
// project's own: each added lemma must follow from the formula and the
// earlier lemmas by unit propagation, and the proof must add the empty
// clause. Deletions are ignored, which keeps the check sound (only more
// clauses stay available). It fits [github.com/queens-dev/queens/sat/external.ProofChecker]; its error names
// the first lemma that fails, counted from 1.
func CheckRUP(ctx context.Context, cnf *encode.CNF, proof io.Reader) error {
	data, err := io.ReadAll(proof)
	if err != nil {
		return err
	}
	lemmas, err := parseProof(data)
	if err != nil {
		return err
	}
	db := append([][]int(nil), cnf.Clauses...)
	for i, lemma := range lemmas {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !rup(db, cnf.Vars, lemma) {
			return fmt.Errorf("lemma %d (%v) is not RUP", i+1, lemma)
		}
		if len(lemma) == 0 {
			return nil
		}
		db = append(db, lemma)
	}
	return errors.New("the proof does not derive the empty clause")
}

// parseProof returns the added lemmas of a text or binary DRAT proof.
func parseProof(data []byte) ([][]int, error) {
	binary := false
	for _, b := range data[:min(len(data), 16)] {
		if b != ' ' && b != '\n' && b != '\r' && b != '\t' && b != '-' && b != 'd' && (b < '0' || b > '9') && b != 'c' {
			binary = true
		}
	}
	var lemmas [][]int
	if binary {
		for i := 0; i < len(data); {
			op := data[i]
			i++
			if op != 'a' && op != 'd' {
				return nil, fmt.Errorf("binary proof byte %d: bad operation %#x", i-1, op)
			}
			lemma := []int{}
			for {
				var u uint64
				shift := 0
				for {
					if i >= len(data) {
						return nil, errors.New("binary proof ends inside a clause")
					}
					b := data[i]
					i++
					u |= uint64(b&0x7f) << shift
					shift += 7
					if b < 0x80 {
						break
					}
				}
				if u == 0 {
					break
				}
				lit := int(u >> 1)
				if u&1 == 1 {
					lit = -lit
				}
				lemma = append(lemma, lit)
			}
			if op == 'a' {
				lemmas = append(lemmas, lemma)
			}
		}
		return lemmas, nil
	}
	for n, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] == "c" || f[0] == "d" {
			continue
		}
		lemma := []int{}
		ended := false
		for _, w := range f {
			lit, err := strconv.Atoi(w)
			if err != nil || ended {
				return nil, fmt.Errorf("proof line %d: bad literal %q", n+1, w)
			}
			if lit == 0 {
				ended = true
				continue
			}
			lemma = append(lemma, lit)
		}
		if !ended {
			return nil, fmt.Errorf("proof line %d: clause without its 0", n+1)
		}
		lemmas = append(lemmas, lemma)
	}
	return lemmas, nil
}

// rup reports whether assigning the negation of lemma and propagating the
// units of db reaches a conflict.
func rup(db [][]int, vars int, lemma []int) bool {
	val := map[int]bool{}       // variable -> value
	set := func(lit int) bool { // false on a conflict
		v, want := max(lit, -lit), lit > 0
		if got, ok := val[v]; ok {
			return got == want
		}
		val[v] = want
		return true
	}
	for _, lit := range lemma {
		if !set(-lit) {
			return true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, c := range db {
			free, unset := 0, 0
			satisfied := false
			for _, lit := range c {
				v := max(lit, -lit)
				got, ok := val[v]
				switch {
				case !ok:
					free++
					unset = lit
				case got == (lit > 0):
					satisfied = true
				}
				if satisfied {
					break
				}
			}
			switch {
			case satisfied:
			case free == 0:
				return true
			case free == 1:
				set(unset)
				changed = true
			}
		}
	}
	return false
}
