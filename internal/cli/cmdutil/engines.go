package cmdutil

import (
	"github.com/queens-dev/queens/shard"
)

// CountEngines returns the names of the engines --engine picks (besides
// auto): those of shard's table that count a whole board on the CPU, in
// its order (constellations, join).
func CountEngines() []string {
	var names []string
	for _, e := range shard.Engines() {
		if e.Count != nil {
			names = append(names, e.Name)
		}
	}
	return names
}
