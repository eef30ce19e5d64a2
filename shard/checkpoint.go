package shard

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/backtrack/join"
	"github.com/queens-dev/queens/internal/quote"
)

// A Checkpoint is a file recording the finished pieces of one shard (a
// whole count is shard 0 of 1), so that an interrupted run can continue
// where it stopped. [Checkpoint.Record] rewrites the file under a
// temporary name, syncs it and renames it into place, so the file on disk
// is always complete; it does so at most once every [CheckpointEvery]
// (pieces are many and small), and [Checkpoint.Flush] writes what is left,
// so a run killed outright loses at most that much work. It is JSON Lines:
// a header naming the work, one line per finished piece, the seconds all
// runs of the shard have spent up to the write (so that a resumed shard's
// elapsed time covers every process, see [Checkpoint.Earlier]), and a last
// line with the SHA-256 of the lines above:
//
//	{"kind":"queens-checkpoint","n":16,"shard":0,"shards":1,"scheme":"round-robin","version":"devel","fingerprint":"..."}
//	{"piece":[1,3,2,5],"total24":...,"unique24":...,"nodes":...}
//	{"elapsed":12.5}
//	{"checksum":"..."}
//
// A piece of the join from n = [UnitMinN] on, counted a column set at a
// time, has a line for each unit finished until the whole piece is, which
// replaces them: {"piece":[-1,31,2],"unit":7,"total24":...}.
//
// A piece is written as in a shard line: a constellation [top, bottom,
// left, right] (with the sub-part after them in the scheme
// "round-robin-split"), a part of the join (scheme "join-parts-3") [middle,
// outer, weight].
type Checkpoint struct {
	path    string
	header  []byte
	split   int      // the shard's [Spec.Split], for the form of its pieces
	lock    *os.File // held open, locked, while the checkpoint is in use
	mu      sync.Mutex
	saved   int // pieces in the file on disk (units not counted)
	done    []Piece
	seen    map[key]bool    // the whole pieces of done
	units   map[unitOf]bool // the units of done
	n       int             // the board, for the units' range
	written time.Time       // when the file was last written
	pending bool            // pieces recorded since
	earlier time.Duration   // the time the runs before this one spent, as the file says
	opened  time.Time       // when this run opened it
}

type checkpointElapsed struct {
	Elapsed *float64 `json:"elapsed"` // seconds, all runs up to the write
}

// CheckpointEvery is how often [Checkpoint.Record] writes the file at most.
const CheckpointEvery = time.Second

type checkpointHeader struct {
	Kind        string `json:"kind"`
	N           int    `json:"n"`
	Shard       int    `json:"shard"`
	Shards      int    `json:"shards"`
	Scheme      string `json:"scheme"`
	Split       int    `json:"split,omitempty"`
	Version     string `json:"version"`
	Fingerprint string `json:"fingerprint"`
}

type checkpointPiece struct {
	Piece    []int64 `json:"piece"`
	Unit     *int    `json:"unit,omitempty"` // the rank of a unit of a join piece (see [Piece])
	Total24  uint64  `json:"total24"`
	Unique24 uint64  `json:"unique24"`
	Nodes    uint64  `json:"nodes"`
}

