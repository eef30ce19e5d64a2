package cmdutil

import (
	"io"
	"os"
)

// StdoutWriter is stdout as the commands see it: it keeps the first
// write error, which Run reports even where a command ignores it (help
// text, compare's table), and fails every write after it.
type StdoutWriter struct {
	W   io.Writer
	Err error
}

// Write writes p, and keeps the first error, which every later write
// returns.
func (s *StdoutWriter) Write(p []byte) (int, error) {
	if s.Err != nil {
		return 0, s.Err
	}
	n, err := s.W.Write(p)
	if err != nil {
		s.Err = err
	}
	return n, err
}

// WriteErr returns the first write error of stdout (nil for any other
// writer).
func WriteErr(w io.Writer) error {
	if s, ok := w.(*StdoutWriter); ok {
		return s.Err
	}
	return nil
}

// file returns the *os.File under w, if there is one (stdout is wrapped
// in a StdoutWriter).
func file(w io.Writer) *os.File {
	if s, ok := w.(*StdoutWriter); ok {
		w = s.W
	}
	f, _ := w.(*os.File)
	return f
}
