//go:build unix && !linux

package external

import "syscall"

// dieWithParent does nothing where the kernel cannot kill a child with
// its parent: the solver is killed by queens when it can.
func dieWithParent(attr *syscall.SysProcAttr) {}
