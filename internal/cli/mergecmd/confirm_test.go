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

// forgeMove moves the solutions of one piece of the line from onto a
// piece of the line to (both lines of one count, re-signed): every tally
// stays one its piece can have and the total stays right, so that only a
// recount can tell.
func forgeMove(t *testing.T, from, to string) (string, string) {
	t.Helper()
	a, err := shard.Parse([]byte(from))
	if err != nil {
		t.Fatal(err)
	}
	b, err := shard.Parse([]byte(to))
	if err != nil {
		t.Fatal(err)
	}
	for i, ta := range a.Tallies {
		for j := range b.Tallies {
			wa, wb := a.JoinPieces[i].Weight, b.JoinPieces[j].Weight
			x := 24 * wa * wb // a multiple of 24 × either weight
			if a.JoinPieces[i].Middle < 0 && a.JoinPieces[i].Middle != -1 || b.JoinPieces[j].Middle == -2 || ta.Total24 < x {
				continue
			}
			b.Tallies[j].Total24 += x
			b.Tallies[j].Unique24 += x / 8
			a.Tallies[i].Total24 -= x
			a.Tallies[i].Unique24 -= x / 8
			a.Sums, _ = shard.SumTallies(a.Tallies)
			b.Sums, _ = shard.SumTallies(b.Tallies)
			return string(a.AppendLine(nil)), string(b.AppendLine(nil))
		}
	}
	t.Fatal("no two pieces of one tally to forge")
	return "", ""
}

// TestMergeConfirmRecounts is issue 41's forged confirmation: join lines
// whose tallies were moved between pieces (the total right, every tally
// possible, checksums recomputed) make a record that checks against its
// lines and agrees with the constellations' count; --confirm and
// --check-record catch it by recounting pieces with the plain search,
// the seed printed, and pass the honest lines.
func TestMergeConfirmRecounts(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines []string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644)
		return p
	}
	cons := write("cons.jsonl", clitest.ShardLines(t, 10, 2))
	joinLines := clitest.ShardLines(t, 10, 2, "--engine", "join")
	honest := write("join.jsonl", joinLines)
	joinLines[0], joinLines[1] = forgeMove(t, joinLines[0], joinLines[1])
	forged := write("forged.jsonl", joinLines)
	var recs []string
	for _, in := range []string{cons, honest, forged} {
		rec := in + ".rec"
		if _, stderr, code := clitest.Run(t, "", "merge", "--record", rec, in); code != 0 {
			t.Fatalf("merge --record %s: exit %d, %q", in, code, stderr)
		}
		recs = append(recs, rec)
	}
	if stdout, stderr, code := clitest.Run(t, "", "merge", "--confirm", "--recount", "1000", "--seed", "3", recs[0], recs[1], cons, honest); code != 0 ||
		!strings.Contains(stdout, "with the plain search, which shares no counting code with any engine: all agree") {
		t.Errorf("merge --confirm of honest lines: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, stderr, code := clitest.Run(t, "", "merge", "--confirm", "--recount", "0", recs[0], recs[2], cons, forged); code != 0 {
		t.Fatalf("merge --confirm --recount 0 of forged lines: exit %d, %q; want 0 (nothing recounts them: the hole this closes)", code, stderr)
	}
	for _, args := range [][]string{
		{"--confirm", "--recount", "1000", "--seed", "3", recs[0], recs[2], cons, forged},
		{"--check-record", recs[2], "--recount", "1000", "--seed", "3", forged},
	} {
		_, stderr, code := clitest.Run(t, "", append([]string{"merge"}, args...)...)
		if code != 1 || !strings.Contains(stderr, "the recount with the plain search (--recount 1000 --seed 3)") || !strings.Contains(stderr, "does not agree") && !strings.Contains(stderr, "the lines say") {
			t.Errorf("merge %v of forged lines: exit %d, stderr %q; want 1 and the plain search's recount, its seed", args, code, stderr)
		}
	}
	if _, stderr, code := clitest.Run(t, "", "merge", "--check-record", recs[0], "--recount", "-1", cons); code != 2 {
		t.Errorf("merge --recount -1: exit %d, %q; want 2", code, stderr)
	}
}
