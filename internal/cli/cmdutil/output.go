package cmdutil

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/queens-dev/queens/sat"
)

// Output is where a command writes its results: stdout, or a file that
// appears under its name only when Commit succeeds.
type Output struct {
	*bufio.Writer
	file   *os.File       // nil for stdout
	path   string         // the name given
	target string         // the file renamed onto ("": written directly)
	zw     io.WriteCloser // the compressor between Writer and file (-o x.gz, x.xz, x.zst), or nil
	fresh  chan struct{}  // closed to stop keepFresh on the temporary file, or nil
	done   bool           // Commit ran: a second Commit does nothing
}

// OpenOutput opens path for writing ("-" or "" is stdout). A regular file
// (new, or an existing one, or one a symbolic link leads to) is written
// under a temporary name in the directory of the file itself, then
// renamed onto it by Commit (Abort removes it), so that an interrupted
// run leaves the old file or none, never half a file. The new file keeps
// the permission bits of the file it replaces; a new one gets those the
// umask allows. A character device (/dev/null, /dev/full), a FIFO or
// /dev/stdout is opened and written directly. A block device, and a
// directory that does not exist or cannot be written, are usage errors.
func OpenOutput(path string, stdout io.Writer) (*Output, error) {
	return OpenOutputContext(context.Background(), path, stdout)
}

// OpenOutputContext is OpenOutput that gives up when ctx ends while it
// waits for the reader of a FIFO (an open for writing blocks until there
// is one, and a caught Ctrl-C would not end it).
//
// A file whose name ends in .gz, .xz or .zst (in any case) is written
// compressed (gzip, xz, zstd); one that ends in the suffix of another
// compressor or of an archive (.bz2, .tgz, .zip, ...) is a usage error.
func OpenOutputContext(ctx context.Context, path string, stdout io.Writer) (*Output, error) {
	if err := unwrittenSuffix(path); err != nil {
		return nil, Usagef("cannot write %s: %v", path, err)
	}
	o, err := openOutputFile(ctx, path, stdout)
	if err != nil || o.file == nil {
		return o, err
	}
	zw, err := compressor(path, o.file)
	if err != nil {
		o.Abort()
		return nil, Failf("cannot write %s: %v", path, err)
	}
	if zw != nil {
		o.zw, o.Writer = zw, bufio.NewWriterSize(zw, 64<<10)
	}
	return o, nil
}

// openOutputFile is OpenOutputContext without compression.
func openOutputFile(ctx context.Context, path string, stdout io.Writer) (*Output, error) {
	if path == "" || path == "-" {
		return &Output{Writer: bufio.NewWriterSize(stdout, 64<<10)}, nil
	}
	st, err := os.Stat(path) // follows links
	switch {
	case err == nil && st.IsDir():
		return nil, Usagef("output %s is a directory", path)
	case err == nil && st.Mode()&fs.ModeDevice != 0 && st.Mode()&fs.ModeCharDevice == 0:
		// A disk: surely a slip, and one that would destroy it.
		return nil, Usagef("output %s is a block device", path)
	case err == nil && !st.Mode().IsRegular(), isProcessFile(path):
		return openDeviceOutput(ctx, path)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, Usagef("cannot write %s: %v", path, UnwrapPath(err))
	}
	return openTempOutput(path, st)
}

// openDeviceOutput opens path, which is no regular file (a device, a
// FIFO, /proc/self/fd/N), to write to it directly.
func openDeviceOutput(ctx context.Context, path string) (*Output, error) {
	if fd, ok := ownDescriptor(path); ok {
		// The descriptor the process inherited, not a new open of
		// the file behind it, which the user may not be allowed
		// (a root-owned file the shell opened before su nobody).
		f, err := dupFile(fd, path)
		if err != nil {
			return nil, Usagef("cannot write %s: %v", path, err)
		}
		return &Output{Writer: bufio.NewWriterSize(f, 64<<10), file: f, path: path}, nil
	}
	// O_APPEND: behind /proc/PID/fd/1 may be a file the shell opened
	// with >>, which a new open would otherwise write from its start.
	f, err := sat.Detach(ctx, func() (*os.File, error) { return os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0) })
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("interrupted while waiting for a reader of %s: %w", path, err)
	}
	if err != nil {
		return nil, Usagef("cannot write %s: %v", path, UnwrapPath(err))
	}
	return &Output{Writer: bufio.NewWriterSize(f, 64<<10), file: f, path: path}, nil
}