// OpenCheckpoint opens the checkpoint at path for shard s and locks it
// (an advisory lock on [LockPath], PATH.lock, a file left in place, so that a second
// process given the same file is refused with an error wrapping [ErrLocked] instead of
// overwriting the first one's work); call [Checkpoint.Close] when done.
// A path that is a symbolic link stands for the file it leads to, which
// need not exist yet: that file is locked and written (the link stays a
// link), so two runs given two names of one file cannot both use it. A
// lock file that is a link, not a regular file, a file of more than one
// name or one that holds anything but a process id is refused
// (ErrCheckpoint), never written.
// Temporary files of the checkpoint that a killed run left behind are
// removed when they are provably stale: of a process of this host that is
// no longer running, or older than [StaleAge]. A
// file that does not exist is an empty checkpoint (created by the first
// Record); an existing one must be a checkpoint of exactly this work (same
// n, shard, shard count, scheme, version and pieces) and intact, or the
// error wraps [ErrCheckpoint].
//
// What "intact" can mean: the checksum and the checks of each piece's
// tally (see [backtrack.Subproblem.CheckTally]) detect accidental damage
// (a cut or changed file, another run's file); someone who edits a tally
// consistently and recomputes the checksum is not detected here. Against
// that, recount: merge --verify, see [Verify].
func OpenCheckpoint(path string, s Spec) (*Checkpoint, error) {
	pieces, _, err := s.keys()
	if err != nil {
		return nil, fmt.Errorf("open checkpoint: %w", err)
	}
	h := headerOf(s, pieces)
	if path, err = resolve(path); err != nil {
		return nil, fmt.Errorf("open checkpoint: %w", err)
	}
	c := &Checkpoint{path: path, header: h, split: s.Split, seen: map[key]bool{}, units: map[unitOf]bool{}, n: s.N, opened: time.Now()}
	if _, err := os.Stat(filepath.Dir(path)); err != nil {
		// Fail now, not at the first finished piece, if it cannot be
		// written there.
		return nil, fmt.Errorf("open checkpoint: %w", err)
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("open checkpoint %s: %w: not a regular file", path, ErrCheckpoint)
	}
	if c.lock, err = lockFile(LockPath(path)); err != nil {
		return nil, fmt.Errorf("open checkpoint %s: %w", path, err)
	}
	removeStale(path, time.Now())
	if err := c.read(pieces, s); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Close releases the lock of the checkpoint (the file stays: it is the
// work done). It does not write pending pieces: call Flush first.
func (c *Checkpoint) Close() error {
	if c.lock == nil {
		return nil
	}
	// The lock file stays: removing it while another process waits on
	// the open file would let a third lock a new file of the same name.
	err := c.lock.Close() // closing releases the lock
	c.lock = nil
	return err
}

// Remove deletes the checkpoint and its lock file, and releases the lock:
// for a shard whose line is written, the checkpoint is spent, and a count
// of millions of shards would leave millions of files. Call it holding
// the lock (before Close), once the line is safely written.
func (c *Checkpoint) Remove() error {
	if c.lock == nil {
		return fmt.Errorf("remove checkpoint %s: not open", c.path)
	}
	err := os.Remove(c.path)
	if errors.Is(err, fs.ErrNotExist) {
		err = nil // no piece was ever saved
	}
	// The lock file goes before the lock: a process that opened it
	// meanwhile fails to take it, and one that comes later makes a new one
	// (and finds no checkpoint: the shard is done).
	lerr := os.Remove(c.lock.Name())
	return errors.Join(err, lerr, c.Close())
}

// read loads the pieces recorded in the file, if it exists.
func (c *Checkpoint) read(pieces []key, s Spec) error {
	path, h := c.path, c.header
	ofShard := make(map[key]bool, len(pieces))
	for _, p := range pieces {
		ofShard[p] = true
	}
	data, err := readBounded(path, int64(len(pieces)+2)*4096+maxUnitLines*256)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open checkpoint: %w", err)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("open checkpoint %s: %w: %w: %s", path, ErrCheckpoint, ErrDamaged, fmt.Sprintf(format, args...))
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines) < 3 || len(lines[len(lines)-1]) != 0 {
		return bad("not a complete checkpoint file")
	}
	lines = lines[:len(lines)-1]
	body := data[:len(data)-len(lines[len(lines)-1])]
	var sum struct {
		Checksum string `json:"checksum"`
	}
	if json.Unmarshal(lines[len(lines)-1], &sum) != nil || sum.Checksum != checksum(body) {
		return bad("checksum does not match (the file was changed)")
	}
	var got checkpointHeader
	if json.Unmarshal(lines[0], &got) != nil || got.Kind != "queens-checkpoint" {
		return fmt.Errorf("open checkpoint %s: %w: not a checkpoint file", path, ErrCheckpoint)
	}
	if !bytes.Equal(bytes.TrimSpace(lines[0]), h) {
		return fmt.Errorf("open checkpoint %s: %w: %s", path, ErrCheckpoint, fmt.Sprintf("it is for n=%d shard %d/%d version %s (fingerprint %s), not for this run: n=%d shard %d/%d version %s (fingerprint %s)",
			got.N, got.Shard, got.Shards, got.Version, got.Fingerprint, s.N, s.Index, s.Shards, s.Version, fingerprint(s, pieces)))
	}
	pieceLines := lines[1 : len(lines)-1]
	if k := len(pieceLines) - 1; k >= 0 && bytes.HasPrefix(pieceLines[k], []byte(`{"elapsed":`)) {
		// The last line before the checksum: the time the runs so far spent.
		var e checkpointElapsed
		if err := json.Unmarshal(pieceLines[k], &e); err != nil || e.Elapsed == nil {
			return bad("line %d: not the time spent: %s", k+2, quote.Bytes(pieceLines[k]))
		}
		if !(*e.Elapsed >= 0 && *e.Elapsed <= maxElapsed) { // as a line's (NaN cannot be JSON)
			return bad("line %d: %g seconds spent is out of range (0 to %g)", k+2, *e.Elapsed, float64(maxElapsed))
		}
		c.earlier, pieceLines = time.Duration(*e.Elapsed*float64(time.Second)), pieceLines[:k]
	}
	for i, line := range pieceLines {
		var p checkpointPiece
		if err := json.Unmarshal(line, &p); err != nil {
			return bad("line %d: %v", i+2, err)
		}
		sp, err := splitKeyOf(s.scheme(), s.Split, p.Piece)
		if err != nil {
			return bad("line %d: %v", i+2, err)
		}
		pc := Piece{sp: sp, t: backtrack.Tally{Total24: p.Total24, Unique24: p.Unique24, Nodes: p.Nodes}}
		if p.Unit != nil {
			if *p.Unit < 0 || *p.Unit >= maxUnitLines<<8 {
				return bad("line %d: unit %d of piece %v is out of range", i+2, *p.Unit, sp)
			}
			pc.unit = *p.Unit + 1
		}
		if err := c.add(pc, ofShard); err != nil {
			return bad("line %d: %v", i+2, err)
		}
		if err := sp.checkTally(s.N, pc.t); err != nil {
			return bad("line %d: %v", i+2, err)
		}
	}
	c.saved = len(c.seen)
	return nil
}

// maxUnitLines bounds the units of join pieces a checkpoint holds (those
// of the pieces in progress when it was written: a few thousand).
const maxUnitLines = 1 << 16

// unitOf names one unit of a piece.
type unitOf struct {
	sp   key
	unit int
}

// add adds a piece or unit read from the file, refusing one that is not
// the shard's (ofShard), not a unit of its piece, or there already.
func (c *Checkpoint) add(p Piece, ofShard map[key]bool) error {
	if !ofShard[p.sp] || c.has(p.sp) {
		return fmt.Errorf("piece %v is not one of the shard's or appears twice", p.sp)
	}
	if p.unit == 0 {
		for u := range c.units {
			if u.sp == p.sp {
				return fmt.Errorf("piece %v appears whole after units of it", p.sp)
			}
		}
		c.done = append(c.done, p)
		c.seen[p.sp] = true
		return nil
	}
	units := 0
	if p.sp.join && p.sp.jp.Middle != join.Symmetric && c.n >= UnitMinN {
		units, _ = p.sp.jp.Units(c.n)
	}
	if p.unit > units || c.units[unitOf{p.sp, p.unit}] {
		return fmt.Errorf("%v is not a unit of the piece (it has %d) or appears twice", p, units)
	}
	if len(c.units) >= maxUnitLines {
		return fmt.Errorf("more than %d units of pieces", maxUnitLines)
	}
	c.done = append(c.done, p)
	c.units[unitOf{p.sp, p.unit}] = true
	return nil
}

// headerOf returns the header line (without its newline) of a
// checkpoint of shard s, whose pieces are pieces.
func headerOf(s Spec, pieces []key) []byte {
	h, _ := json.Marshal(checkpointHeader{"queens-checkpoint", s.N, s.Index, s.Shards, s.scheme(), s.Split, s.Version, fingerprint(s, pieces)})
	return h
}

func (c *Checkpoint) has(sp key) bool { return c.seen[sp] }

// Saved returns the number of pieces in the file on disk: after a failed
// write (a full disk), fewer than [Checkpoint.Done] holds.
func (c *Checkpoint) Saved() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.saved
}

