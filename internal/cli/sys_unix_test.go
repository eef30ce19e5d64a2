//go:build unix

package cli

import "syscall"

// The system calls the tests make where the system has them; elsewhere
// (sys_other_test.go) they fail, and the tests that need them skip or
// fail there: those tests run on Unix, and only compile elsewhere.

// mkfifo makes a FIFO at path.
func mkfifo(path string, mode uint32) error { return syscall.Mkfifo(path, mode) }

// kill sends sig to process pid.
func kill(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }

// asUser returns the attributes that start a process as user and group
// id.
func asUser(id uint32) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: id, Gid: id}}
}
