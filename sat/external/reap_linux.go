//go:build linux

package external

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// BecomeSubreaper makes the calling process a child subreaper (Linux's
// prctl PR_SET_CHILD_SUBREAPER) for the rest of its life: a process a
// solver started and left behind, even in a session of its own (setsid),
// becomes this process's child when its parent exits, instead of init's,
// so that it is reaped once a run's sweep has killed it. Without it the
// sweep still kills such a process, and init reaps it.
//
// Nothing in this package calls it: it changes the whole process (every
// orphaned descendant, of any child, becomes its child and must be
// reaped), which suits a command line that runs solvers, not a server
// that imports this package. The queens command calls it once at start.
// It does nothing outside Linux.
func BecomeSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// sweep kills every process whose environment holds mark (NAME=VALUE),
// that is every process a solver run started, however far it strayed
// from the solver's process group, and reaps those that became this
// process's children ([BecomeSubreaper]). It looks again until it finds
// none, in case one was forking.
func sweep(mark string) {
	self := os.Getpid()
	needle := []byte("\x00" + mark + "\x00")
	killed := map[int]bool{}
	for round := 0; round < 10; round++ {
		entries, err := os.ReadDir("/proc")
		if err != nil {
			return
		}
		found := 0
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == self || killed[pid] {
				continue
			}
			env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
			if err != nil || !bytes.Contains(append(append([]byte{0}, env...), 0), needle) {
				continue
			}
			unix.Kill(pid, unix.SIGKILL)
			killed[pid] = true
			found++
		}
		if found == 0 {
			break
		}
	}
	for pid := range killed {
		reap(pid, self)
	}
}

// reap waits for pid, killed, if it is a child of self.
func reap(pid, self int) {
	deadline := time.Now().Add(killGrace)
	for {
		if parent(pid) != self {
			return // not ours to reap (init reaps it), or gone
		}
		var ws unix.WaitStatus
		got, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil)
		if got == pid || err != nil && err != unix.EINTR || time.Now().After(deadline) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// parent returns the parent process id of pid, or -1.
func parent(pid int) int {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	// pid (comm) state ppid ...; comm may hold spaces and parentheses.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return -1
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return -1
	}
	return ppid
}
