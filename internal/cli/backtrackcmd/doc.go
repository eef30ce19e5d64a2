// Package backtrackcmd is queens backtrack: the first solution, --all,
// --limit K and --count of the native backtracker (backtrack.go), the
// count's engines, the constellation counter and the half-board join
// (engine.go), and the GPU (gpu.go), and the counts made of pieces,
// --shard and --checkpoint (shard.go), with their progress lines in a
// batch log (progresslog.go).
package backtrackcmd
