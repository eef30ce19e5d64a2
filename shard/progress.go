package shard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"
)

// ShardProgress is how far one shard of a running count is.
type ShardProgress struct {
	Shard    int
	Done     int       // pieces finished
	Pieces   int       // pieces of the shard
	Finished bool      // its result line is written
	Modified time.Time // when its checkpoint or line last changed
	Path     string    // the file read
}

// Progress is how far a count split into shards is, read from the files
// of its shards ([ReadProgress]).
type Progress struct {
	N, Shards, Parts int
	Done             int     // pieces finished, over all shards
	Work             float64 // the share of the work finished, 0 to 1 (see ReadProgress)
	Start            time.Time
	Seen             []ShardProgress // the shards with a file, by index
}

// Missing returns the shards with neither a line nor a checkpoint yet.
func (p Progress) Missing() []int {
	var idx []int
	i := 0
	for s := range p.Shards {
		if i < len(p.Seen) && p.Seen[i].Shard == s {
			i++
			continue
		}
		idx = append(idx, s)
	}
	return idx
}

// ETA estimates when the count ends, at now, from the work done since
// Start; zero when nothing is done yet.
func (p Progress) ETA(now time.Time) time.Duration {
	if p.Work <= 0 || p.Start.IsZero() {
		return 0
	}
	if p.Work >= 1 {
		return 0
	}
	spent := now.Sub(p.Start)
	return time.Duration(float64(spent) * (1 - p.Work) / p.Work)
}

// ReadProgress reads the files of the shards of one count (result lines,
// *.jsonl, and checkpoints, *.ckpt; other files are skipped) and says how
// far it is. A shard's line wins over its checkpoint.
//
// The share of the work is weighted by the cost of the pieces: a piece
// finished costs the nodes its search placed; one not finished is
// expected to cost the mean of the finished pieces nearest to it in the
// split's list (the list runs from the largest pieces to the smallest,
// and every shard takes them in that order, so this errs on the high
// side and the ETA on the late side). With nothing finished, every piece
// counts the same. Start is the earliest start a line states or a
// checkpoint's lock file was taken at.
func ReadProgress(paths []string) (Progress, error) {
	var p Progress
	byShard := map[int]ShardProgress{}
	cost := map[key]float64{} // finished pieces' nodes
	scheme := ""
	split := 0 // the split's sub-parts per constellation
	note := func(sp ShardProgress, n, shards, m int) error {
		if p.Shards == 0 {
			p.N, p.Shards, split = n, shards, m
		}
		if n != p.N || shards != p.Shards || m != split {
			return fmt.Errorf("progress: %w: %s is of n=%d, %d shards, split %d; others of n=%d, %d shards, split %d", ErrMismatch, sp.Path, n, shards, m, p.N, p.Shards, split)
		}
		if prev, ok := byShard[sp.Shard]; !ok || sp.Finished && !prev.Finished || sp.Finished == prev.Finished && sp.Done > prev.Done {
			byShard[sp.Shard] = sp
		}
		return nil
	}
	for _, path := range paths {
		st, err := os.Stat(path)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		switch {
		case strings.HasSuffix(path, ".jsonl"):
			data, err := readBounded(path, 16<<20)
			if err != nil {
				return p, fmt.Errorf("progress: %w", err)
			}
			for _, text := range bytes.Split(data, []byte("\n")) {
				if len(bytes.TrimSpace(text)) == 0 {
					continue
				}
				r, err := Parse(text)
				if err != nil {
					return p, fmt.Errorf("progress: %s: %w", path, err)
				}
				for i, sp := range r.keys() {
					cost[sp] = float64(r.Tallies[i].Nodes)
				}
				scheme = r.Scheme
				if err := note(ShardProgress{Shard: r.Shard, Done: len(r.Tallies), Pieces: len(r.Tallies), Finished: true, Modified: st.ModTime(), Path: path}, r.N, r.Shards, r.Split); err != nil {
					return p, err
				}
				if !r.Start.IsZero() && (p.Start.IsZero() || r.Start.Before(p.Start)) {
					p.Start = r.Start
				}
			}
		case strings.HasSuffix(path, ".ckpt"):
			h, done, err := readCheckpointFile(path)
			if err != nil {
				return p, fmt.Errorf("progress: %w", err)
			}
			s := Spec{N: h.N, Index: h.Shard, Shards: h.Shards, Version: h.Version, Scheme: h.Scheme, Split: h.Split}
			pieces, _, err := s.keys()
			if err != nil {
				return p, fmt.Errorf("progress: %s: %w", path, err)
			}
			scheme = h.Scheme
			whole := 0
			for _, d := range done {
				if !d.Unit() { // the units of a piece in progress are not counted
					cost[d.sp] = float64(d.t.Nodes)
					whole++
				}
			}
			if err := note(ShardProgress{Shard: h.Shard, Done: whole, Pieces: len(pieces), Modified: st.ModTime(), Path: path}, h.N, h.Shards, h.Split); err != nil {
				return p, err
			}
			if lock, err := os.Stat(LockPath(path)); err == nil && (p.Start.IsZero() || lock.ModTime().Before(p.Start)) {
				p.Start = lock.ModTime()
			}
		}
	}
	if p.Shards == 0 {
		return p, fmt.Errorf("progress: %w: no shard results (.jsonl) or checkpoints (.ckpt)", ErrMissing)
	}
	for _, sp := range byShard {
		p.Seen = append(p.Seen, sp)
		p.Done += sp.Done
	}
	slices.SortFunc(p.Seen, func(a, b ShardProgress) int { return a.Shard - b.Shard })
	all, err := allKeys(family(schemeOf(scheme)), p.N)
	if err != nil {
		return p, fmt.Errorf("progress: %w", err)
	}
	p.Parts = len(all)
	var share map[key]float64
	if split > 0 {
		p.Parts = (len(all)-1)*split + 1
		cost, share = wholes(cost, split)
	}
	p.Work = workDone(all, cost, share)
	return p, nil
}