// Earlier returns the time the runs before this one spent on the shard,
// as the checkpoint file recorded it (0 for a new file): a resumed
// shard's elapsed time is this plus its own.
func (c *Checkpoint) Earlier() time.Duration { return c.earlier }

// Done returns the pieces recorded so far, and the units of the pieces
// of the join in progress ([Piece.Unit]; [Options.Done] takes both).
func (c *Checkpoint) Done() []Piece {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Piece(nil), c.done...)
}

// Record adds a finished piece and, unless the file was written less than
// [CheckpointEvery] ago, writes the checkpoint file atomically. It is safe
// to call from several goroutines; Options.OnPiece of [Run] may be set to
// it. Call [Checkpoint.Flush] when the run ends, however it ends.
func (c *Checkpoint) Record(p Piece) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.has(p.sp) || c.units[unitOf{p.sp, p.unit}] {
		return nil // recorded already: a piece is in the file once
	}
	if p.unit > 0 {
		c.units[unitOf{p.sp, p.unit}] = true
		c.done = append(c.done, p)
	} else {
		// The whole piece replaces its units.
		c.done = slices.DeleteFunc(c.done, func(q Piece) bool {
			if q.sp == p.sp {
				delete(c.units, unitOf{q.sp, q.unit})
				return true
			}
			return false
		})
		c.done = append(c.done, p)
		c.seen[p.sp] = true
	}
	c.pending = true
	if time.Since(c.written) < CheckpointEvery {
		return nil
	}
	if err := c.write(); err != nil {
		return fmt.Errorf("record checkpoint: %w (%s holds %d of the %d pieces finished)", err, c.path, c.saved, len(c.seen))
	}
	return nil
}

