// Package shard splits an N-Queens count into shards that any batch engine
// (a Kubernetes Indexed Job, a Slurm job array, GNU parallel) can run as
// independent processes, writes each shard's result as one self-checking
// line of JSON, and merges the lines back into the count, refusing anything
// that does not add up: a missing or duplicated shard, shards of another
// board, split or version, a line whose checksum does not match, a line
// that is not a shard result.
//
// A count is cut into the pieces of [backtrack.Subproblems] (the queens of
// the first two rows in a normal form under the board's symmetries, each
// piece weighted by its class), many more pieces than machines so that
// uneven costs even out. Shard I of K (0-based) takes the pieces at
// positions I, I+K, I+2K, ... of that list (the scheme [Scheme]); when K
// exceeds the number of pieces some shards cover none, and they must still
// be merged.
//
// A result line looks like this (one line; wrapped here):
//
//	{"kind":"queens-shard","n":10,"shard":1,"shards":4,"scheme":"round-robin",
//	 "depth":2,"parts":29,"covered":7,"pieces":[[1,4],[1,8],[2,6],[3,5],[4,1],[4,8],[0,5]],
//	 "total":"220","unique":"55/2","total24":5280,"unique24":660,"nodes":2226,
//	 "elapsed":0,"version":"devel","fingerprint":"fdd59a2e792c83900d2b6eec8cf0f005",
//	 "checksum":"4c456d920c16294edb352b0ec2a7d96214219b8a16619028dd0026453d0f75b7"}
//
// total and unique are the exact partial sums (a whole number, or a reduced
// fraction such as "2469/2" when a symmetric class is split over pieces),
// total24 and unique24 the same sums times 24; only the sums over all
// shards are sure to be whole. The fingerprint is a hash of the work the
// shard covered (n, scheme, K, I, its pieces, version), so that results of
// different splits or versions cannot be merged by accident; the checksum
// is the SHA-256 of the line up to the checksum field (with the closing
// brace), which catches a truncated or edited line. It guards against
// accidents, not against someone who recomputes it.
//
// A [Checkpoint] records the pieces of a shard (or of a whole count, shard
// 0 of 1) as they finish, so that an interrupted run continues where it
// stopped.
package shard
