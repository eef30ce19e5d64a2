package cli

import (
	"bytes"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeSignal stops serve with SIGTERM and SIGINT: it shuts down,
// says so on its last line and exits 130, as the exit table says of a
// run a signal stops.
func TestServeSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := queensCmd(t, t.TempDir(), "serve", "--addr", "127.0.0.1:0")
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = nil, &stderr
			startReady(t, cmd)
			cmd.Process.Signal(sig)
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("still running 5 s after %v", sig)
			}
			if code := exitStatus(cmd.ProcessState); code != 130 {
				t.Errorf("exit status %d, want 130; stderr %s", code, stderr.String())
			}
			if !strings.HasSuffix(stderr.String(), "queens: serve stopped\n") {
				t.Errorf("stderr %q, want it to end with the line queens: serve stopped", stderr.String())
			}
		})
	}
}

// TestCheckCount checks the message for a permutation that leaves a
// number out, read against -n: a usage error that says how many numbers
// it has and a solution needs.
func TestCheckCount(t *testing.T) {
	_, errs, code := runCLI(t, "", "check", "-n", "8", "1", "5", "8", "6", "3", "7", "2")
	if code != 2 || !strings.Contains(errs, "7 numbers, a solution of n = 8 has 8") {
		t.Errorf("exit %d, %q", code, errs)
	}
}
