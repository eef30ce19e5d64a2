package drat

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"

	"github.com/queens-dev/queens/internal/memlimit"
	"github.com/queens-dev/queens/internal/quote"
)

// step is one line of a DRAT proof: a lemma (addition) or a deletion.
type step struct {
	start, end int32 // the step's literals: proof.lits[start:end]
	del        bool
	index      int32 // lemma number from 1 (additions only)
	line       int32 // text line from 1, 0 for binary
	off        int64 // byte offset of the step
	clause     int32 // checker: the clause added or deleted; -1 = skipped deletion
}

// proof is a parsed DRAT proof: the steps the check needs. Literals are
// signed DIMACS numbers as read.
type proof struct {
	binary bool
	lits   []int32
	steps  []step
	// lemmas and deletions count the steps read, kept or not; skipped
	// counts the lemmas not kept (tautologies, and lemmas already in the
	// database), unmatched the deletions of clauses not in it.
	lemmas, deletions  int
	skipped, unmatched int
}

// ErrMemory is wrapped by the error of a check whose proof would need
// more memory than the process may use (the least of the machine's
// memory, its control group's limit and its address-space limit: see
// the package comment). The check stops when what it keeps passes half
// of that, before it takes the memory.
var ErrMemory = errors.New("the proof needs more memory than the process may use")

// Memory the check keeps: for each step kept, the step, its clause's
// entry in the checker (start, size, flags, hash table, watches, trail
// mark) and its slot in the parser's table; for each literal kept, the
// proof's copy and the checker's.
const (
	keptPerStep = 128
	keptPerLit  = 8
)

// memoryBudget returns the bytes a check may keep: half of what the
// process may use when the package first checks a proof (the limits
// are read once), the rest left to the garbage collector's headroom. A
// variable so that tests can shrink it.
var memoryBudget = sync.OnceValue(func() int64 { return memlimit.Usable() / 2 })

// isBinary decides whether a proof is binary. Every binary step starts with
// 'a' or 'd', so a proof starting with any other byte is text (even a text
// proof whose first comment holds non-ASCII bytes), and one starting with
// 'a' is binary (no text line starts with it). For a proof starting with
// 'd' it applies drat-trim's rule: the proof is binary when one of its
// first 10 bytes cannot occur in a text proof.
func isBinary(data []byte) bool {
	if len(data) == 0 || data[0] != 'a' && data[0] != 'd' {
		return false
	}
	if data[0] == 'a' {
		return true
	}
	for i := 0; i < len(data) && i < 10; i++ {
		c := data[i]
		if c != 'd' && c != '\n' && c != '\r' && c != ' ' && c != '\t' && c != '-' &&
			(c < '0' || c > '9') && (c < 'A' || c > 'z') {
			return true
		}
	}
	return false
}

// parseDRAT reads a text or binary DRAT proof of f from r, as it comes:
// memory follows what is kept, never the proof's size. A lemma that is a
// tautology, or whose literal set is already in the database (f's
// clauses and the lemmas so far, less those deleted), is counted and not
// kept, a deletion of a clause the database holds more than once only
// lowers its count, and one of a clause it does not hold is dropped:
// the steps kept give the checker the database the whole proof would.
func parseDRAT(f *Formula, r io.Reader) (*proof, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(10)
	q := newParser(f, isBinary(head))
	if q.p.binary {
		return q.parseBinary(br)
	}
	return q.parseText(br)
}

// parser is the state of parseDRAT: the proof so far and the database
// of its clauses' literal sets.
type parser struct {
	f      *Formula
	p      *proof
	budget int64
	format string
	// slots is an open-addressing table of the database's clauses: 0
	// empty, -1 deleted, r+1 for clause r (f's clause r below len(f.Clauses),
	// else the kept step r-len(f.Clauses)).
	slots []int32
	used  int // slots that are not empty
	// extra counts, by clause, the copies beyond the one kept.
	extra   map[int32]int32
	key     []int32 // the step's literals sorted, without repeats
	other   []int32
	scratch []int32
}

func newParser(f *Formula, binary bool) *parser {
	q := &parser{f: f, p: &proof{binary: binary}, budget: memoryBudget(), extra: map[int32]int32{}, format: "DRAT"}
	if binary {
		q.format = "binary DRAT"
	}
	q.slots = make([]int32, 1<<max(4, bitsFor(2*len(f.Clauses))))
	for j, c := range f.Clauses {
		q.scratch = q.scratch[:0]
		for _, l := range c {
			q.scratch = append(q.scratch, int32(l))
		}
		if h, ok := q.sortKey(q.scratch); ok {
			q.insert(h, int32(j))
		}
	}
	return q
}

