package shard

import (
	"github.com/queens-dev/queens/backtrack"
)

// constellationPrint is the fingerprint of shard s of Scheme covering
// pieces.
func constellationPrint(s Spec, pieces []backtrack.Subproblem) string {
	r := Result{Scheme: Scheme, Pieces: pieces}
	return fingerprint(s, r.keys())
}
