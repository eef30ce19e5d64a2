//go:build unix

package shard

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// lockFile creates (or opens) path and takes an exclusive advisory lock
// on it without waiting, writing this process's id into it. The lock ends
// when the file is closed or the process exits, however it exits, so a
// killed run leaves no stale lock.
//
// path is opened without following a symbolic link (O_NOFOLLOW) and
// without waiting (O_NONBLOCK), and anything but a regular file of one
// link that is empty or holds a process id (what a run leaves) is refused
// before it is written: a lock file that is a symbolic or hard link to
// another file, or that is another file, must not be written.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%w: lock file %s is a symbolic link (remove it)", ErrCheckpoint, path)
	}
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%w: lock file %s is not a regular file (remove it)", ErrCheckpoint, path)
	} else if sys, ok := st.Sys().(*syscall.Stat_t); !ok || sys.Nlink != 1 {
		f.Close()
		return nil, fmt.Errorf("%w: lock file %s has other names (a hard link; remove it)", ErrCheckpoint, path)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		pid := make([]byte, 32)
		k, _ := f.ReadAt(pid, 0)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: another process (pid %s) is running with it", ErrLocked, strings.TrimSpace(string(pid[:k])))
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	held := make([]byte, 32)
	k, _ := f.ReadAt(held, 0)
	if !isPIDLine(held[:k]) {
		f.Close()
		return nil, fmt.Errorf("%w: lock file %s holds something else than a process id (remove it)", ErrCheckpoint, path)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return f, nil
}

// isPIDLine reports whether b is what a lock file holds: nothing, or a
// process id and a newline.
func isPIDLine(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	s, _ := strings.CutSuffix(string(b), "\n")
	_, err := strconv.ParseUint(s, 10, 32)
	return err == nil
}

// alive reports whether a process with id pid runs on this host (or may:
// one of another user answers EPERM).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
