package mergecmd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/shard"
)

// partialShare is what --verify asks of each line with --partial: k
// pieces (k < 0: all of them), or, when p > 0, the share p (0 to 1) of
// its pieces, at least one.
type partialShare struct {
	k int
	p float64
}

// parsePartialVerify reads --verify for --partial: all, K (1 or more) or
// P% (of each line's pieces).
func parsePartialVerify(verify string) (partialShare, error) {
	switch {
	case verify == "":
		return partialShare{}, cmdutil.Usagef("merge: --partial recounts the pieces of the lines given: say how many with --verify K, P%% or all")
	case verify == "all":
		return partialShare{k: -1}, nil
	}
	if p, ok, err := parsePercent("verify", verify); err != nil {
		return partialShare{}, err
	} else if ok {
		return partialShare{p: p / 100}, nil
	}
	k, err := strconv.Atoi(verify)
	if err != nil || k < 1 || k > maxRecount {
		return partialShare{}, cmdutil.Usagef("merge: --partial --verify %q: want a number of pieces of each line, 1 to %d, a percentage of them such as 10%%, or all", verify, maxRecount)
	}
	return partialShare{k: k}, nil
}

// of returns the pieces to recount of a line of pieces pieces (-1: all).
func (s partialShare) of(pieces int) int {
	if s.p > 0 {
		return max(1, int(math.Ceil(s.p*float64(pieces))))
	}
	return s.k
}

// partialLine is the verdict of --partial on one line.
type partialLine struct {
	N         int    `json:"n"`
	Shard     int    `json:"shard"`
	Shards    int    `json:"shards"`
	Engine    string `json:"engine"`
	Source    string `json:"source"`
	Pieces    int    `json:"pieces"`
	Recounted int    `json:"recounted"`
	Verified  bool   `json:"verified"`
	Error     string `json:"error,omitempty"`
}

// partialAction runs merge --verify P --partial LINES...: each line given
// is checked on its own (a shard of this version's split, its checksum
// right) and some or all of its pieces recounted with the engine it
// names, so that the lines of a sampled count (no other shard of it
// exists) are checked beyond their integrity. It prints each line's
// verdict and fails (exit status 1) when a recount disagrees.
func (m *mergeRun) partialAction(ctx context.Context) error {
	share, err := parsePartialVerify(m.verify)
	if err != nil {
		return err
	}
	rc := recounted{}
	if err := rc.drawSeed(m.seed, m.seedSet); err != nil {
		return err
	}
	in, err := newInputs(m.stdin, m.args, "")
	if err != nil {
		return err
	}
	lines, bad := 0, 0
	err = in.each(ctx, 1, func(r shard.Result) error {
		lines++
		v := partialLine{N: r.N, Shard: r.Shard, Shards: r.Shards, Engine: cmpEngine(r.Engine), Source: r.Source, Pieces: len(r.Tallies)}
		k := share.of(v.Pieces)
		if k < 0 || k > v.Pieces {
			k = v.Pieces
		}
		checked, err := shard.VerifyLine(ctx, r, k, rc.seed, m.threads)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, shard.ErrVerify):
			bad++
			v.Recounted, v.Error = k, err.Error()
		case err != nil:
			return cmdutil.Failf("merge --partial: %s: %v", r.Source, err)
		default:
			v.Recounted, v.Verified = len(checked), true
		}
		if m.format == "json" {
			return cmdutil.WriteJSONLine(m.stdout, v)
		}
		verdict := "verified"
		if !v.Verified {
			verdict = "NOT verified: " + v.Error
		}
		_, err = fmt.Fprintf(m.stdout, "%s: shard %d of %d of n = %d (%s): recounted %d of its %d pieces: %s\n",
			v.Source, v.Shard, v.Shards, v.N, v.Engine, v.Recounted, v.Pieces, verdict)
		return err
	})
	if err != nil {
		return err
	}
	if m.format == "text" {
		if _, err := fmt.Fprintf(m.stdout, "%d of %d lines verified (--seed %d)\n", lines-bad, lines, rc.seed); err != nil {
			return err
		}
	}
	if bad > 0 {
		return cmdutil.Failf("merge --partial: %d of %d lines NOT verified: a recount disagrees with the line (--seed %d)", bad, lines, rc.seed)
	}
	return nil
}

// cmpEngine names a line's engine, the constellations when it names none.
func cmpEngine(e string) string {
	if e == "" {
		return shard.EngineConstellations
	}
	return e
}
