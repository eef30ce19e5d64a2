package drat

import (
	"context"
	"fmt"
	"github.com/queens-dev/queens/internal/quote"
	"io"
)

// lratStep is one line of an LRAT proof.
type lratStep struct {
	id         int64
	del        bool
	start, end int32 // literals in lratProof.lits (additions)
	hs, he     int32 // hints (additions) or deleted ids (deletions) in lratProof.hints
	index      int32
	line       int32
	off        int64
}

type lratProof struct {
	binary bool
	lits   []int32
	hints  []int64
	steps  []lratStep
	lemmas int
}

const maxID = 1<<62 - 1

func parseLRAT(data []byte) (*lratProof, error) {
	if len(data) > 0 && (data[0] == 'a' || data[0] == 'd') { // no text step starts so
		return parseBinaryLRAT(data)
	}
	p := &lratProof{}
	s := newScanner(data)
	perr := func(off, line int, err error) error {
		return &ParseError{Format: "LRAT", Line: line, Offset: int64(off), Err: err}
	}
	for {
		tok, off, line, ok := s.next()
		if !ok {
			return p, nil
		}
		id, ok := parseInt(tok, maxID)
		if !ok || id <= 0 {
			return nil, perr(off, line, fmt.Errorf("%w: clause id %s", ErrSyntax, quote.Bytes(tok)))
		}
		st := lratStep{id: id, line: int32(line), off: int64(off), start: int32(len(p.lits)), hs: int32(len(p.hints))}
		// next token: 'd' or the first literal
		tok, toff, tline, ok := s.next()
		if !ok {
			return nil, perr(toff, tline, ErrTruncate)
		}
		if string(tok) == "d" {
			st.del = true
		} else {
			for {
				v, ok := parseInt(tok, MaxVar)
				if !ok {
					return nil, perr(toff, tline, fmt.Errorf("%w %s", ErrLiteral, quote.Bytes(tok)))
				}
				if v == 0 {
					break
				}
				p.lits = append(p.lits, int32(v))
				if tok, toff, tline, ok = s.next(); !ok {
					return nil, perr(toff, tline, ErrTruncate)
				}
			}
			st.end = int32(len(p.lits))
			p.lemmas++
			st.index = int32(p.lemmas)
		}
		st.hs = int32(len(p.hints))
		for {
			if tok, toff, tline, ok = s.next(); !ok {
				return nil, perr(toff, tline, ErrTruncate)
			}
			v, ok := parseInt(tok, maxID)
			if !ok || (st.del && v < 0) {
				return nil, perr(toff, tline, fmt.Errorf("%w: clause id %s", ErrSyntax, quote.Bytes(tok)))
			}
			if v == 0 {
				break
			}
			p.hints = append(p.hints, v)
		}
		st.he = int32(len(p.hints))
		p.steps = append(p.steps, st)
	}
}

// parseBinaryLRAT parses binary LRAT, as CaDiCaL 2 writes it with
// --lrat: an addition is 'a', its id, its literals and 0, its hints and
// 0; a deletion is 'd', the ids deleted and 0. Every number is a
// variable-byte number (as in binary DRAT) of 2*|x| + sign: ids are
// even, literals and hints signed.
func parseBinaryLRAT(data []byte) (*lratProof, error) {
	p := &lratProof{binary: true}
	perr := func(off int, err error) error {
		return &ParseError{Format: "binary LRAT", Offset: int64(off), Err: err}
	}
	pos := 0
	// number reads the next signed number, at most max in absolute value.
	number := func(start int, max int64) (int64, error) {
		var u uint64
		numOff := pos
		for shift := 0; ; shift += 7 {
			if pos == len(data) {
				return 0, perr(start, ErrTruncate)
			}
			b := data[pos]
			pos++
			if shift > 56 {
				return 0, perr(numOff, fmt.Errorf("%w: variable-byte number too long", ErrSyntax))
			}
			u |= uint64(b&0x7f) << shift
			if b < 0x80 {
				break
			}
		}
		v := int64(u >> 1)
		if v > max {
			return 0, perr(numOff, fmt.Errorf("%w: number %d beyond %d", ErrSyntax, v, max))
		}
		if u&1 == 1 {
			v = -v
		}
		return v, nil
	}
	for pos < len(data) {
		start := pos
		c := data[pos]
		pos++
		if c != 'a' && c != 'd' {
			return nil, perr(start, errBinaryStep)
		}
		st := lratStep{off: int64(start), del: c == 'd', start: int32(len(p.lits))}
		if !st.del {
			id, err := number(start, maxID)
			if err != nil {
				return nil, err
			}
			if id <= 0 {
				return nil, perr(start+1, fmt.Errorf("%w: clause id %d", ErrSyntax, id))
			}
			st.id = id
			for {
				litOff := pos
				v, err := number(start, MaxVar)
				if err != nil {
					return nil, err
				}
				if v == 0 {
					if data[litOff] != 0 { // -0
						return nil, perr(litOff, fmt.Errorf("%w: encoded 1", ErrLiteral))
					}
					break
				}
				p.lits = append(p.lits, int32(v))
			}
			p.lemmas++
			st.index = int32(p.lemmas)
		}
		st.end = int32(len(p.lits))
		st.hs = int32(len(p.hints))
		for {
			hOff := pos
			v, err := number(start, maxID)
			if err != nil {
				return nil, err
			}
			if v == 0 && data[hOff] == 0 {
				break
			}
			if v <= 0 && (st.del || v == 0) {
				return nil, perr(hOff, fmt.Errorf("%w: clause id %d", ErrSyntax, v))
			}
			p.hints = append(p.hints, v)
		}
		st.he = int32(len(p.hints))
		p.steps = append(p.steps, st)
	}
	return p, nil
}

