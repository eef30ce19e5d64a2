// Package servecmd is queens serve: the interactive board of
// internal/serve on a local address until a signal stops it, or written
// as a static site, its engines compiled to WebAssembly (--export).
package servecmd
