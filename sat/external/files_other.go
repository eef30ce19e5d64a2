//go:build !unix

package external

import "os"

// solverFileFlags open a file the solver wrote.
const solverFileFlags = os.O_RDONLY