// CheckLRAT checks that the LRAT proof read from proof refutes f, text or
// binary (a proof that starts with 'a' or 'd': see parseBinaryLRAT).
// Formula clause j (from 0) has id j+1. Each lemma "id lits 0 hints 0"
// must have an id above all earlier ids and be verified by its hints alone:
// every positive hint must be unit (then its literal is assigned) or false
// (a conflict, which ends the check) under the lemma's negation. When the
// positive hints reach no conflict, the lemma must be RAT on its first
// literal p: each live clause containing -p (tautologies aside) needs a group "-id hints..."
// whose hints reach a conflict after also asserting the negation of that
// clause without -p (a group for a clause the lemma's negation already
// satisfies needs no hints). Deletions "id d ids 0" of unknown ids are
// ignored and counted. Errors are those of
// [CheckDRAT]; a *[LemmaError] has ID set.
func CheckLRAT(ctx context.Context, f *Formula, proof io.Reader) (*Result, error) {
	if err := f.validate(); err != nil {
		return nil, fmt.Errorf("check LRAT: %w", err)
	}
	data, err := readLimited(proof, "LRAT proof")
	if err != nil {
		return nil, err
	}
	return checkLRAT(ctx, f, data)
}

// checkLRAT checks the LRAT proof data of f, a valid formula.
func checkLRAT(ctx context.Context, f *Formula, data []byte) (*Result, error) {
	p, err := parseLRAT(data)
	if err != nil {
		return nil, err
	}
	l := &lrat{ctx: ctx, f: f, p: p, byID: make(map[int64]int32)}
	l.res.Format = "LRAT"
	if p.binary {
		l.res.Format = "binary LRAT"
	}
	l.res.Lemmas = p.lemmas
	l.res.Deletions = len(p.steps) - p.lemmas
	l.vars.build(f, p.lits)
	n := int(l.vars.n) + 1
	l.val = make([]int8, 2*n)
	l.mark = make([]bool, 2*n)
	var buf []int32
	for j, c := range f.Clauses {
		buf = buf[:0]
		for _, x := range c {
			buf = append(buf, int32(x))
		}
		l.add(int64(j)+1, buf)
	}
	return l.run()
}

type lrat struct {
	ctx    context.Context
	f      *Formula
	p      *lratProof
	vars   varMap
	res    Result
	lits   []int32
	cstart []int32
	csize  []int32
	taut   []bool          // clause index -> holds a literal and its negation
	mark   []bool          // scratch, by literal
	ids    []int64         // clause index -> id
	byID   map[int64]int32 // live clauses
	val    []int8
	trail  []int32
	lastID int64
}

func (l *lrat) add(id int64, dimacs []int32) {
	c := int32(len(l.cstart))
	l.cstart = append(l.cstart, int32(len(l.lits)))
	taut := false
	for _, x := range dimacs {
		y := l.vars.lit(x)
		taut = taut || l.mark[y^1]
		l.mark[y] = true
		l.lits = append(l.lits, y)
	}
	for _, y := range l.lits[l.cstart[c]:] {
		l.mark[y] = false
	}
	l.taut = append(l.taut, taut)
	l.csize = append(l.csize, int32(len(dimacs)))
	l.ids = append(l.ids, id)
	l.byID[id] = c
	l.lastID = id
}

func (l *lrat) clause(c int32) []int32 {
	s := l.cstart[c]
	return l.lits[s : s+l.csize[c]]
}

func (l *lrat) assign(x int32) {
	l.val[x], l.val[x^1] = 1, -1
	l.trail = append(l.trail, x)
}

func (l *lrat) backtrack(n int) {
	for _, x := range l.trail[n:] {
		l.val[x], l.val[x^1] = 0, 0
	}
	l.trail = l.trail[:n]
}

// hintErr is the reason a hint fails.
type hintErr string

// unit applies hint clause id: conflict is true when all its literals are
// false; otherwise its one unassigned literal is assigned.
func (l *lrat) unit(id int64) (conflict bool, err hintErr) {
	c, ok := l.byID[id]
	if !ok {
		return false, hintErr(fmt.Sprintf("hint %d names no live clause", id))
	}
	free := int32(-1)
	for _, x := range l.clause(c) {
		switch l.val[x] {
		case 1:
			return false, hintErr(fmt.Sprintf("hint %d is satisfied, not unit", id))
		case 0:
			if free >= 0 && free != x {
				return false, hintErr(fmt.Sprintf("hint %d is not unit", id))
			}
			free = x
		}
	}
	if free < 0 {
		return true, ""
	}
	l.assign(free)
	return false, ""
}

