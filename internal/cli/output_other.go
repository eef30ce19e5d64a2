//go:build !unix

package cli

import (
	"errors"
	"io/fs"
	"os"
)

// processAlive reports true: without a way to ask, no temporary file is
// taken for stale.
func processAlive(pid int) bool { return true }

// chown does nothing: ownership is the platform's business.
func chown(f *os.File, st fs.FileInfo) {}

// dupFile fails: where descriptors cannot be duplicated, a process's own
// files are not written.
func dupFile(fd int, name string) (*os.File, error) {
	return nil, errors.New("cannot duplicate a descriptor on this system")
}