// Flush writes the pieces recorded since the file was last written, if
// any.
func (c *Checkpoint) Flush() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.pending {
		return nil
	}
	if err := c.write(); err != nil {
		return fmt.Errorf("write checkpoint: %w (%s holds %d of the %d pieces finished)", err, c.path, c.saved, len(c.seen))
	}
	return nil
}

// write writes the file under a temporary name in its directory, syncs it
// and renames it into place.
func (c *Checkpoint) write() error {
	var b bytes.Buffer
	b.Write(c.header)
	b.WriteByte('\n')
	for _, p := range c.done {
		cp := checkpointPiece{Piece: formOf(c.split, p.sp), Total24: p.t.Total24, Unique24: p.t.Unique24, Nodes: p.t.Nodes}
		if p.unit > 0 {
			u := p.unit - 1
			cp.Unit = &u
		}
		line, _ := json.Marshal(cp)
		b.Write(line)
		b.WriteByte('\n')
	}
	spent := (c.earlier + time.Since(c.opened)).Seconds()
	line, _ := json.Marshal(checkpointElapsed{Elapsed: &spent})
	b.Write(line)
	b.WriteByte('\n')
	fmt.Fprintf(&b, "{\"checksum\":%q}\n", checksum(b.Bytes()))
	f, err := os.CreateTemp(filepath.Dir(c.path), tempPrefix(c.path)+tempOwner()+"-*")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.Write(b.Bytes())
	err = w.Flush()
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), c.path)
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	c.written, c.pending, c.saved = time.Now(), false, len(c.seen)
	return nil
}

// readBounded reads the file at path, refusing one larger than max bytes:
// a checkpoint has a header, a line per piece and a checksum, so its size
// is bounded by the shard's pieces.
func readBounded(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		err = fmt.Errorf("%w: larger than a checkpoint of this shard can be (%d bytes)", ErrCheckpoint, max)
	}
	return data, err
}

