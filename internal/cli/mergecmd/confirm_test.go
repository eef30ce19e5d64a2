package mergecmd_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/shard"
)

// TestMergeConfirm checks merge --confirm: two records of one count, by
// the constellations and by the join, each checked against its lines,
// confirm each other (exit 0); the same engine twice, engines of one
// split, different n, a tampered record, a record whose lines are not
// given, and one record given twice by another path or link do not.
func TestMergeConfirm(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines []string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	record := func(name string, args ...string) string {
		p := filepath.Join(dir, name)
		if _, stderr, code := clitest.Run(t, "", append([]string{"merge", "--record", p}, args...)...); code != 0 {
			t.Fatalf("merge --record %s: exit %d, stderr %q", name, code, stderr)
		}
		return p
	}
	cons := write("cons.jsonl", clitest.ShardLines(t, 8, 2))
	join := write("join.jsonl", clitest.ShardLines(t, 8, 3, "--engine", "join"))
	join9 := write("join9.jsonl", clitest.ShardLines(t, 9, 2, "--engine", "join"))
	var gpuLines []string
	for _, l := range clitest.ShardLines(t, 8, 2) {
		r, err := shard.Parse([]byte(l))
		if err != nil {
			t.Fatal(err)
		}
		r.Engine = shard.EngineGPU
		gpuLines = append(gpuLines, string(r.AppendLine(nil)))
	}
	gpu := write("gpu.jsonl", gpuLines)
	a := record("a.json", "--verify", "3", "--seed", "5", cons)
	a2 := record("a2.json", cons) // the same engine again, another record
	b := record("b.json", "--verify", "2", "--seed", "6", join)
	b9 := record("b9.json", join9)
	g := record("g.json", gpu)
	link := filepath.Join(dir, "a-link.json")
	if err := os.Symlink("a.json", link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	data, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	tampered := filepath.Join(dir, "tampered.json")
	os.WriteFile(tampered, []byte(strings.Replace(string(data), `"total":"92"`, `"total":"93"`, 1)), 0o644)

	stdout, stderr, code := clitest.Run(t, "", "merge", "--confirm", a, b, cons, join)
	if code != 0 || !strings.Contains(stdout, "n = 8: 92 solutions (12 unique), confirmed by two independent engines: constellations") ||
		!strings.Contains(stdout, "join (") {
		t.Errorf("merge --confirm of the constellations and the join: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	stdout, _, code = clitest.Run(t, "", "merge", "--format", "json", "--confirm", b, a, join, cons)
	var v struct {
		N      int
		Total  string
		Checks []string
	}
	if err := json.Unmarshal([]byte(stdout), &v); code != 0 || err != nil || v.N != 8 || v.Total != "92" || len(v.Checks) != 1 || v.Checks[0] != shard.CheckEngine {
		t.Errorf("merge --format json --confirm: exit %d, stdout %q (%v)", code, stdout, err)
	}
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"same engine", []string{a, a2, cons}, 1, "a repeat of the same code"},
		{"one split", []string{a, g, cons, gpu}, 1, "not independent engines"},
		{"different n", []string{a, b9, cons, join9}, 1, "not one count"},
		{"tampered", []string{a, tampered, cons, join}, 1, "checksum does not match"},
		{"lines missing", []string{a, b, cons}, 1, "missing shard"},
		{"other lines", []string{a, b, cons, join9}, 1, "the record has n 8, the lines give 9"},
		{"record twice by a link", []string{a, link, cons}, 2, "the same record"},
		{"record twice by name", []string{a, a, cons}, 2, "the same record"},
		{"no lines", []string{a, b}, 2, "want two records and the lines"},
	} {
		stdout, stderr, code := clitest.Run(t, "", append([]string{"merge", "--confirm"}, c.args...)...)
		if code != c.code || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: merge --confirm: exit %d, stdout %q, stderr %q; want %d and %q", c.name, code, stdout, stderr, c.code, c.want)
		}
	}
}

// TestMergeGPUCopyIsRepeat is issue 41's forgery: every line copied with
// "engine":"gpu" (checksum recomputed) is a repeat of the constellations'
// search, never a confirmation, and the record says "repeat", not
// "independent-engine".
func TestMergeGPUCopyIsRepeat(t *testing.T) {
	dir := t.TempDir()
	lines := clitest.ShardLines(t, 8, 4)
	var copies []string
	for _, l := range lines {
		r, err := shard.Parse([]byte(l))
		if err != nil {
			t.Fatal(err)
		}
		r.Engine = shard.EngineGPU
		copies = append(copies, string(r.AppendLine(nil)))
	}
	rec := filepath.Join(dir, "merged.json")
	stdout, stderr, code := clitest.Run(t, strings.Join(append(lines, copies...), ""), "merge", "--record", rec, "-")
	if code != 0 || strings.Contains(stdout, "confirmed") || !strings.Contains(stdout, "4 of 4 shards repeated by the same engine") {
		t.Errorf("merge of lines and their GPU copies: exit %d, stdout %q, stderr %q; want 4 repeated, none confirmed", code, stdout, stderr)
	}
	data, _ := os.ReadFile(rec)
	if !strings.Contains(string(data), `"confirmed":0,"repeated":4,"checks":["published-table","repeat"]`) {
		t.Errorf("record of lines and their GPU copies: %s; want 0 confirmed, 4 repeated, checks published-table and repeat", data)
	}
}
