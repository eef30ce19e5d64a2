package clitest

import "syscall"

// Mknod makes the device file path of the given mode (syscall.S_IFCHR
// or S_IFBLK, and permissions) with Linux's device numbers major:minor.
func Mknod(path string, mode uint32, major, minor int) error {
	return syscall.Mknod(path, mode, major<<8|minor)
}
