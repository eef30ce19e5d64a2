// Package shard splits an N-Queens count into shards that any batch engine
// (a Kubernetes Indexed Job, a Slurm job array, GNU parallel) can run as
// independent processes, writes each shard's result as one self-checking
// line of JSON, and merges the lines back into the count, refusing anything
// that does not add up: a missing or duplicated shard, shards of another
// board, split or version, a line whose checksum does not match, a line
// that is not a shard result.
//
// A count is cut into the pieces of [backtrack.Subproblems] (the four
// queens on the border of the board, in a normal form under the board's
// symmetries, each piece weighted by the number of its images, and one
// piece that finds the symmetric solutions for the unique count), many
// more pieces than machines so that uneven costs even out. Shard I of K
// (0-based) takes the pieces at positions I, I+K, I+2K, ... of that list
// (the scheme [Scheme]); when K exceeds the number of pieces some shards
// cover none, and they must still be merged.
//
// The half-board join of package join ([EngineJoin]) cannot count those
// pieces cheaply and has its own split, [JoinScheme] ("join-parts-3"): the
// pieces of [join.Pieces] (the boards whose middle-row queen and outer
// top-half columns are given, weighted by their top-bottom mirror image,
// and the symmetric piece), dealt round-robin the same way. A join line lists
// each piece as [middle, outer, weight] (middle -1 on an even board, -3
// for the middle queen in any inner column, -2 for the symmetric piece);
// Parse checks that it is one of the split's. Lines of the two schemes
// are different work and never merge.
//
// For boards whose constellations are too large to be a unit of work
// (n = 28: a constellation is weeks of a core), [Spec.Split] cuts each
// into sub-parts ([backtrack.Subproblem.Split]) that add up to it
// exactly, and the shards deal those out the same way (the scheme
// [SchemeSplit], "round-robin-split"; a piece is [top, bottom, left,
// right, part]); its lines merge only with lines of the same split.
//
// A result line looks like this (one line; wrapped here):
//
//	{"kind":"queens-shard","n":10,"shard":1,"shards":40,"scheme":"round-robin","engine":"constellations",
//	 "parts":273,"covered":7,"pieces":[[0,5,0,7],[1,5,6,7],[1,4,4,2],[1,3,4,5],[2,3,3,4],[1,6,4,2],[1,5,5,2]],
//	 "tallies":[[192,24,119],[0,0,27],[0,0,12],[0,0,17],[0,0,43],[192,24,13],[0,0,6]],
//	 "total":"16","unique":"2","total24":384,"unique24":48,"nodes":237,
//	 "elapsed":0,"host":"node1","threads":2,"start":"2026-12-01T03:01:16Z",
//	 "version":"devel+69e1ecf68a94","fingerprint":"9a4961af90a11f355fd48fbd903f78de",
//	 "checksum":"82b0a8ba339e998bfa7a991cb1713aac817dfc4c376fc9e1130cadd2b4f5f7db"}
//
// A piece is [top, bottom, left, right]: the columns of the queens in the
// first and last rows, the rows of the queens in the first and last
// columns (0-based). Its tally is [total24, unique24, nodes]: 24 × the
// solutions it stands for, 24 × its share of the classes up to symmetry,
// and the queens its search placed. total and unique are the exact
// partial sums (a whole number, or a reduced fraction such as "15/8": a
// piece adds 1/8 of a class to the unique count for each solution it
// stands for), total24 and unique24 the same sums times 24; only the sums
// over all shards are sure to be whole. host, threads and start say where
// and how the shard ran (merge --stats reports them; nothing checks
// them). The fingerprint is a hash of the work the shard covered (n,
// scheme, K, I, its pieces, version), so that results of different splits
// or versions cannot be merged by accident; the checksum is the SHA-256 of
// the line up to the checksum field (with the closing brace), which
// catches a truncated or edited line.
//
// What is checked, and what is not. [Parse] checks the checksum, the form
// of the line, and that its numbers can be: each tally is one that its
// piece can have (see [backtrack.Subproblem.CheckTally]) and the sums are
// the tallies' sums, without overflow. [Merge] checks that the lines are
// every shard of one count (a shard given twice must agree with itself,
// and then counts as a confirmation) and that the sums are whole and
// possible. All this guards against accidents, not against someone who
// edits a line consistently and recomputes the checksum: only recounting
// catches that, which [Verify] does for pieces drawn at random.
//
// A [Checkpoint] records the pieces of a shard (or of a whole count, shard
// 0 of 1) as they finish, so that an interrupted run continues where it
// stopped.
package shard
