package external

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// errNoFile is the error of openSolverFile for a file not written.
var errNoFile = errors.New("not written")

// openSolverFile opens a file the solver was to write (its result, its
// proof) in queens' own temporary directory: a regular file of at most
// max bytes, not a link (to /dev/zero, say), a FIFO (whose open or read
// would wait for ever), a device or a directory. A file that grows while
// it is read is read to max bytes and refused.
func openSolverFile(path string, max int64) (io.ReadCloser, error) {
	f, err := os.OpenFile(path, solverFileFlags, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNoFile
	}
	if errors.Is(err, syscall.ELOOP) {
		return nil, errors.New("a symbolic link, which is not followed")
	}
	if pe, ok := err.(*fs.PathError); ok {
		err = pe.Err // its path is a temporary name
	}
	if err != nil {
		return nil, fmt.Errorf("cannot open it: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("not a regular file (%s)", kind(st.Mode()))
	}
	if st.Size() > max {
		f.Close()
		return nil, fmt.Errorf("%d bytes, over the limit of %d", st.Size(), max)
	}
	return &cappedFile{File: f, left: max}, nil
}

// kind names a file mode that is not a regular file's, for a message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return m.Type().String()
}

// cappedFile fails a read past left bytes.
type cappedFile struct {
	*os.File
	left int64
}

func (c *cappedFile) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		if n, err := c.File.Read(one[:]); n == 0 {
			return 0, err
		}
		return 0, errors.New("the file grew over its limit while it was read")
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.File.Read(p)
	c.left -= int64(n)
	return n, err
}