// hints applies hint ids in order until a conflict.
func (l *lrat) hints(hs []int64) (conflict bool, err hintErr) {
	for _, h := range hs {
		if conflict, err = l.unit(h); conflict || err != "" {
			return
		}
	}
	return false, ""
}

func (l *lrat) run() (*Result, error) {
	p := l.p
	for i := range p.steps {
		if i&255 == 0 {
			if err := l.ctx.Err(); err != nil {
				return nil, err
			}
		}
		st := &p.steps[i]
		hs := p.hints[st.hs:st.he]
		if st.del {
			for _, id := range hs {
				if _, ok := l.byID[id]; ok {
					delete(l.byID, id)
				} else {
					l.res.UnmatchedDeletions++
				}
			}
			continue
		}
		lits := p.lits[st.start:st.end]
		fail := func(reason string) error {
			return &LemmaError{Index: int(st.index), ID: st.id, Line: int(st.line), Offset: st.off,
				Lits: ints(lits), Reason: reason, Format: l.res.Format}
		}
		if st.id <= l.lastID {
			return nil, fail(fmt.Sprintf("has id %d, not above the earlier id %d", st.id, l.lastID))
		}
		if err := l.check(lits, hs); err != "" {
			return nil, fail(string(err))
		}
		l.res.Checked++
		l.add(st.id, lits)
		if len(lits) == 0 {
			res := l.res
			return &res, nil
		}
	}
	for _, c := range l.f.Clauses {
		if len(c) == 0 { // the formula holds the empty clause: refuted as it is
			l.res.FormulaConflict = true
			res := l.res
			return &res, nil
		}
	}
	return nil, fmt.Errorf("check %s: %w (%d lemmas read)", l.res.Format, ErrNoEmptyClause, p.lemmas)
}

// hasCandidate reports whether a live clause other than a tautology holds
// the literal np.
func (l *lrat) hasCandidate(np int32) bool {
	for c, id := range l.ids {
		if cc, live := l.byID[id]; !live || cc != int32(c) || l.taut[c] {
			continue
		}
		for _, y := range l.clause(int32(c)) {
			if y == np {
				return true
			}
		}
	}
	return false
}

// check verifies one lemma from its hints.
func (l *lrat) check(lits []int32, hs []int64) hintErr {
	defer l.backtrack(0)
	for _, d := range lits {
		x := l.vars.lit(d)
		switch l.val[x] {
		case 1: // the lemma holds x and -x
			return ""
		case 0:
			l.assign(x ^ 1)
		}
	}
	i := 0
	for i < len(hs) && hs[i] > 0 {
		i++
	}
	conflict, err := l.hints(hs[:i])
	if conflict || err != "" {
		return err
	}
	if len(lits) == 0 {
		if i == len(hs) {
			return "is not implied by its hints (no conflict)"
		}
		return "is empty but has RAT hints"
	}
	np := l.vars.lit(lits[0]) ^ 1
	if i == len(hs) && l.hasCandidate(np) {
		// Without RAT groups only a blocked lemma (no clause holds -p)
		// can be RAT.
		return "is not implied by its hints (no conflict)"
	}
	groups := make(map[int64][]int64)
	for i < len(hs) {
		id := -hs[i]
		j := i + 1
		for j < len(hs) && hs[j] > 0 {
			j++
		}
		if _, dup := groups[id]; dup {
			return hintErr(fmt.Sprintf("has two RAT hint groups for clause %d", id))
		}
		c, ok := l.byID[id]
		if !ok {
			return hintErr(fmt.Sprintf("RAT hint -%d names no live clause", id))
		}
		has := false
		for _, y := range l.clause(c) {
			has = has || y == np
		}
		if !has {
			return hintErr(fmt.Sprintf("RAT hint -%d names a clause without %d", id, -lits[0]))
		}
		groups[id] = hs[i+1 : j]
		i = j
	}
	base := len(l.trail)
	for c, id := range l.ids {
		if cc, live := l.byID[id]; !live || cc != int32(c) || l.taut[c] {
			continue // a tautology stays satisfied when p flips
		}
		cl := l.clause(int32(c))
		has := false
		for _, y := range cl {
			has = has || y == np
		}
		if !has {
			continue
		}
		g, ok := groups[id]
		if !ok {
			return hintErr(fmt.Sprintf("is not RUP, and RAT on %d lacks hints for clause %d", lits[0], id))
		}
		blocked := false
		for _, y := range cl {
			if y == np {
				continue
			}
			if l.val[y] == 1 {
				blocked = true
				break
			}
			if l.val[y] == 0 {
				l.assign(y ^ 1)
			}
		}
		if !blocked {
			conflict, err := l.hints(g)
			if err != "" {
				return hintErr(fmt.Sprintf("RAT on %d, clause %d: %s", lits[0], id, err))
			}
			if !conflict {
				return hintErr(fmt.Sprintf("is not RAT on %d: hints for clause %d reach no conflict", lits[0], id))
			}
		}
		l.backtrack(base)
	}
	l.res.RAT++
	return ""
}
