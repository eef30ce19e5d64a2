package drat

import (
	"bufio"
	"io"
	"strconv"
)

// The LRAT writer of ConvertDRAT.

// writeLRAT writes the LRAT proof of the verified core (see ConvertDRAT).
func (k *checker) writeLRAT(w io.Writer) error {
	bw := bufio.NewWriter(w)
	ids := make([]int64, len(k.cstart))
	for c := 0; c < k.nForm; c++ {
		ids[c] = int64(c) + 1
	}
	next := int64(k.nForm) + 1
	var line []byte
	writeHints := func(hs []int32) {
		for _, h := range hs {
			if h < 0 {
				line = strconv.AppendInt(line, -ids[-h-1], 10)
			} else {
				line = strconv.AppendInt(line, ids[h], 10)
			}
			line = append(line, ' ')
		}
		line = append(line, '0', '\n')
	}
	if !k.formulaOnly {
		for s := 0; s <= k.stop; s++ {
			st := &k.p.steps[s]
			c := st.clause
			if c < 0 {
				continue
			}
			line = line[:0]
			if st.del {
				if int(c) >= k.nForm && k.flags[c]&fCore == 0 {
					continue
				}
				line = strconv.AppendInt(line, next-1, 10)
				line = append(line, " d "...)
				line = strconv.AppendInt(line, ids[c], 10)
				line = append(line, " 0\n"...)
			} else {
				if k.flags[c]&fCore == 0 {
					continue
				}
				ids[c] = next
				next++
				line = strconv.AppendInt(line, ids[c], 10)
				line = append(line, ' ')
				// The lemma's literals in proof order (pivot first), without repeats.
				lits := k.p.lits[st.start:st.end]
				for _, l := range lits {
					if x := k.vars.lit(l); !k.mark[x] {
						k.mark[x] = true
						line = strconv.AppendInt(line, int64(l), 10)
						line = append(line, ' ')
					}
				}
				for _, l := range lits {
					k.mark[k.vars.lit(l)] = false
				}
				line = append(line, '0', ' ')
				writeHints(k.hints[k.hstart[c] : k.hstart[c]+k.hlen[c]])
			}
			if _, err := bw.Write(line); err != nil {
				return err
			}
		}
	}
	line = strconv.AppendInt(line[:0], next, 10)
	line = append(line, " 0 "...)
	writeHints(k.final)
	if _, err := bw.Write(line); err != nil {
		return err
	}
	return bw.Flush()
}
