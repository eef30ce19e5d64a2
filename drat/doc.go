// Package drat checks proofs of unsatisfiability: DRAT proofs, as CaDiCaL,
// Kissat and most SAT solvers write them, LRAT and FRAT proofs, text or
// binary; [CheckProof] tells them apart. A solver that
// answers UNSAT can be wrong; a checked proof makes the answer trustworthy
// without trusting the solver.
//
// # Formulas
//
// A formula is a [Formula]: Vars and Clauses of signed DIMACS literals, the
// shape the encoder keeps in memory. [ReadCNF] reads one from DIMACS CNF
// strictly:
//
//	c comment lines anywhere
//	p cnf 3 2
//	1 -2 0
//	2 3 -1 0
//
// Formula clause j (counted from 0) has the LRAT clause id j+1.
//
// # DRAT proofs
//
// A text DRAT proof is a sequence of clauses, each ended by 0. A clause is
// a lemma the proof adds, or, after "d", a clause it deletes; lines starting
// with "c" are comments. The proof must add the empty clause ("0"):
//
//	-1 0
//	d -1 -2 3 0
//	2 0
//	0
//
// A binary DRAT proof (CaDiCaL's default when it writes a proof to a file)
// holds the same steps as bytes: 'a' (0x61) or 'd' (0x64), then each
// literal l as the variable-byte number 2*v (l = v) or 2*v+1 (l = -v),
// seven bits a byte, least significant first, high bit set on all but the
// last byte, and a 0 byte. The format is detected as drat-trim does: the
// proof is binary when it starts with 'a' or one of its first ten bytes
// cannot occur in a text proof.
//
// # The DRAT check
//
// [CheckDRAT] (and [Check], which reads the CNF too) checks backwards, as
// drat-trim does. A forward pass adds the lemmas and applies the deletions
// while unit propagation with two watched literals keeps the top-level
// assignment, and stops at the first conflict. The backward pass then walks
// from that conflict to the start, undoing steps, and verifies only the
// lemmas marked as needed (the core): the clauses in the final conflict's
// implication graph, then those used by each verified lemma. A lemma C is
// verified when it is RUP (asserting the negation of C and propagating
// reaches a conflict) or else RAT on its first literal p: for every active
// clause D holding -p, the resolvent C ∪ (D \ {-p}) is a tautology or RUP.
// Propagation prefers core clauses: non-core clauses are used only when core
// clauses give nothing more, so the core stays small. A RAT lemma may use
// variables the formula does not have (extended resolution); a lemma with
// new variables is checked like any other.
//
// The proof must contain the empty clause; a proof whose lemmas reach a
// conflict but which ends before the empty clause (a truncated proof) fails
// with [ErrNoEmptyClause]. Only a formula that propagates to a conflict on
// its own is refuted without one. Like drat-trim, the check ignores
// deletions of unit clauses and of clauses that are the reason of a
// top-level assignment (keeping them is sound) and deletions of clauses not
// in the database; [Result] counts both.
//
// [ConvertDRAT] checks a DRAT proof and writes the core as an LRAT proof,
// with the hints the check found.
//
// # LRAT proofs
//
// [CheckLRAT] checks text LRAT: each lemma line is "id literals 0 hints 0"
// and each deletion line is "id d ids 0". The hints are clause ids that,
// in order, become unit under the lemma's negation and end in a falsified
// clause. A RAT lemma lists, after the RUP hints, one group per clause D
// that holds the negated first literal: -id(D) and the hints that refute
// the resolvent. Every lemma is checked from its hints alone; no search.
// Binary LRAT, as CaDiCaL 2 writes it with --lrat, holds the same steps
// as bytes: 'a', the id, the literals, 0, the hints, 0; or 'd', the ids
// deleted, 0; every number a variable-byte number (as in binary DRAT) of
// 2*|x| plus 1 for a negative x. A formula that holds the empty clause is
// refuted whatever the proof, once its lemmas check.
//
// # FRAT proofs
//
// [CheckFRAT] checks FRAT (Baek, Carneiro and Heule), as CaDiCaL 2 and
// CryptoMiniSat write it: steps "o id lits 0" (an original clause), "a id
// lits 0", optionally followed by "l hints 0" (an added clause), "d id lits
// 0" (deleted), "f id lits 0" (left at the end) and "r" (renumbering), or
// the same as bytes (ids unsigned). The added and deleted clauses go to
// the DRAT check; what the proof says of itself (its o steps, ids and
// hints) is believed in nothing.
//
// # Errors
//
// Malformed input gives a *[ParseError] with the format, line (text) and
// byte offset. A lemma that fails its check gives a *[LemmaError] naming
// the lemma: its number among the proof's lemmas (from 1), its line or byte
// offset, its literals and the reason, for example
//
//	lemma 17 (line 17: 3 -5 0) is not RUP or RAT (RAT pivot 3)
//
// A DRAT check walks backwards, so when several lemmas are wrong the error
// names the last one the refutation needs. A proof that never derives the
// empty clause gives an error wrapping [ErrNoEmptyClause]. All checks stop
// with ctx.Err() when their context is done.
//
// Memory grows with what is kept, never with the numbers in the input:
// headers do not size anything, and variables that are too sparse to
// index directly (a literal such as 1000000000 in a small proof) are
// renumbered. A DRAT proof is read as it comes, not held whole: a lemma
// that is a tautology, or whose literal set the database already holds,
// is counted ([Result].SkippedLemmas) and not stored (a count of its
// copies is, so that deletions apply to them one at a time), and a
// deletion of a clause not in the database is dropped; a word of more
// than 24 bytes (a run of NULs, say) is refused at once. What a check may
// keep is half of the memory the process may use: the least of the
// machine's memory, its control group's limit and what its address-space
// limit (ulimit -v) leaves. A proof that would keep more fails with an
// error wrapping [ErrMemory] before it takes the memory, and an LRAT
// proof (held whole) larger than a quarter of that budget likewise. A
// proof of 50 MB of tautologies peaks at 15 MB (it was 1.4 GB).
package drat
