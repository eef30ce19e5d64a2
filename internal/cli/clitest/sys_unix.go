//go:build unix

package clitest

import "syscall"

// The system calls the tests make where the system has them; elsewhere
// (sys_other.go) they fail, and the tests that need them skip or fail
// there: those tests run on Unix, and only compile elsewhere.

// Mkfifo makes a FIFO at path.
func Mkfifo(path string, mode uint32) error { return syscall.Mkfifo(path, mode) }

// Kill sends sig to process pid.
func Kill(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }

// AsUser returns the attributes that start a process as user and group
// id.
func AsUser(id uint32) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: id, Gid: id}}
}
