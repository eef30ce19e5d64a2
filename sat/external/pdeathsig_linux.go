package external

import "syscall"

// dieWithParent asks the kernel to SIGKILL the process started with attr
// when the thread that started it ends (PR_SET_PDEATHSIG): at the latest
// when queens does, however it dies. Go's threads live as long as the
// process unless a goroutine ends locked to one, which none that starts
// solvers does.
func dieWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
