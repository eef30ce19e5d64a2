package mergecmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/internal/quote"
	"github.com/queens-dev/queens/shard"
)

// The resubmission of missing shards. deploy/slurm/count.sbatch names each
// shard's files by the shard (task id less QUEENS_SHARD_BASE) and writes,
// once per parts directory, the file submissionFile: what it was submitted
// with, one KEY=VALUE a line (the keys of submissionKeys). merge reads it
// from the directories of the lines it was given, trusts none of it
// unchecked, and prints the sbatch commands that count exactly the missing
// shards again: each an array whose task ids fit under the cluster's
// MaxArraySize (QUEENS_MAX_ARRAY_SIZE, else the value count.sbatch read
// from scontrol show config, else scontrol show config here, else
// Slurm's default), with QUEENS_SHARD_BASE set so that task id less base is
// the shard, in the directory and with the binary, CPUs, time limit,
// partition and account of the original submission.

// submissionFile is the name of the file count.sbatch writes in its parts
// directory.
const submissionFile = "submission"

const (
	// maxSubmissionSize caps what merge reads of a submission file: the
	// file count.sbatch writes is a few hundred bytes.
	maxSubmissionSize = 8 << 10
	// slurmMaxArraySize is the largest MaxArraySize Slurm accepts, and
	// slurmDefaultArraySize its default: task ids run from 0 to
	// MaxArraySize - 1.
	slurmMaxArraySize     = 4_000_001
	slurmDefaultArraySize = 1001
	// maxResubmitCommands caps the sbatch commands printed: more arrays
	// than this would overrun a cluster's MaxJobCount (10000 by default)
	// anyway; merge again after they ran prints the rest.
	maxResubmitCommands = 8
	// defaultCountScript is the script printed when no submission names it.
	defaultCountScript = "deploy/slurm/count.sbatch"
)

// submission is what count.sbatch recorded of its array, every field
// range-checked; zero values are unknown.
type submission struct {
	path                     string // where it was read
	queens, script, parts    string // absolute paths
	n, shards, base          int
	split, engine            string
	firstTask, lastTask      int
	hasTasks                 bool
	cpus                     int
	time, partition, account string
	maxArraySize             int
}