// openTempOutput opens a temporary file beside the regular file path (st:
// its state, nil if it does not exist yet), which Commit renames into
// Place.
func openTempOutput(path string, st fs.FileInfo) (*Output, error) {
	target, err := resolveLinks(path)
	if err != nil {
		return nil, Usagef("cannot write %s: %v", path, UnwrapPath(err))
	}
	perm := fs.FileMode(0o666) // less the umask, which OpenFile applies
	if st != nil {
		// An existing file keeps its bits, and one we may not write
		// is refused as the shell's > would refuse it.
		perm = st.Mode().Perm()
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, Usagef("cannot write %s: %v", path, UnwrapPath(err))
		}
		f.Close()
	}
	removeStaleTemps(target)
	tmp := tempName(target)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, Usagef("cannot write %s: directory %s does not exist", path, filepath.Dir(path))
		}
		return nil, Usagef("cannot write %s: %v", path, UnwrapPath(err))
	}
	if st != nil {
		// OpenFile's bits were cut by the umask; an existing file's are
		// kept as they were. Its owner too, where we may (root).
		f.Chmod(perm)
		chown(f, st)
	}
	o := &Output{Writer: bufio.NewWriterSize(f, 64<<10), file: f, path: path, target: target, fresh: make(chan struct{})}
	go keepFresh(tmp, o.fresh)
	return o, nil
}

// stopFresh ends keepFresh on the temporary file, if any.
func (o *Output) stopFresh() {
	if o.fresh != nil {
		close(o.fresh)
		o.fresh = nil
	}
}

// isProcessFile reports whether path names one of the process's own
// descriptors (/dev/stdout, /dev/fd/1, /proc/self/fd/1): written
// directly, whatever is behind them, since a rename would replace the
// file the shell opened (and lose what >> appends to).
func isProcessFile(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	switch {
	case abs == "/dev/stdout", abs == "/dev/stderr", abs == "/dev/stdin", strings.HasPrefix(abs, "/dev/fd/"):
		return true
	}
	// /proc/self/fd/N, /proc/thread-self/fd/N, /proc/PID/fd/N; not other
	// files of /proc, which are no output.
	rest, ok := strings.CutPrefix(abs, "/proc/")
	if !ok {
		return false
	}
	proc, rest, _ := strings.Cut(rest, "/")
	_, err = parseDecimal(proc)
	return (proc == "self" || proc == "thread-self" || err == nil) && strings.HasPrefix(rest, "fd/")
}

// ownDescriptor returns the descriptor of this process that path names
// (/dev/stdout: 1, /dev/fd/N, /proc/self/fd/N, /proc/PID/fd/N with our
// PID: N); ok is false for any other path, another process's
// descriptors among them.
func ownDescriptor(path string) (fd int, ok bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return 0, false
	}
	switch abs {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	rest, ok := strings.CutPrefix(abs, "/dev/fd/")
	if !ok {
		if rest, ok = strings.CutPrefix(abs, "/proc/"); !ok {
			return 0, false
		}
		var proc string
		proc, rest, _ = strings.Cut(rest, "/")
		if proc != "self" && proc != "thread-self" && proc != strconv.Itoa(os.Getpid()) {
			return 0, false
		}
		if rest, ok = strings.CutPrefix(rest, "fd/"); !ok {
			return 0, false
		}
	}
	fd, err = parseDecimal(rest)
	return fd, err == nil && fd >= 0 && !strings.HasPrefix(rest, "+") && !strings.HasPrefix(rest, "-")
}

// SameFile reports whether paths a and b name one file: the same inode
// where both exist (hard links, symbolic links, other spellings), the
// same place in the same directory where either is still to be made.
func SameFile(a, b string) bool {
	sa, erra := os.Stat(a)
	sb, errb := os.Stat(b)
	if erra == nil && errb == nil {
		return os.SameFile(sa, sb)
	}
	return erra != nil && errb != nil && placeOf(a) == placeOf(b)
}

