package cmdutil

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The third hardening pass (issue 28): nothing lost on shared storage,
// no crash on a few hostile bytes, every wait bounded. Like
// hardening_test.go, the hostile cases run the real command (TestMain).

// TestTempOwner: a temporary file's name says which machine and process
// wrote it; names in any other form say nothing.
func TestTempOwner(t *testing.T) {
	m := newMachine("node-7.cluster", "b00t\n", "pid:[4026531836]")
	for _, tc := range []struct {
		rest string
		id   string
		pid  int
		ok   bool
	}{
		{m.Tag + "-123-0123456789abcdef", m.id, 123, true},
		{"a-b-c-" + m.id + "-9-fedcba9876543210", m.id, 9, true},
		{"123", "", 0, false},                                                 // an older queens's
		{m.Tag + "-0-0123456789abcdef", "", 0, false},                         // no pid 0
		{m.Tag + "-12x-0123456789abcdef", "", 0, false},                       // not a pid
		{m.Tag + "-12-0123456789abcde", "", 0, false},                         // random cut
		{"host-abc-12-0123456789abcdef", "", 0, false},                        // id cut
		{m.id + "-12-0123456789abcdef", "", 0, false},                         // no host
		{"\x1b[2J-" + m.id + "-1-0123456789abcdef", "", 0, false},             // not a host queens writes
		{m.Tag + "-+12-0123456789abcdef", "", 0, false},                       // not as queens writes a pid
		{m.Tag + "-012-0123456789abcdef", "", 0, false},                       // nor this
		{m.Tag + "-12-0123456789ABCDEF", "", 0, false},                        // nor the random part
		{"h-" + strings.ToUpper(m.id) + "-12-0123456789abcdef", "", 0, false}, // nor the id
	} {
		id, pid, ok := tempOwner(tc.rest)
		if id != tc.id || pid != tc.pid || ok != tc.ok {
			t.Errorf("tempOwner(%q) = %q, %d, %v; want %q, %d, %v", tc.rest, id, pid, ok, tc.id, tc.pid, tc.ok)
		}
	}
	// The machine differs with any of its parts, and the host part of
	// the name is made of safe bytes, cut.
	for _, other := range []machine{
		newMachine("node-8.cluster", "b00t", "pid:[4026531836]"),
		newMachine("node-7.cluster", "b00t2", "pid:[4026531836]"),
		newMachine("node-7.cluster", "b00t", "pid:[4026532178]"),
	} {
		if other.id == m.id {
			t.Errorf("two machines share the id %s", m.id)
		}
	}
	if got := newMachine("a/b\x1b c"+string(make([]byte, 64)), "", "").Tag; len(got) != 32+1+12 || got[:6] != "a_b__c" {
		t.Errorf("tag %q: want 32 safe bytes of the host, '-', the id", got)
	}
}

// TestStaleTemps: a run removes the temporary files of dead runs of its
// own machine and those nobody touched for a day, never another
// machine's fresh one (which may be a live run's on shared storage).
func TestStaleTemps(t *testing.T) {
	dir := t.TempDir()
	here := ThisMachine().Tag
	elsewhere := newMachine("elsewhere", "", "").Tag
	dead := strconv.Itoa(deadPID(t))
	const random = "-0123456789abcdef"
	const oldRandom = "-00000000000001d0" // these and names ending in old are a day old
	files := map[string]bool{             // Name: removed
		".a" + TempSuffix + here + "-" + dead + random:                         true,
		".b" + TempSuffix + here + "-" + strconv.Itoa(os.Getpid()) + random:    false,
		".c" + TempSuffix + elsewhere + "-" + dead + random:                    false,
		".d" + TempSuffix + dead:                                               false, // an older queens's: whose?
		".e" + TempSuffix + elsewhere + "-" + dead + oldRandom:                 true,
		".f" + TempSuffix + dead + "old":                                       false, // not queens's form: whose?
		".g" + TempSuffix + here + "-" + strconv.Itoa(os.Getpid()) + oldRandom: true,  // a reused pid
	}
	old := time.Now().Add(-staleAge - time.Minute)
	for name := range files {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte("half"), 0o644)
		if strings.HasSuffix(name, "old") || strings.HasSuffix(name, oldRandom) {
			os.Chtimes(path, old, old)
		}
	}
	removeStaleTemps(filepath.Join(dir, "out.txt"))
	for name, removed := range files {
		if _, err := os.Stat(filepath.Join(dir, name)); (err != nil) != removed {
			t.Errorf("%s: removed %v, want %v", name, err != nil, removed)
		}
	}
}

