package external

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// ProofPlaceholder in a solver command's arguments stands for the name of
// the proof file, for a solver [ProofArgs] does not know, e.g.
// "mysolver --drat={proof}".
const ProofPlaceholder = "{proof}"

// CNFPlaceholder in a solver's or a counter's command stands for the name
// of the CNF file, for a program that takes it elsewhere than last, e.g.
// "cadical --lrat --no-binary {cnf} {proof}". Without it the name is
// appended to the command's words.
const CNFPlaceholder = "{cnf}"

// withCNF returns the arguments (argv less its program) that run argv on
// the CNF file cnf: argv's words with [CNFPlaceholder] replaced by cnf,
// or, where none has it, cnf appended; then more (a result file, a
// proof) after them all.
func withCNF(argv []string, cnf string, more ...string) []string {
	args := make([]string, 0, len(argv)+len(more))
	placed := false
	for _, w := range argv[1:] {
		if strings.Contains(w, CNFPlaceholder) {
			w = strings.ReplaceAll(w, CNFPlaceholder, cnf)
			placed = true
		}
		args = append(args, w)
	}
	if !placed {
		args = append(args, cnf)
	}
	return append(args, more...)
}

// ProofArgs returns how to ask the solver command argv (program first) for
// a DRAT proof written to the file proof: the command's words to use, and
// words to append after the CNF file's name. It knows these solvers, by
// the base name of the program:
//
//	cadical, kissat    SOLVER [ARGS] CNF PROOF   (binary DRAT)
//	cryptominisat5     SOLVER [ARGS] CNF PROOF   (FRAT)
//	picosat.trace      picosat.trace [ARGS] -R PROOF CNF   (RUP: DRAT without deletions)
//	glucose            glucose [ARGS] -certified -certified-output=PROOF CNF
//
// and any command with [ProofPlaceholder] in an argument, which is replaced
// by the file's name (the CNF's name goes last, or where
// [CNFPlaceholder] stands). For other solvers it returns an error wrapping
// [ErrNoProof] that says why (picosat as packaged is built without proof
// traces; minisat and clasp write none). The proof may be in any format
// the checker reads (the drat package's CheckProof reads DRAT, LRAT and
// FRAT).
func ProofArgs(argv []string, proof string) (words, after []string, err error) {
	if len(argv) == 0 {
		return nil, nil, fmt.Errorf("%w: empty command", ErrSolverNotFound)
	}
	words = append([]string(nil), argv...)
	placeholder := false
	for i, w := range words[1:] {
		if strings.Contains(w, ProofPlaceholder) {
			words[i+1] = strings.ReplaceAll(w, ProofPlaceholder, proof)
			placeholder = true
		}
	}
	if placeholder {
		return words, nil, nil
	}
	base := strings.ToLower(filepath.Base(argv[0]))
	switch {
	case strings.HasPrefix(base, "cadical") || strings.HasPrefix(base, "kissat") || strings.HasPrefix(base, "cryptominisat"):
		return words, []string{proof}, nil
	case base == "picosat.trace":
		return append(words, "-R", proof), nil, nil
	case strings.HasPrefix(base, "glucose"):
		return append(words, "-certified", "-certified-output="+proof), nil, nil
	case strings.HasPrefix(base, "picosat"):
		return nil, nil, fmt.Errorf("%w: %s is built without proof traces; picosat.trace (same package) writes one", ErrNoProof, base)
	}
	return nil, nil, fmt.Errorf("%w: %s: queens asks cadical, kissat, cryptominisat5, picosat.trace and glucose for proofs; "+
		"for another solver put %s where its command takes the proof file's name", ErrNoProof, base, ProofPlaceholder)
}

// skipRUPHeader drops the "%RUPD32 V C" line that starts picosat's RUP
// proofs, which DRAT checkers do not expect; other proofs pass unchanged.
func skipRUPHeader(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	first, err := br.Peek(1)
	if err == io.EOF {
		return br, nil
	}
	if err != nil {
		return nil, err
	}
	if first[0] == '%' {
		for {
			_, err := br.ReadSlice('\n')
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil && err != io.EOF {
				return nil, err
			}
			break
		}
	}
	return br, nil
}
