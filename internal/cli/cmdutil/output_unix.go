//go:build unix

package cmdutil

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// ProcessAlive reports whether a process pid exists (EPERM: it does, but
// is not ours).
func ProcessAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// chown gives f the owner and group of the file st describes, where we
// may (root may; others keep their own, as a copy would).
func chown(f *os.File, st fs.FileInfo) {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		f.Chown(int(sys.Uid), int(sys.Gid))
	}
}

// dupFile returns a duplicate of the process's descriptor fd, named
// Name: writes go where the inherited descriptor goes (appended if the
// shell opened it with >>), and closing it leaves fd open.
func dupFile(fd int, name string) (*os.File, error) {
	d, err := syscall.Dup(fd)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(d)
	return os.NewFile(uintptr(d), name), nil
}

// OpenNoFollow opens path for reading without following a symbolic link
// and without waiting for a writer if it is a FIFO.
func OpenNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
