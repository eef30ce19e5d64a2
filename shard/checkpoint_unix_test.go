//go:build unix

package shard

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestCheckpointLinks checks the files next to a checkpoint: a lock file
// that is a link or a FIFO is refused and its target left as it was, and a
// checkpoint reached through a link, dangling or not, is locked and
// written as the file it names (two names of one file cannot both run,
// and the link stays a link).
func TestCheckpointLinks(t *testing.T) {
	dir := t.TempDir()
	spec := Spec{N: 8, Shards: 1, Version: "v"}
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ckpt := filepath.Join(dir, "c.ckpt")
	if err := os.Symlink(victim, ckpt+".lock"); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenCheckpoint(ckpt, spec); !errors.Is(err, ErrCheckpoint) {
		t.Errorf("OpenCheckpoint with a lock file that is a link: %v; want ErrCheckpoint", err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "precious\n" {
		t.Errorf("the link's target became %q", data)
	}
	fifo := filepath.Join(dir, "f.ckpt")
	if err := syscall.Mkfifo(fifo+".lock", 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenCheckpoint(fifo, spec); !errors.Is(err, ErrCheckpoint) {
		t.Errorf("OpenCheckpoint with a lock file that is a FIFO: %v; want ErrCheckpoint", err)
	}

	real := filepath.Join(dir, "real.ckpt")
	link := filepath.Join(dir, "link.ckpt")
	if err := os.Symlink("real.ckpt", link); err != nil {
		t.Fatal(err)
	}
	// A dangling link names the file to create, as for -o: its lock is
	// the target's.
	c, err := OpenCheckpoint(link, spec)
	if err != nil {
		t.Fatalf("OpenCheckpoint through a dangling link: %v", err)
	}
	if _, err := os.Stat(LockPath(real)); err != nil {
		t.Errorf("the lock of a dangling link's target: %v", err)
	}
	c.Close()
	c, err = OpenCheckpoint(real, spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), spec, Options{Threads: 1, OnPiece: c.Record}); err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c, err = OpenCheckpoint(link, spec)
	if err != nil {
		t.Fatalf("OpenCheckpoint through a link: %v", err)
	}
	defer c.Close()
	if _, err := OpenCheckpoint(real, spec); !errors.Is(err, ErrLocked) {
		t.Errorf("OpenCheckpoint of the file a locked link names: %v; want ErrLocked", err)
	}
	pieces, _, _ := spec.Pieces()
	if len(c.Done()) != len(pieces) {
		t.Errorf("through the link %d pieces done, want %d", len(c.Done()), len(pieces))
	}
	c.pending = true
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("after a write through the link, it is %v, %v; want a link", st.Mode(), err)
	}
}

// TestCheckpointStaleTemps checks which temporary files a run removes:
// those of a dead process of this host and old ones, not another host's
// fresh one nor this process's.
func TestCheckpointStaleTemps(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "c.ckpt")
	prefix := tempPrefix(ckpt)
	names := map[string]bool{ // name: removed
		prefix + hostTag() + "-999999999-123": true, // a dead pid (above any pid_max)
		prefix + "other-host-7-123":           false,
		prefix + "old-host-7-123":             true,
		prefix + tempOwner() + "-123":         false,
		".other.ckpt.tmp-x-1-2":               false,
		prefix + "backup":                     false, // old, but not of queens's form
		prefix + "old host-7-123":             false,
		prefix + "old-host-07-123":            false,
		prefix + "old-host-7-12a":             false,
	}
	for name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * StaleAge)
	for _, name := range []string{"old-host-7-123", "backup", "old host-7-123", "old-host-07-123", "old-host-7-12a"} {
		if err := os.Chtimes(filepath.Join(dir, prefix+name), old, old); err != nil {
			t.Fatal(err)
		}
	}
	c, err := OpenCheckpoint(ckpt, Spec{N: 6, Shards: 1, Version: "v"})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	for name, removed := range names {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := errors.Is(err, os.ErrNotExist); gone != removed {
			t.Errorf("%s: removed %v, want %v", name, gone, removed)
		}
	}
}

// TestCheckpointLockNotWritten checks that taking the lock writes no
// existing file: a lock file that is a hard link to another file, or
// that holds anything but a process id, is refused and left as it was.
func TestCheckpointLockNotWritten(t *testing.T) {
	dir := t.TempDir()
	spec := Spec{N: 6, Shards: 1, Version: "v"}
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ckpt := filepath.Join(dir, "c.ckpt")
	if err := os.Link(victim, ckpt+".lock"); err != nil {
		t.Fatal(err)
	}
	if c, err := OpenCheckpoint(ckpt, spec); !errors.Is(err, ErrCheckpoint) {
		t.Errorf("OpenCheckpoint with a lock file that is a hard link: %v; want ErrCheckpoint", err)
		c.Close()
	}
	other := filepath.Join(dir, "d.ckpt")
	if err := os.WriteFile(other+".lock", []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err := OpenCheckpoint(other, spec); !errors.Is(err, ErrCheckpoint) {
		t.Errorf("OpenCheckpoint with a lock file that holds text: %v; want ErrCheckpoint", err)
		c.Close()
	}
	for _, name := range []string{victim, other + ".lock"} {
		if data, _ := os.ReadFile(name); string(data) != "precious\n" {
			t.Errorf("%s became %q", name, data)
		}
	}
	// A lock file a run left (a process id) is taken again.
	if err := os.WriteFile(other+".lock", []byte("999999999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := OpenCheckpoint(other, spec)
	if err != nil {
		t.Fatalf("OpenCheckpoint with a lock file a run left: %v", err)
	}
	c.Close()
}
