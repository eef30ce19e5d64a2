//go:build !unix

package cmdutil

import "os"

// openRegular opens the regular file path for reading.
func openRegular(path string) (*os.File, error) { return os.Open(path) }
