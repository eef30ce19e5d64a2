package drat

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Result describes a verified refutation. A nil error from a Check function
// always comes with a non-nil Result; the counts are informational.
type Result struct {
	// Format is the proof format read: "DRAT", "binary DRAT", "LRAT",
	// "binary LRAT", "FRAT" or "binary FRAT".
	Format string
	// Lemmas and Deletions count the proof's additions and deletions.
	Lemmas, Deletions int
	// Checked counts the lemmas verified. A DRAT check verifies only the
	// core: the lemmas the refutation needs, found while walking backwards.
	// An LRAT check verifies every lemma up to the empty clause.
	Checked int
	// RAT counts the verified lemmas that needed the RAT check.
	RAT int
	// CoreClauses counts the formula clauses the refutation uses (DRAT only).
	CoreClauses int
	// IgnoredDeletions counts deletions of unit or reason clauses, which
	// the DRAT check ignores as drat-trim does (it keeps those clauses).
	IgnoredDeletions int
	// UnmatchedDeletions counts DRAT deletions of clauses that were not in
	// the database; they are ignored.
	UnmatchedDeletions int
	// SkippedLemmas counts the DRAT lemmas not stored: tautologies, which
	// hold anyway and never propagate, and lemmas whose literal set the
	// database already holds (a count of copies is kept instead, so that
	// deletions apply as to the copies). Memory follows what is stored.
	SkippedLemmas int
	// FormulaConflict is true when unit propagation on the formula alone
	// reaches a conflict, so no lemma was needed.
	FormulaConflict bool
}

// ErrNoEmptyClause is wrapped by the error returned when a proof ends
// without deriving the empty clause, for example a truncated proof. (A DRAT
// proof whose lemmas reach a conflict by unit propagation must still contain
// the empty clause, unless the formula alone propagates to a conflict.)
var ErrNoEmptyClause = errors.New("proof does not derive the empty clause")

// LemmaError is the error returned when a lemma fails its check: the first
// failing lemma found. In a DRAT proof that is the last (in file order)
// failing lemma the refutation needs, as the check walks backwards.
type LemmaError struct {
	// Index numbers the proof's lemmas (additions, not deletions) from 1.
	Index int
	// ID is the LRAT clause id of the lemma; 0 for DRAT.
	ID int64
	// Line is the text line of the lemma, from 1; 0 for a binary proof.
	Line int
	// Offset is the byte offset of the lemma in the proof, from 0.
	Offset int64
	// Lits holds the lemma's literals as written in the proof.
	Lits []int
	// Reason says why the lemma failed, e.g. "is not RUP or RAT".
	Reason string
	// Format is the proof's format, as in [Result].Format (the message
	// leaves it out).
	Format string
}

// Error describes the lemma and the failure, e.g.
// "lemma 17 (line 17: 3 -5 0) is not RUP or RAT".
func (e *LemmaError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "lemma %d (", e.Index)
	if e.ID != 0 {
		fmt.Fprintf(&b, "id %d, ", e.ID)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	} else {
		fmt.Fprintf(&b, "byte %d: ", e.Offset)
	}
	for _, l := range e.Lits {
		b.WriteString(strconv.Itoa(l))
		b.WriteByte(' ')
	}
	b.WriteString("0) ")
	b.WriteString(e.Reason)
	return b.String()
}

func ints(l []int32) []int {
	out := make([]int, len(l))
	for i, x := range l {
		out[i] = int(x)
	}
	return out
}
