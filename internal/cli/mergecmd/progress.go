package mergecmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/shard"
)

// progressAction runs merge --progress: how far the count whose parts
// directories (or files) are given is.
func (m *mergeRun) progressAction() error {
	var paths []string
	for _, arg := range m.args {
		st, err := os.Stat(arg)
		if err != nil {
			return cmdutil.Usagef("merge --progress: %v", cmdutil.UnwrapPath(err))
		}
		if !st.IsDir() {
			paths = append(paths, arg)
			continue
		}
		for _, pattern := range []string{"*.jsonl", "*.ckpt"} {
			found, _ := filepath.Glob(filepath.Join(arg, pattern))
			paths = append(paths, found...)
		}
	}
	p, err := shard.ReadProgress(paths)
	if err != nil {
		return cmdutil.Failf("merge --progress: %v", err)
	}
	now := time.Now()
	finished, running := 0, 0
	var staleShards []shard.ShardProgress
	for _, s := range p.Seen {
		switch {
		case s.Finished:
			finished++
		case m.stale > 0 && now.Sub(s.Modified) > m.stale:
			staleShards = append(staleShards, s)
		default:
			running++
		}
	}
	eta := p.ETA(now)
	if m.format == "json" {
		var stales []int
		for _, s := range staleShards {
			stales = append(stales, s.Shard)
		}
		return cmdutil.WriteJSONLine(m.stdout, struct {
			N        int     `json:"n"`
			Shards   int     `json:"shards"`
			Parts    int     `json:"parts"`
			Done     int     `json:"done"`
			Work     float64 `json:"work"`
			ETA      float64 `json:"eta"` // seconds, 0 when not known
			Finished int     `json:"finished"`
			Running  int     `json:"running"`
			Stale    []int   `json:"stale"`
			Missing  []int   `json:"missing"`
		}{p.N, p.Shards, p.Parts, p.Done, p.Work, eta.Round(time.Second).Seconds(), finished, running, nonNil(stales), nonNil(p.Missing())})
	}
	return writeProgress(m.stdout, p, now, eta, finished, running, staleShards)
}

// writeProgress writes merge --progress as text: the pieces done, the
// work, the ETA, the shards finished, running, stale and not started.
func writeProgress(w io.Writer, p shard.Progress, now time.Time, eta time.Duration, finished, running int, staleShards []shard.ShardProgress) error {
	left := "no ETA yet (no piece finished)"
	if eta > 0 {
		left = fmt.Sprintf("ETA %v (%s)", eta.Round(time.Second), now.Add(eta).UTC().Format(time.RFC3339))
	} else if p.Work >= 1 {
		left = "all work done"
	}
	fmt.Fprintf(w, "n=%d: %d of %d pieces done (%.1f%%), %.1f%% of the work; %s\n",
		p.N, p.Done, p.Parts, 100*float64(p.Done)/float64(max(p.Parts, 1)), 100*p.Work, left)
	fmt.Fprintf(w, "shards: %d of %d finished, %d running, %d stale, %d not started\n",
		finished, p.Shards, running, len(staleShards), len(p.Missing()))
	for _, s := range staleShards {
		fmt.Fprintf(w, "stale: shard %d (%s: %d of %d pieces, unchanged for %v)\n",
			s.Shard, s.Path, s.Done, s.Pieces, now.Sub(s.Modified).Round(time.Second))
	}
	var err error
	if m := p.Missing(); len(m) > 0 {
		_, err = fmt.Fprintf(w, "not started: shards %s (0-based)\n", shard.Ranges(m, 0))
	}
	return err
}

// nonNil returns s, or an empty slice for nil (JSON [] rather than null).
func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}
