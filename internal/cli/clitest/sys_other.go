//go:build !unix

package clitest

import (
	"errors"
	"syscall"
)

// Mkfifo fails: no FIFOs here.
func Mkfifo(path string, mode uint32) error { return errors.ErrUnsupported }

// Kill fails: no signals to a process id here.
func Kill(pid int, sig syscall.Signal) error { return errors.ErrUnsupported }

// AsUser returns nil: a process starts as its parent's user.
func AsUser(id uint32) *syscall.SysProcAttr { return nil }
