//go:build unix

package external_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat/external"
)

// TestExternalNoOrphans: a solver that starts children (a wrapper script
// around the real solver) leaves none running, whether it is stopped by
// the context or exits on its own and leaves them behind.
func TestExternalNoOrphans(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep")
	}
	tests := []struct {
		name, body string
		want       error
	}{
		{"timeout", "sleep 60 & echo $! > PIDFILE; wait", context.DeadlineExceeded},
		{"exits, child holds stdout", "sleep 60 & echo $! > PIDFILE; echo 's UNSATISFIABLE'; exit 20", nil},
		{"exits, child detached", "sleep 60 >/dev/null 2>&1 & echo $! > PIDFILE; echo 's UNSATISFIABLE'; exit 20", nil},
	}
	cnf, _ := encode.Queens(4, "pairwise", nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			s, err := external.New(cnf, script(t, strings.ReplaceAll(tt.body, "PIDFILE", pidFile)))
			if err != nil {
				t.Fatal(err)
			}
			// Only "timeout" tests the deadline; the others exit on their own.
			deadline := time.Minute
			if tt.want == context.DeadlineExceeded {
				deadline = 500 * time.Millisecond
			}
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			start := time.Now()
			if _, err := s.Next(ctx); !errors.Is(err, tt.want) {
				t.Errorf("Next: %v, want %v", err, tt.want)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("Next took %v", d)
			}
			data, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatalf("the script did not start its child: %v", err)
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
			if err != nil {
				t.Fatal(err)
			}
			// The child is killed and reaped by init; give it a moment.
			for deadline := time.Now().Add(10 * time.Second); alive(pid); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Fatalf("the solver's child %d outlived it", pid)
				}
			}
		})
	}
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // no /proc: trust kill
	}
	// pid (comm) STATE ...; comm may hold spaces, the state follows the last ')'.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
