//go:build unix

package external

import (
	"os"
	"syscall"
)

// solverFileFlags open a file the solver wrote without following a link
// it put there, and without waiting for a writer if it is a FIFO.
const solverFileFlags = os.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