// deadPID returns a pid no process has: one past the highest there can
// be.
func deadPID(t *testing.T) int {
	t.Helper()
	dead := 4194305
	if b, err := os.ReadFile("/proc/sys/kernel/pid_max"); err == nil {
		if max, err := parseDecimal(string(b[:len(b)-1])); err == nil {
			dead = max + 1
		}
	}
	return dead
}

// TestOwnDescriptor: the paths that name the process's own descriptors.
func TestOwnDescriptor(t *testing.T) {
	self := strconv.Itoa(os.Getpid())
	for path, want := range map[string]int{
		"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2, "/dev/fd/7": 7, "/proc/self/fd/1": 1,
		"/proc/thread-self/fd/2": 2, "/proc/" + self + "/fd/3": 3,
		"/proc/1/fd/1": -1, "/dev/fd/x": -1, "/dev/fd/+1": -1, "/dev/fd/-1": -1, "/dev/null": -1, "out": -1,
	} {
		fd, ok := ownDescriptor(path)
		if !ok {
			fd = -1
		}
		if fd != want {
			t.Errorf("ownDescriptor(%q) = %d, want %d", path, fd, want)
		}
	}
}

// The fourth hardening pass (issue 33): nothing lost, no crash, no false
// claim on the surface the third pass added.

// TestStaleTempsOnlyOurs: the sweep of abandoned temporary files leaves
// alone every file whose name is not exactly of the form queens writes,
// however old: a user's .notes.queens-tmp-backup is no temporary file.
func TestStaleTempsOnlyOurs(t *testing.T) {
	dir := t.TempDir()
	elsewhere := newMachine("elsewhere", "", "")
	const random = "-0123456789abcdef"
	old := time.Now().Add(-10 * staleAge)
	names := []string{
		".notes" + TempSuffix + "backup",
		".x" + TempSuffix + elsewhere.Tag + "-12" + random + "-copy",
		".x" + TempSuffix + elsewhere.Tag + "-12-0123456789ABCDEF",
		".x" + TempSuffix + "a b-" + elsewhere.id + "-12" + random,
		".x" + TempSuffix + elsewhere.Tag + "-012" + random,
		TempSuffix + elsewhere.Tag + "-12" + random,       // no NAME
		"x" + TempSuffix + elsewhere.Tag + "-12" + random, // not hidden
	}
	for _, name := range names {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte("precious"), 0o644)
		os.Chtimes(path, old, old)
	}
	removeStaleTemps(filepath.Join(dir, "out.txt"))
	for _, name := range names {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%q was removed: %v", name, err)
		}
	}
}

// TestIsProcessFile: the names of the process's own descriptors, and
// nothing else.
func TestIsProcessFile(t *testing.T) {
	for path, want := range map[string]bool{
		"/dev/stdout": true, "/dev/stderr": true, "/dev/fd/1": true, "/dev/fd/9": true,
		"/proc/self/fd/1": true, "/proc/thread-self/fd/2": true, "/proc/123/fd/1": true,
		"/dev/null": false, "/proc/sys/kernel/hostname": false, "/proc/self/environ": false,
		"/proc/x1/fd/1": false, "out.txt": false, "/tmp/dev/stdout": false,
	} {
		if got := isProcessFile(path); got != want {
			t.Errorf("isProcessFile(%q) = %v, want %v", path, got, want)
		}
	}
}
