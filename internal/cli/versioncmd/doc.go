// Package versioncmd is queens version (also queens --version): the
// version queens writes into shard lines and checkpoints, the VCS
// revision and the Go version the binary was built with.
package versioncmd