// bitsFor returns the bits a table of n slots needs.
func bitsFor(n int) int {
	b := 0
	for 1<<b < n {
		b++
	}
	return b
}

// sortKey sets q.key to lits sorted without repeats and returns its hash;
// ok is false for a tautology.
func (q *parser) sortKey(lits []int32) (h uint64, ok bool) {
	q.key = setOf(q.key, lits)
	for i := 1; i < len(q.key); i++ {
		if q.key[i] == -q.key[i-1] {
			return 0, false
		}
	}
	return hashLits(q.key), true
}

// setOf returns lits sorted by variable, then sign, without repeats, in
// buf.
func setOf(buf, lits []int32) []int32 {
	buf = append(buf[:0], lits...)
	slices.SortFunc(buf, func(a, b int32) int {
		if d := abs32(a) - abs32(b); d != 0 {
			return int(d)
		}
		return int(a - b)
	})
	return slices.Compact(buf)
}

// lits returns the literals of the database's clause r.
func (q *parser) lits(r int32) []int32 {
	if int(r) < len(q.f.Clauses) {
		q.scratch = q.scratch[:0]
		for _, l := range q.f.Clauses[r] {
			q.scratch = append(q.scratch, int32(l))
		}
		return q.scratch
	}
	st := q.p.steps[int(r)-len(q.f.Clauses)]
	return q.p.lits[st.start:st.end]
}