// resolve returns the file that path names: path itself unless it is a
// symbolic link, whose target it returns; the target need not exist (a
// link placed first names the file to create, as for -o).
func resolve(path string) (string, error) {
	for range 40 { // the kernel's bound (ELOOP)
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return path, nil // not there yet, or not a link: used as it is
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", fmt.Errorf("%w: %s: %v", ErrCheckpoint, path, err)
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", fmt.Errorf("%w: %s: too many levels of symbolic links", ErrCheckpoint, path)
}

// nameMax is the longest file name (a path's last element) that common
// file systems take, in bytes (NAME_MAX).
const nameMax = 255

// LockPath returns the lock file of the checkpoint at path: PATH.lock, or
// for a name too long to take ".lock", the name cut and a hash of it in
// its stead, so that any name the file system takes has a lock.
func LockPath(path string) string {
	dir, base := filepath.Split(path)
	if len(base)+len(".lock") <= nameMax {
		return path + ".lock"
	}
	sum := sha256.Sum256([]byte(base))
	return dir + cutName(base, nameMax-len(".lock")-17) + "-" + hex.EncodeToString(sum[:8]) + ".lock"
}

// cutName returns name cut to at most max bytes, at the start of a UTF-8
// character.
func cutName(name string, max int) string {
	if len(name) <= max {
		return name
	}
	for max > 0 && !utf8.RuneStart(name[max]) {
		max--
	}
	return name[:max]
}

// StaleAge is the age after which a temporary checkpoint file of another
// host (or of a process whose liveness cannot be told) is taken for
// stale: a checkpoint is written in well under a second.
const StaleAge = time.Hour

// tempPrefix is the start of the names of path's temporary files:
// ".NAME.tmp-", followed by tempOwner and a random part. NAME is cut so
// that the whole name fits in nameMax bytes whatever the owner (a host
// of up to 64 bytes, a pid of up to 10 digits) and CreateTemp's random
// part (up to 10 digits), the same cut for every process.
func tempPrefix(path string) string {
	return "." + cutName(filepath.Base(path), nameMax-len("..tmp-")-(64+1+10)-(1+10)) + ".tmp-"
}

// tempOwner names the writer of a temporary file: "HOST-PID", the host
// name cut to letters, digits, dots and hyphens.
func tempOwner() string {
	return hostTag() + "-" + strconv.Itoa(os.Getpid())
}

// tempOwnerOf reads the host and pid from rest, the part of a temporary
// file's name after tempPrefix: HOST-PID-RANDOM as tempOwner and
// os.CreateTemp write them (the host may hold hyphens); ok is false for
// any other form.
func tempOwnerOf(rest string) (host string, pid int, ok bool) {
	i := strings.LastIndexByte(rest, '-')
	if i < 0 || !isDigits(rest[i+1:]) {
		return "", 0, false
	}
	rest = rest[:i]
	j := strings.LastIndexByte(rest, '-')
	if j < 0 || !isDigits(rest[j+1:]) || rest[j+1] == '0' || len(rest)-j > 11 {
		return "", 0, false
	}
	host = rest[:j]
	if host == "" || len(host) > 64 || strings.Trim(host, hostBytes) != "" {
		return "", 0, false
	}
	pid, _ = strconv.Atoi(rest[j+1:])
	return host, pid, true
}

// isDigits reports whether s is one or more decimal digits.
func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// hostBytes are the bytes of a host name that hostTag keeps.
const hostBytes = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_"

func hostTag() string {
	host, _ := os.Hostname()
	b := []byte(host)[:min(len(host), 64)]
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-') {
			b[i] = '_'
		}
	}
	return cmp.Or(string(b), "unknown")
}

// removeStale removes the temporary files of the checkpoint at path that
// are provably stale at now: regular files named exactly as write names
// them (tempPrefix, tempOwner, CreateTemp's random digits) of a process
// of this host that no longer runs, or older than StaleAge. Files named
// otherwise are never removed. It
// is called with the checkpoint locked; errors are ignored (what stays is
// only litter).
func removeStale(path string, now time.Time) {
	dir, prefix := filepath.Dir(path), tempPrefix(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	host := hostTag()
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		owner, pid, ok := tempOwnerOf(rest)
		if !ok {
			continue // not a name queens writes, however old
		}
		stale := now.Sub(info.ModTime()) > StaleAge ||
			owner == host && pid != os.Getpid() && !alive(pid)
		if stale {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
