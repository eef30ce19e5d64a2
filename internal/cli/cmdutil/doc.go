// Package cmdutil is the layer the commands of queens share, as cli/cli's
// pkg/cmdutil is under its pkg/cmd/<command>: the one error type that
// carries the exit status (errors.go), the flag readers and the shared
// flags (flags.go, formats.go, unique.go), every limit (limits.go), the
// input files (input.go, compress.go), the output files (output.go:
// written to a temporary name and renamed), the solutions a command
// writes (emit.go), the counts, statistics and JSON lines it reports
// (report.go), the progress bar (progress.go), the referee and the
// external solver's flags (proof.go, counter.go) and the version
// (version.go). Each command's package under internal/cli imports it and
// no other command; the application (internal/cli) sets every command up
// with [SetUsageErrors].
package cmdutil
