//go:build !unix

package external

import "os/exec"

// ownGroup does nothing where there are no process groups: a cancelled
// cmd kills the solver process only.
func ownGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) error { return nil }
