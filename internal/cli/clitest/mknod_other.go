//go:build !linux

package clitest

import "errors"

// Mknod fails: the devices the tests make are Linux's (major:minor
// numbers differ elsewhere), and the tests fall back to a link or skip.
func Mknod(path string, mode uint32, major, minor int) error { return errors.ErrUnsupported }