// placeOf returns where path would be created: the file its links lead
// to, in its directory with the links of that resolved too.
func placeOf(path string) string {
	if target, err := resolveLinks(path); err == nil {
		path = target
	}
	dir := filepath.Dir(path)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return filepath.Join(dir, filepath.Base(path))
}

// maxLinks bounds the symbolic links resolveLinks follows, as the kernel
// does (ELOOP).
const maxLinks = 40

// resolveLinks returns the file path leads to through symbolic links,
// which need not exist (a dangling link names the file to create).
func resolveLinks(path string) (string, error) {
	for range maxLinks {
		st, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) || err == nil && st.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", syscall.ELOOP
}

// TempSuffix marks the temporary files of outputs, next to NAME:
//
//	.NAME.queens-tmp-HOST-MACHINE-PID-RANDOM
//
// HOST is the host name (cut, for a human who finds the file), MACHINE
// a hash of what makes a PID mean one process (host name, boot id, PID
// namespace), PID the writer's process id and RANDOM 16 hex digits that
// no other run can guess or repeat.
const TempSuffix = ".queens-tmp-"

// staleAge is how old (by its modification time) another machine's
// temporary file must be before a run takes it for abandoned: a writer
// that is alive touches its file every freshEvery, however long its
// Count runs before it writes a byte.
const (
	staleAge   = 24 * time.Hour
	freshEvery = time.Hour
)

// tempName returns the temporary name under which target is written:
// hidden, next to it, naming this machine and process, so that a later
// run can tell one left by a run that was killed (kill -9 leaves no
// chance to remove it) from one being written now, here or on another
// host sharing the directory.
//
// NAME is cut (at the start of a UTF-8 character) so that the whole name
// fits in the 255 bytes a file system takes: any name it takes for the
// target works.
func tempName(target string) string {
	var r [8]byte
	rand.Read(r[:]) // never fails (crypto/rand)
	rest := TempSuffix + ThisMachine().Tag + "-" + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(r[:])
	name, keep := filepath.Base(target), 255-1-len(rest)
	if len(name) > keep {
		for keep > 0 && !utf8.RuneStart(name[keep]) {
			keep--
		}
		name = name[:keep]
	}
	return filepath.Join(filepath.Dir(target), "."+name+rest)
}

// machine is what tells this machine's processes from another's.
type machine struct {
	Tag string // HOST-MACHINE of TempSuffix
	id  string // MACHINE alone
}

// ThisMachine is the machine this process runs on, read once.
var ThisMachine = sync.OnceValue(func() machine {
	host, _ := os.Hostname()
	boot, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	pidns, _ := os.Readlink("/proc/self/ns/pid")
	return newMachine(host, string(boot), pidns)
})

// newMachine returns the machine of a host name, boot id and PID
// namespace (the last two "" where the system has none).
func newMachine(host, boot, pidns string) machine {
	sum := sha256.Sum256([]byte(host + "\x00" + strings.TrimSpace(boot) + "\x00" + pidns))
	id := hex.EncodeToString(sum[:6])
	name := []byte(host)
	if len(name) > 32 {
		name = name[:32]
	}
	for i, c := range name {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-') {
			name[i] = '_'
		}
	}
	if len(name) == 0 {
		name = []byte("_")
	}
	return machine{Tag: string(name) + "-" + id, id: id}
}

// tempOwner reads the machine id and pid from the part of a temporary
// file's name after TempSuffix; ok is false for a name in any other form
// than exactly the one tempName writes (an older queens's
// .NAME.queens-tmp-PID among them: which host wrote it cannot be told;
// and a user's .notes.queens-tmp-backup, which is no temporary file).
func tempOwner(rest string) (id string, pid int, ok bool) {
	rest, random, ok1 := cutLast(rest, "-")
	rest, pidText, ok2 := cutLast(rest, "-")
	host, id, ok3 := cutLast(rest, "-")
	if !ok1 || !ok2 || !ok3 || !isLowerHex(random, 16) || !isLowerHex(id, 12) || !isHostTag(host) {
		return "", 0, false
	}
	pid, err := parseDecimal(pidText)
	if err != nil || pid <= 0 || strconv.Itoa(pid) != pidText {
		return "", 0, false
	}
	return id, pid, true
}

