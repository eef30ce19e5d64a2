//go:build !linux

package cli

import "errors"

// mknod fails: the devices the tests make are Linux's (major:minor
// numbers differ elsewhere), and the tests fall back to a link or skip.
func mknod(path string, mode uint32, major, minor int) error { return errors.ErrUnsupported }
