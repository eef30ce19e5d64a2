//go:build unix

package external

import (
	"os/exec"
	"syscall"
)

// ownGroup runs cmd in a process group of its own and makes a cancelled
// cmd kill the whole group, so that a solver started through a wrapper
// script (or one that forks helpers) leaves nothing running. On Linux the
// solver (the group's leader) is also killed by the kernel when queens
// dies, even by SIGKILL, which leaves queens no chance to kill it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
	cmd.Cancel = func() error { return killGroup(cmd) }
}

// killGroup kills what is left of cmd's process group: after a timeout,
// or after a solver exited and left children behind.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