var (
	slurmName   = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}(,[A-Za-z0-9_.-]{1,64}){0,15}$`)
	slurmTimeRe = regexp.MustCompile(`^(?:(\d{1,3})-)?(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?$`)
)

// checkSlurmTime checks a time limit as squeue prints it: [D-]HH:MM:SS,
// MM:SS, or D-HH (D at most 365).
func checkSlurmTime(s string) error {
	m := slurmTimeRe.FindStringSubmatch(s)
	if m == nil {
		return fmt.Errorf("want [D-]HH:MM:SS")
	}
	for i, most := range []int{1: 365, 2: 99, 3: 59, 4: 59} {
		if i == 0 || m[i] == "" {
			continue
		}
		if v, _ := strconv.Atoi(m[i]); v > most {
			return fmt.Errorf("%s is more than %d", m[i], most)
		}
	}
	if m[1] != "" {
		if h, _ := strconv.Atoi(m[2]); h > 23 {
			return fmt.Errorf("%d hours after the days", h)
		}
	}
	return nil
}

// checkPath checks a recorded path: absolute, printable, not too long.
func checkPath(s string) error {
	if !filepath.IsAbs(s) || len(s) > 4096 || strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return fmt.Errorf("want an absolute path")
	}
	return nil
}

// readSubmission reads and checks the submission file at path. It opens
// nothing but a regular file (never a link, FIFO or device) and reads at
// most maxSubmissionSize bytes of it.
func readSubmission(path string) (*submission, error) {
	f, err := cmdutil.OpenNoFollow(path)
	if err != nil {
		return nil, cmdutil.UnwrapPath(err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSubmissionSize+1))
	if err != nil {
		return nil, cmdutil.UnwrapPath(err)
	}
	if len(data) > maxSubmissionSize {
		return nil, fmt.Errorf("more than %d bytes", maxSubmissionSize)
	}
	s := &submission{path: path}
	seen := map[string]bool{}
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, v, ok := strings.Cut(line, "=")
		if !ok || seen[key] {
			return nil, fmt.Errorf("line %d: %s: want KEY=VALUE, each key once", i+1, quote.Token(line))
		}
		seen[key] = true
		if err := s.set(key, v); err != nil {
			return nil, fmt.Errorf("line %d: %s=%s: %v", i+1, key, quote.Token(v), err)
		}
	}
	if s.n == 0 || s.shards == 0 || !seen["base"] {
		return nil, errors.New("no n, shards or base")
	}
	if s.hasTasks && (s.firstTask > s.lastTask || s.lastTask-s.base >= s.shards || s.firstTask-s.base < 0) {
		return nil, fmt.Errorf("tasks %d-%d with base %d are not shards of %d", s.firstTask, s.lastTask, s.base, s.shards)
	}
	return s, nil
}

// set checks and sets one field of a submission; an empty value is
// unknown.
func (s *submission) set(key, v string) error {
	if v == "" {
		return nil
	}
	num := func(p *int, lo, hi int) error {
		x, err := strconv.Atoi(v)
		if err != nil || x < lo || x > hi {
			return fmt.Errorf("want a whole number from %d to %d", lo, hi)
		}
		*p = x
		return nil
	}
	switch key {
	case "queens", "script", "parts":
		if err := checkPath(v); err != nil {
			return err
		}
		*map[string]*string{"queens": &s.queens, "script": &s.script, "parts": &s.parts}[key] = v
	case "n":
		return num(&s.n, 1, 64)
	case "shards":
		return num(&s.shards, 1, shard.MaxShards)
	case "base":
		return num(&s.base, -shard.MaxShards, shard.MaxShards)
	case "first_task", "last_task":
		s.hasTasks = true
		return num(map[string]*int{"first_task": &s.firstTask, "last_task": &s.lastTask}[key], 0, slurmMaxArraySize-1)
	case "cpus":
		return num(&s.cpus, 1, 1<<16)
	case "max_array_size":
		return num(&s.maxArraySize, 1, slurmMaxArraySize)
	case "split":
		if m, err := strconv.Atoi(v); v != "auto" && (err != nil || m != 0 && (m < 2 || m > 1<<16)) {
			return errors.New("want auto, 0 or 2 to 65536")
		}
		s.split = v
	case "engine":
		if names := cmdutil.CountEngines(); v != "auto" && !slices.Contains(names, v) {
			return fmt.Errorf("want auto, %s or %s", strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
		}
		s.engine = v
	case "time":
		if slices.Contains([]string{"UNLIMITED", "INFINITE", "NOT_SET", "INVALID"}, v) {
			return nil // no limit to pass on
		}
		if err := checkSlurmTime(v); err != nil {
			return err
		}
		s.time = v
	case "partition", "account":
		if !slurmName.MatchString(v) {
			return errors.New("want a Slurm name")
		}
		*map[string]*string{"partition": &s.partition, "account": &s.account}[key] = v
	default:
		return errors.New("unknown key")
	}
	return nil
}

// covers reports whether the array of s counted shard i.
func (s *submission) covers(i int) bool {
	return s.hasTasks && i >= s.firstTask-s.base && i <= s.lastTask-s.base
}

var maxArraySizeRe = regexp.MustCompile(`(?m)^MaxArraySize\s*=\s*(\S*)\s*$`)

// parseMaxArraySize reads MaxArraySize from the output of scontrol show
// config: one line, 1 to 4000001.
func parseMaxArraySize(out []byte) (int, error) {
	m := maxArraySizeRe.FindAllSubmatch(out, 2)
	if len(m) != 1 {
		return 0, errors.New("no one MaxArraySize line")
	}
	return checkMaxArraySize(string(m[0][1]))
}

// checkMaxArraySize range-checks a MaxArraySize (0 disables job arrays,
// which count.sbatch needs).
func checkMaxArraySize(v string) (int, error) {
	x, err := strconv.Atoi(v)
	if err != nil || x < 1 || x > slurmMaxArraySize {
		return 0, fmt.Errorf("MaxArraySize %s: want 1 to %d", quote.Token(v), slurmMaxArraySize)
	}
	return x, nil
}

// scontrolMaxArraySize runs scontrol show config (when it is on PATH) for
// the cluster's MaxArraySize, within 10 s and 1 MiB of output.
func scontrolMaxArraySize() (int, error) {
	path, err := exec.LookPath("scontrol")
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "show", "config")
	var out limitedBuffer
	out.left = 1 << 20
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("scontrol show config: %v", err)
	}
	n, err := parseMaxArraySize(out.buf)
	if err != nil {
		return 0, fmt.Errorf("scontrol show config: %v", err)
	}
	return n, nil
}

// limitedBuffer keeps the first left bytes written to it and drops the
// rest. (It has no ReadFrom, through which io.Copy would pass it all.)
type limitedBuffer struct {
	buf  []byte
	left int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	k := min(len(p), b.left)
	b.buf = append(b.buf, p[:k]...)
	b.left -= k
	return len(p), nil
}

// resubmission returns, for a merge that misses shards, what its error
// line adds: "; resubmit them: " and the command that counts them again
// (see resubmitCommands), when it is one and the line stays within
// maxMessage; else the commands go to w, one a line (a script), and the
// line says so. w is nil where stdout is not text (--format json). dirs
// are the directories the lines were read from ("" for stdin).
func resubmission(w io.Writer, err error, dirs []string) string {
	var miss *shard.MissingError
	if !errors.As(err, &miss) || len(miss.Missing) == 0 {
		return ""
	}
	engine := shard.EngineConstellations // merge saw every line agree on the scheme
	if miss.Scheme == shard.JoinScheme {
		engine = shard.EngineJoin
	}
	cmds, remark := resubmitCommands(miss, miss.Split, engine, dirs, os.Getenv("QUEENS_MAX_ARRAY_SIZE"), scontrolMaxArraySize)
	inline := "; resubmit them: " + cmds[0] + remark
	if len(cmds) == 1 && len(err.Error())+len(inline) <= cmdutil.MaxMessage {
		return inline
	}
	if w == nil {
		return fmt.Sprintf("; %d sbatch command(s) resubmit them: run merge without --format json to print them%s", len(cmds), remark)
	}
	for _, c := range cmds {
		fmt.Fprintln(w, c)
	}
	return fmt.Sprintf("; resubmit them with the %d sbatch command(s) printed on stdout%s", len(cmds), remark)
}

// resubmitCommands returns the sbatch commands that count
// the missing shards of miss again with count.sbatch, K given (so that each
// task counts its shard of the whole split), for lines of split and engine
// read from dirs ("" for stdin). The submission files of dirs give each
// missing shard its array's directory and settings; a shard no submission
// covers is counted in the one directory of the lines, if they share one,
// with the settings of the first submission of this count. Each command's
// task ids run from 0 to at most MaxArraySize - 1: override (the
// environment's QUEENS_MAX_ARRAY_SIZE) if given, else the one a
// submission recorded, else live() (scontrol), else Slurm's default, said
// where it matters (several arrays, or a base), in remark; and so is what
// is ignored (a damaged submission, a bad override).
func resubmitCommands(miss *shard.MissingError, split int, engine string, dirs []string, override string, live func() (int, error)) (cmds []string, remark string) {
	subs, notes := readSubmissions(miss, dirs)
	size, from, note := maxArraySize(subs, override, live)
	if note != "" {
		notes = append(notes, note)
	}
	// The default for shards no submission covers: the first submission's
	// settings, the lines' one directory.
	def := &submission{}
	if len(subs) > 0 {
		c := *subs[0]
		def = &c
		def.parts = ""
	}
	if len(dirs) == 1 && dirs[0] != "." && dirs[0] != "" {
		def.parts = dirs[0]
	}
	wins, more := arrayWindows(miss, subs, def, size)
	for _, w := range wins {
		cmds = append(cmds, sbatchCommand(w.sub, w.spans, size, miss, split, engine))
	}
	if len(wins) > 1 || more || strings.Contains(strings.Join(cmds, " "), "QUEENS_SHARD_BASE=") {
		remark = fmt.Sprintf(" (%d array(s), task ids below MaxArraySize %d from %s", len(wins), size, from)
		if more {
			remark = fmt.Sprintf(" (more than %d arrays, task ids below MaxArraySize %d from %s; the first %d shown: merge again once they have run for the rest",
				maxResubmitCommands, size, from, maxResubmitCommands)
		}
		remark += ")"
	}
	if len(notes) > 0 {
		remark += " (" + strings.Join(notes, "; ") + ")"
	}
	return cmds, remark
}

// readSubmissions reads the submission files of dirs that are of miss's
// count; notes say which were ignored, and why.
func readSubmissions(miss *shard.MissingError, dirs []string) (subs []*submission, notes []string) {
	for _, d := range dirs {
		if d == "" {
			continue
		}
		p := filepath.Join(d, submissionFile)
		s, err := readSubmission(p)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			notes = append(notes, fmt.Sprintf("%s ignored: %v", p, err))
		case s.n != miss.N || s.shards != miss.Shards:
			notes = append(notes, fmt.Sprintf("%s ignored: it is for n = %d in %d shards", p, s.n, s.shards))
		default:
			subs = append(subs, s)
		}
	}
	return subs, notes
}

// maxArraySize returns the cluster's MaxArraySize and where it is from:
// override (QUEENS_MAX_ARRAY_SIZE) if given and good, else the one a
// submission recorded, else live() (scontrol), else Slurm's default; note
// says that a bad override was ignored.
func maxArraySize(subs []*submission, override string, live func() (int, error)) (size int, from, note string) {
	size, from = slurmDefaultArraySize, "Slurm's default"
	if override != "" {
		v, err := checkMaxArraySize(override)
		if err == nil {
			return v, "QUEENS_MAX_ARRAY_SIZE", ""
		}
		note = "QUEENS_MAX_ARRAY_SIZE ignored: " + err.Error()
	}
	if i := slices.IndexFunc(subs, func(s *submission) bool { return s.maxArraySize > 0 }); i >= 0 {
		size, from = subs[i].maxArraySize, subs[i].path
	} else if v, err := live(); err == nil {
		size, from = v, "scontrol show config"
	} else if !errors.Is(err, exec.ErrNotFound) {
		from += " (" + err.Error() + ")"
	}
	return size, from, note
}

// arrayWindow is a run of missing shards of one submission within the
// task ids of one job array, as spans.
type arrayWindow struct {
	sub   *submission
	spans []shard.Span
}

// arrayWindows groups the missing shards of miss into job arrays of at
// most size task ids, each of one submission (def for the shards none
// covers); built only as far as the commands shown need
// (maxResubmitCommands), so that millions of missing shards cost no more
// than the first windows. more says that there are more.
func arrayWindows(miss *shard.MissingError, subs []*submission, def *submission, size int) (wins []arrayWindow, more bool) {
	for _, sp := range miss.Missing {
		for i := sp.First; i <= sp.Last; i++ {
			sub := def
			if k := slices.IndexFunc(subs, func(s *submission) bool { return s.covers(i) }); k >= 0 {
				sub = subs[k]
			}
			if w := len(wins) - 1; w >= 0 && wins[w].sub == sub && i-wins[w].spans[0].First < size {
				last := &wins[w].spans[len(wins[w].spans)-1]
				if last.Last == i-1 {
					last.Last = i
				} else {
					wins[w].spans = append(wins[w].spans, shard.Span{First: i, Last: i})
				}
				continue
			}
			if len(wins) == maxResubmitCommands {
				return wins, true
			}
			wins = append(wins, arrayWindow{sub, []shard.Span{{First: i, Last: i}}})
		}
	}
	return wins, false
}

// sbatchCommand returns the command that counts shards (sorted, less than
// size apart) with sub's settings: the original base when every task id
// it gives fits under size, else the first shard as task 0.
func sbatchCommand(sub *submission, shards []shard.Span, size int, miss *shard.MissingError, split int, engine string) string {
	base := sub.base
	if shards[0].First+base < 0 || shards[len(shards)-1].Last+base >= size {
		base = -shards[0].First
	}
	var b strings.Builder
	if sub.queens != "" {
		b.WriteString("QUEENS=" + shellQuote(sub.queens) + " ")
	}
	fmt.Fprintf(&b, "QUEENS_N=%d QUEENS_SHARDS=%d", miss.N, miss.Shards)
	switch {
	case split > 0:
		fmt.Fprintf(&b, " QUEENS_SPLIT=%d", split)
	case sub.split != "" && sub.split != "0":
		b.WriteString(" QUEENS_SPLIT=" + sub.split)
	}
	if engine == shard.EngineJoin || sub.engine == shard.EngineJoin {
		b.WriteString(" QUEENS_ENGINE=join")
	}
	if base != 0 {
		fmt.Fprintf(&b, " QUEENS_SHARD_BASE=%d", base)
	}
	if sub.parts != "" {
		b.WriteString(" QUEENS_PARTS=" + shellQuote(sub.parts))
	}
	fmt.Fprintf(&b, " sbatch --array=%s", shard.SpanRanges(shards, base))
	if sub.cpus > 0 {
		fmt.Fprintf(&b, " --cpus-per-task=%d", sub.cpus)
	}
	if sub.time != "" {
		b.WriteString(" --time=" + sub.time)
	}
	if sub.partition != "" {
		b.WriteString(" --partition=" + sub.partition)
	}
	if sub.account != "" {
		b.WriteString(" --account=" + sub.account)
	}
	b.WriteString(" " + shellQuote(cmp.Or(sub.script, defaultCountScript)))
	return b.String()
}

// shellQuote quotes s for a POSIX shell where it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+,=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
