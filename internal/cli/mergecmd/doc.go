// Package mergecmd is queens merge: it reads the shard lines of
// backtrack --count --shard (files, directories of *.jsonl, stdin; any of
// them compressed), checks that they cover the whole count exactly once
// and sums them (merge.go, the lines parsed in parallel by parse.go),
// recounts pieces drawn at random (--verify), writes and checks the
// record of a merge (--record, --check-record), confirms two records of
// one count by independent engines (confirm.go), reports how far a
// running count got (--progress, progress.go), and writes the commands
// that resubmit the missing shards of a Slurm job array (resubmit.go).
package mergecmd