// wholes returns the costs of the sub-parts finished (of m per
// constellation) summed by constellation, and the share of each
// constellation's sub-parts that they are.
func wholes(cost map[key]float64, m int) (sum, share map[key]float64) {
	sum, share = map[key]float64{}, map[key]float64{}
	for k, c := range cost {
		w := key{sp: k.sp.Whole()}
		sum[w] += c + 1
		if k.sp.Parts > 0 {
			share[w] += 1 / float64(m)
		} else {
			share[w] = 1
		}
	}
	for w := range sum {
		sum[w]-- // workDone adds one per piece
	}
	return sum, share
}

// workDone returns the share of the work of the pieces all that the
// finished ones (with their costs) are, estimating the others' costs as
// ReadProgress says. With share not nil, a piece of cost is only that
// share of its piece of all finished (the sub-parts finished of a
// constellation), its whole cost estimated in proportion.
func workDone(all []key, cost, share map[key]float64) float64 {
	if len(cost) == 0 {
		return 0
	}
	whole := func(k key, c float64) float64 {
		if f, ok := share[k]; ok && f > 0 {
			return (c + 1) / f
		}
		return c + 1
	}
	// The mean cost of the finished pieces in each block of the list.
	const blocks = 64
	size := (len(all) + blocks - 1) / blocks
	sum, num := make([]float64, blocks), make([]int, blocks)
	for i, sp := range all {
		if c, ok := cost[sp]; ok {
			sum[i/size] += whole(sp, c)
			num[i/size]++
		}
	}
	done, total := 0.0, 0.0
	for i, sp := range all {
		if c, ok := cost[sp]; ok {
			done += c + 1
			total += whole(sp, c)
			continue
		}
		// The nearest block with finished pieces, the earlier one first.
		b := i / size
		for d := 0; d < blocks; d++ {
			if b-d >= 0 && num[b-d] > 0 {
				b -= d
				break
			}
			if b+d < blocks && num[b+d] > 0 {
				b += d
				break
			}
		}
		total += sum[b] / float64(num[b])
	}
	return done / total
}

// readCheckpointFile reads a checkpoint without locking it (another
// process may be writing it: it is replaced by renames, so a read sees a
// whole file), checking its checksum and its pieces.
func readCheckpointFile(path string) (checkpointHeader, []Piece, error) {
	var h checkpointHeader
	head, err := readBounded(path, 1<<10)
	if err != nil && !errors.Is(err, ErrCheckpoint) {
		return h, nil, err
	}
	line, _, _ := bytes.Cut(head, []byte("\n"))
	if json.Unmarshal(line, &h) != nil || h.Kind != "queens-checkpoint" {
		return h, nil, fmt.Errorf("%s: %w: not a checkpoint file", path, ErrCheckpoint)
	}
	s := Spec{N: h.N, Index: h.Shard, Shards: h.Shards, Version: h.Version, Scheme: h.Scheme, Split: h.Split}
	if err := s.check(); err != nil {
		return h, nil, fmt.Errorf("%s: %w: %v", path, ErrCheckpoint, err)
	}
	pieces, _, _ := s.keys()
	c := &Checkpoint{path: path, header: headerOf(s, pieces), split: s.Split, seen: map[key]bool{}, units: map[unitOf]bool{}, n: s.N}
	if err := c.read(pieces, s); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return h, nil, nil
		}
		return h, nil, err
	}
	return h, c.done, nil
}