// isLowerHex reports whether s is n lowercase hexadecimal digits, as
// hex.EncodeToString writes them.
func isLowerHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// isHostTag reports whether s is a host name as newMachine cuts it: 1 to
// 32 letters, digits, dots, hyphens and underscores.
func isHostTag(s string) bool {
	if len(s) == 0 || len(s) > 32 {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// cutLast is strings.Cut at the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// cleanedDirs are the directories removeStaleTemps has cleaned: once per
// run is enough (-o DIR/ writes thousands of files to one).
var cleanedDirs sync.Map

// removeStaleTemps removes, once per run, the temporary files in the
// directory of target that are provably abandoned: named exactly as
// tempName names them, and written on this machine by a process that is
// no longer alive, or (from any machine) not modified for staleAge, 24
// times the period at which a live writer touches its file. Another
// host's fresh file, which may be a live run's on shared storage, and
// every file named otherwise are left alone.
func removeStaleTemps(target string) {
	dir := filepath.Dir(target)
	if _, done := cleanedDirs.LoadOrStore(dir, true); done {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	now := time.Now()
	for _, e := range entries {
		name := e.Name()
		i := strings.LastIndex(name, TempSuffix)
		if i < 2 || name[0] != '.' || !e.Type().IsRegular() {
			continue
		}
		if staleTemp(name[i+len(TempSuffix):], e, now) {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// staleTemp reports whether the temporary file e, whose name ends in
// rest after TempSuffix, is abandoned.
func staleTemp(rest string, e fs.DirEntry, now time.Time) bool {
	id, pid, ok := tempOwner(rest)
	if !ok {
		return false
	}
	if id == ThisMachine().id && pid != os.Getpid() && !ProcessAlive(pid) {
		return true
	}
	info, err := e.Info()
	return err == nil && now.Sub(info.ModTime()) > staleAge
}

// keepFresh touches the file at path every freshEvery until stop is
// closed, so that no run takes it for abandoned while it is written.
func keepFresh(path string, stop <-chan struct{}) {
	t := time.NewTicker(freshEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-t.C:
			os.Chtimes(path, now, now)
		}
	}
}

// Commit flushes the output and, for a regular file, renames it into
// Place; called again, it does nothing.
func (o *Output) Commit() error {
	if o.done {
		return nil
	}
	o.done = true
	err := o.Flush()
	if o.zw != nil {
		if cerr := o.zw.Close(); err == nil {
			err = cerr
		}
	}
	if o.file == nil {
		return err
	}
	o.stopFresh()
	if cerr := o.file.Close(); err == nil {
		err = cerr
	}
	if o.target == "" {
		if err != nil {
			return Failf("write %s: %v", o.path, UnwrapPath(err))
		}
		return nil
	}
	if err == nil {
		err = os.Rename(o.file.Name(), o.target)
	}
	if err != nil {
		os.Remove(o.file.Name())
		return Failf("write %s: %v", o.path, UnwrapPath(err))
	}
	return nil
}

// Abort discards a file output; on stdout it flushes what was written, so
// that the solutions found before an error or interruption are not lost.
func (o *Output) Abort() {
	if o.file == nil {
		o.Flush()
		return
	}
	o.stopFresh()
	o.file.Close()
	if o.target != "" {
		os.Remove(o.file.Name())
	}
}

// Finish commits o if err is nil and aborts it otherwise, returning the
// first error.
func (o *Output) Finish(err error) error {
	if err != nil {
		o.Abort()
		return err
	}
	return o.Commit()
}

// NotWritten says, for an error message, that a file output was not
// Written ("" for stdout or a device, where what was written stays
// Written).
func (o *Output) NotWritten() string {
	if o.target == "" {
		return ""
	}
	return " (" + o.path + " not written)"
}

// CtxWriter is a writer that fails once ctx is done, so that a long
// export stops at the next buffer flush when the run is interrupted.
type CtxWriter struct {
	Ctx     context.Context
	W       io.Writer
	Written int64
}

// Write writes p unless the context is done (its error then), and
// counts what was written.
func (cw *CtxWriter) Write(p []byte) (int, error) {
	if err := cw.Ctx.Err(); err != nil {
		return 0, err
	}
	n, err := cw.W.Write(p)
	cw.Written += int64(n)
	return n, err
}

// UnwrapPath drops the *fs.PathError wrapper, whose path is the temporary
// Name and would only confuse.
func UnwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
