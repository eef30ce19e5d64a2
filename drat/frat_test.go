package drat_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/drat"
)

// TestCryptoMiniSatFRAT checks the FRAT proofs cryptominisat5 (Debian's
// 5.11, which writes text FRAT with hints on some steps and none on
// others) writes of every instance, read by CheckProof as FRAT; and the
// same proof with one added clause changed, or its empty clause left
// out, is refused.
func TestCryptoMiniSatFRAT(t *testing.T) {
	path, err := exec.LookPath("cryptominisat5")
	if err != nil {
		t.Skip("cryptominisat5 not on PATH (apt-get install cryptominisat): no real FRAT proofs")
	}
	for _, in := range instances() {
		t.Run(in.name, func(t *testing.T) {
			dir := t.TempDir()
			cnf, proof := filepath.Join(dir, "f.cnf"), filepath.Join(dir, "f.frat")
			if err := os.WriteFile(cnf, dimacs(in.f), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.CommandContext(context.Background(), path, "--verb", "0", cnf, proof).CombinedOutput()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 20 {
				t.Fatalf("cryptominisat5: %v (want exit 20)\n%s", err, out)
			}
			data, err := os.ReadFile(proof)
			if err != nil {
				t.Fatal(err)
			}
			res, err := drat.CheckProof(context.Background(), in.f, bytes.NewReader(data))
			if err != nil || res.Format != "FRAT" {
				t.Fatalf("CheckProof: %+v, %v; want FRAT", res, err)
			}
			if res.FormulaConflict {
				return // nothing a lemma could break
			}
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			var noEmpty []string
			for _, l := range lines {
				if w := strings.Fields(l); len(w) == 3 && w[0] == "a" && w[2] == "0" {
					continue // the empty clause
				}
				noEmpty = append(noEmpty, l)
			}
			if _, err := drat.CheckProof(context.Background(), in.f, strings.NewReader(strings.Join(noEmpty, "\n")+"\n")); !errors.Is(err, drat.ErrNoEmptyClause) {
				t.Errorf("without its empty clause: %v, want ErrNoEmptyClause", err)
			}
		})
	}
}

// TestFRATHostile: malformed FRAT, text and binary, is a ParseError
// naming the format and the place; nothing panics, and what a proof says
// of itself (ids, hints, o steps) is not believed.
func TestFRATHostile(t *testing.T) {
	f := &drat.Formula{Vars: 2, Clauses: [][]int{{1, 2}, {1, -2}, {-1, 2}, {-1, -2}}}
	for _, tc := range []struct{ name, proof, want string }{
		{"cut in a step", "o 1 1 2 0\na 5 1", "FRAT line 2 (byte 10): input ends inside a clause"},
		{"cut after the letter", "a", "input ends inside a clause"},
		{"bad letter", "o 1 1 2 0\nx 5 1 0\n", "FRAT step does not start with o, a, d, f, l or r"},
		{"id 0", "a 0 1 0\n", "clause id \"0\""},
		{"huge id", "a 99999999999999999999 1 0\n", "clause id"},
		{"literal beyond 2^30", "a 5 1073741824 0\n", "bad literal"},
		{"long word", "a 5 " + strings.Repeat("1", 30) + " 0\n", "a word of more than 24 bytes"},
		{"binary cut", "o\x01\x02", "binary FRAT byte 0: input ends inside a clause"},
		{"binary bad letter", "o\x01\x02\x00x\x00", "binary FRAT byte 4: FRAT step does not start"},
		{"binary id 0", "o\x00\x02\x00", "clause id 0"},
		{"binary long number", "l\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x00", "variable-byte number too long"},
		{"binary literal 1", "a\x05\x01\x00", "bad literal: encoded 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := drat.CheckFRAT(context.Background(), f, strings.NewReader(tc.proof))
			var pe *drat.ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CheckFRAT = %v, want a ParseError containing %q", err, tc.want)
			}
		})
	}
	// Lying steps change nothing: o steps of clauses f lacks, deletions
	// of ids and clauses never added, hints naming nothing; the lemmas
	// alone must refute f.
	for _, tc := range []struct {
		proof string
		ok    bool
	}{
		{"o 1 1 0\no 2 -1 0\na 3 0 l 1 2 0\n", false}, // f has no units 1 and -1
		{"d 77 1 2 3 0\nd 4 5 0\na 5 1 0 l 999 -3 0\na 6 0 l 5 0\n", true},
		{"a 5 1 0\nd 5 1 0\nd 5 1 0\na 6 0\n", true}, // a unit's deletion is ignored, as drat-trim does
		{"a 5 0 l 1 2 3 4 0\n", false},               // the empty clause is not RUP, whatever its hints
	} {
		_, err := drat.CheckFRAT(context.Background(), f, strings.NewReader(tc.proof))
		if (err == nil) != tc.ok {
			t.Errorf("CheckFRAT(%q) = %v, want ok %v", tc.proof, err, tc.ok)
		}
	}
}

// TestLemmaErrorFormat: a failing lemma names its proof's format.
func TestLemmaErrorFormat(t *testing.T) {
	f := &drat.Formula{Vars: 2, Clauses: [][]int{{1, 2}, {1, -2}, {-1, 2}, {-1, -2}}}
	for proof, format := range map[string]string{
		"2 -1 0\n0\n":                            "DRAT",
		"a\x04\x03\x00a\x00":                     "binary DRAT",
		"5 -1 0 1 0\n6 0 5 0\n":                  "LRAT",
		"a\x0a\x03\x00\x02\x00a\x0c\x00\x0a\x00": "binary LRAT",
		"o 1 1 2 0\na 5 0\n":                     "FRAT",
		"o\x01\x02\x04\x00a\x05\x00":             "binary FRAT",
	} {
		_, err := drat.CheckProof(context.Background(), f, strings.NewReader(proof))
		var le *drat.LemmaError
		if !errors.As(err, &le) || le.Format != format {
			t.Errorf("CheckProof(%q) = %v, want a LemmaError of %s", proof, err, format)
		}
	}
}
