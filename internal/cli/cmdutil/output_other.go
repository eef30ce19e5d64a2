//go:build !unix

package cmdutil

import (
	"errors"
	"io/fs"
	"os"
)

// ProcessAlive reports true: without a way to ask, no temporary file is
// taken for stale.
func ProcessAlive(pid int) bool { return true }

// chown does nothing: ownership is the platform's business.
func chown(f *os.File, st fs.FileInfo) {}

// dupFile fails: where descriptors cannot be duplicated, a process's own
// files are not written.
func dupFile(fd int, name string) (*os.File, error) {
	return nil, errors.New("cannot duplicate a descriptor on this system")
}

// OpenNoFollow opens path for reading, refusing a symbolic link (checked
// before the open: without O_NOFOLLOW, a link put there in between is
// followed, and the caller's check that it opened a regular file is what
// remains).
func OpenNoFollow(path string) (*os.File, error) {
	if st, err := os.Lstat(path); err != nil {
		return nil, err
	} else if st.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.New("is a symbolic link")}
	}
	return os.Open(path)
}
