//go:build !unix

package cli

import (
	"errors"
	"syscall"
)

// mkfifo fails: no FIFOs here.
func mkfifo(path string, mode uint32) error { return errors.ErrUnsupported }

// kill fails: no signals to a process id here.
func kill(pid int, sig syscall.Signal) error { return errors.ErrUnsupported }

// asUser returns nil: a process starts as its parent's user.
func asUser(id uint32) *syscall.SysProcAttr { return nil }
