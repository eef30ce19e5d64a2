//go:build !unix

package shard

import "os"

// lockFile creates path; without flock, other systems get no lock.
func lockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
}