// find returns the slot of the clause whose literal set is q.key, or -1.
func (q *parser) find(h uint64) int {
	mask := uint64(len(q.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s := q.slots[i]; {
		case s == 0:
			return -1
		case s > 0:
			q.other = setOf(q.other, q.lits(s-1))
			if slices.Equal(q.other, q.key) {
				return int(i)
			}
		}
	}
}

// insert adds clause r, of hash h, to the table.
func (q *parser) insert(h uint64, r int32) {
	if 2*(q.used+1) > len(q.slots) {
		q.grow()
	}
	mask := uint64(len(q.slots) - 1)
	i := h & mask
	for q.slots[i] > 0 {
		i = (i + 1) & mask
	}
	if q.slots[i] == 0 {
		q.used++
	}
	q.slots[i] = r + 1
}

// grow rebuilds the table, twice as large when it is half live.
func (q *parser) grow() {
	live := 0
	for _, s := range q.slots {
		if s > 0 {
			live++
		}
	}
	old := q.slots
	q.slots = make([]int32, 1<<max(4, bitsFor(4*(live+1))))
	q.used = 0
	mask := uint64(len(q.slots) - 1)
	for _, s := range old {
		if s <= 0 {
			continue
		}
		q.other = setOf(q.other, q.lits(s-1))
		i := hashLits(q.other) & mask
		for q.slots[i] != 0 {
			i = (i + 1) & mask
		}
		q.slots[i] = s
		q.used++
	}
}

// end ends the step st, whose literals are q.p.lits[st.start:]: it is
// kept, or counted and dropped (see parseDRAT).
func (q *parser) end(st step) error {
	p := q.p
	lits := p.lits[st.start:]
	if st.del {
		p.deletions++
	} else {
		p.lemmas++
		st.index = int32(p.lemmas)
	}
	keep := true
	switch h, ok := q.sortKey(lits); {
	case len(lits) == 0 && !st.del: // the empty clause: always kept
	case len(lits) == 0 || !ok: // a tautology, or the deletion of none
		keep = false
		if st.del {
			p.unmatched++
		} else {
			p.skipped++
		}
	default:
		i := q.find(h)
		switch {
		case i < 0 && st.del:
			keep = false
			p.unmatched++
		case i >= 0 && !st.del:
			keep = false
			q.extra[q.slots[i]-1]++
			p.skipped++
		case i >= 0 && q.extra[q.slots[i]-1] > 0:
			keep = false
			if r := q.slots[i] - 1; q.extra[r] == 1 {
				delete(q.extra, r)
			} else {
				q.extra[r]--
			}
		case i >= 0:
			q.slots[i] = -1
		default:
			q.insert(h, int32(len(q.f.Clauses)+len(p.steps)))
		}
	}
	if !keep {
		p.lits = p.lits[:st.start]
		return nil
	}
	st.end = int32(len(p.lits))
	p.steps = append(p.steps, st)
	return q.check(st.off)
}

// check fails the parse once what it keeps passes the budget, or the
// checker's 32-bit indices.
func (q *parser) check(off int64) error {
	p := q.p
	kept := int64(len(p.steps))*keptPerStep + int64(len(p.lits))*keptPerLit + int64(len(q.slots))*4
	if kept > q.budget || len(p.lits) >= math.MaxInt32-1 || len(p.steps)+len(q.f.Clauses) >= math.MaxInt32-1 {
		return fmt.Errorf("check %s: %w: %d MiB kept by byte %d, and the process may use %d MiB (the least of the machine's memory, its cgroup limit and ulimit -v)",
			q.format, ErrMemory, kept>>20, off, 2*q.budget>>20)
	}
	return nil
}

// maxToken is the longest token of a text proof: a literal has at most
// 11 bytes (-1073741823); a longer word is refused when it passes this.
const maxToken = 24

func (q *parser) parseText(br *bufio.Reader) (*proof, error) {
	p := q.p
	perr := func(off int64, line int, err error) error {
		return &ParseError{Format: "DRAT", Line: line, Offset: off, Err: err}
	}
	var (
		off       int64 // of the next byte
		line      = 1
		lineStart = true
		open      bool
		st        step
		tok       = make([]byte, 0, maxToken+1)
	)
	for {
		c, err := br.ReadByte()
		if err != nil {
			if err != io.EOF {
				return nil, fmt.Errorf("read DRAT proof: %w", err)
			}
			if open { // report where the unfinished step starts
				return nil, perr(st.off, int(st.line), ErrTruncate)
			}
			return p, nil
		}
		off++
		switch {
		case c == '\n':
			line++
			lineStart = true
			continue
		case isSpace(c):
			continue
		case c == 'c' && lineStart:
			for c != '\n' {
				if c, err = br.ReadByte(); err != nil {
					break
				}
				off++
			}
			if err == nil {
				line++
			} else if err != io.EOF {
				return nil, fmt.Errorf("read DRAT proof: %w", err)
			}
			continue
		}
		// A token: read to the next space, refused once too long.
		lineStart = false
		tokOff := off - 1
		tok = append(tok[:0], c)
		for {
			b, err := br.ReadByte()
			if err != nil {
				if err != io.EOF {
					return nil, fmt.Errorf("read DRAT proof: %w", err)
				}
				break
			}
			if isSpace(b) {
				br.UnreadByte()
				break
			}
			off++
			if len(tok) == maxToken {
				return nil, perr(tokOff, line, fmt.Errorf("%w %s (a word of more than %d bytes)", ErrLiteral, quote.Bytes(append(tok, b)), maxToken))
			}
			tok = append(tok, b)
		}
		t := tok
		if !open {
			st = step{start: int32(len(p.lits)), line: int32(line), off: tokOff}
			if t[0] == 'd' {
				st.del = true
				t = t[1:]
			}
			open = true
			if len(t) == 0 { // "d" then literals
				continue
			}
		}
		v, ok := parseInt(t, MaxVar)
		if !ok {
			return nil, perr(tokOff, line, fmt.Errorf("%w %s", ErrLiteral, quote.Bytes(t)))
		}
		if v == 0 {
			open = false
			if err := q.end(st); err != nil {
				return nil, err
			}
			continue
		}
		p.lits = append(p.lits, int32(v))
	}
}

var errBinaryStep = errors.New("binary step does not start with 'a' or 'd'")

func (q *parser) parseBinary(br *bufio.Reader) (*proof, error) {
	p := q.p
	perr := func(off int64, err error) error {
		return &ParseError{Format: "binary DRAT", Offset: off, Err: err}
	}
	var off int64 // of the next byte
	for {
		c, err := br.ReadByte()
		if err == io.EOF {
			return p, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read binary DRAT proof: %w", err)
		}
		if c != 'a' && c != 'd' {
			return nil, perr(off, errBinaryStep)
		}
		st := step{start: int32(len(p.lits)), del: c == 'd', off: off}
		off++
		if err := q.binaryLits(br, &off, st.off, true, perr); err != nil {
			return nil, err
		}
		if err := q.end(st); err != nil {
			return nil, err
		}
	}
}

// binaryLits reads the literals of a binary step up to its 0 (at byte
// *off, the step at stepOff), appending them to the proof's if keep.
func (q *parser) binaryLits(br *bufio.Reader, off *int64, stepOff int64, keep bool, perr func(int64, error) error) error {
	for {
		litOff := *off
		u, n, err := readVarint(br, 42)
		*off += int64(n)
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF: // report where the unfinished step starts
			return perr(stepOff, ErrTruncate)
		case err == errVarint:
			return perr(litOff, fmt.Errorf("%w: variable-byte number too long", ErrLiteral))
		case err != nil:
			return fmt.Errorf("read %s proof: %w", q.format, err)
		}
		if u == 0 {
			return nil
		}
		v := u >> 1
		if v == 0 || v > MaxVar {
			return perr(litOff, fmt.Errorf("%w: encoded %d", ErrLiteral, u))
		}
		if keep {
			l := int32(v)
			if u&1 == 1 {
				l = -l
			}
			q.p.lits = append(q.p.lits, l)
		}
	}
}
