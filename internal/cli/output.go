package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// output is where a command writes its results: stdout, or a file that
// appears under its name only when Commit succeeds.
type output struct {
	*bufio.Writer
	file *os.File // nil for stdout
	path string
}

// openOutput opens path for writing ("-" or "" is stdout). A file is
// created under a temporary name in the same directory; call Commit to
// rename it into place, or Abort to remove it. A directory that does not
// exist or cannot be written is a usage error.
func openOutput(path string, stdout io.Writer) (*output, error) {
	if path == "" || path == "-" {
		return &output{Writer: bufio.NewWriterSize(stdout, 64<<10)}, nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, usagef("output %s is a directory", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, usagef("cannot write %s: directory %s does not exist", path, filepath.Dir(path))
		}
		return nil, usagef("cannot write %s: %v", path, unwrapPath(err))
	}
	return &output{Writer: bufio.NewWriterSize(f, 64<<10), file: f, path: path}, nil
}

// Commit flushes the output and, for a file, renames it into place.
func (o *output) Commit() error {
	err := o.Flush()
	if o.file == nil {
		return err
	}
	if err == nil {
		err = o.file.Chmod(0o644)
	}
	if cerr := o.file.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.file.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.file.Name())
		return fmt.Errorf("write %s: %w", o.path, unwrapPath(err))
	}
	return nil
}

// Abort discards a file output; on stdout it flushes what was written, so
// that the solutions found before an error or interruption are not lost.
func (o *output) Abort() {
	if o.file == nil {
		o.Flush()
		return
	}
	o.file.Close()
	os.Remove(o.file.Name())
}

// finish commits o if err is nil and aborts it otherwise, returning the
// first error.
func (o *output) finish(err error) error {
	if err != nil {
		o.Abort()
		return err
	}
	return o.Commit()
}

// notWritten says, for an error message, that a file output was not
// written ("" for stdout, where what was written stays written).
func (o *output) notWritten() string {
	if o.file == nil {
		return ""
	}
	return " (" + o.path + " not written)"
}

// ctxWriter is a writer that fails once ctx is done, so that a long
// export stops at the next buffer flush when the run is interrupted.
type ctxWriter struct {
	ctx     context.Context
	w       io.Writer
	written int64
}

func (cw *ctxWriter) Write(p []byte) (int, error) {
	if err := cw.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := cw.w.Write(p)
	cw.written += int64(n)
	return n, err
}

// unwrapPath drops the *fs.PathError wrapper, whose path is the temporary
// name and would only confuse.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
