package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The fourth hardening pass (issue 33): nothing lost, no crash, no false
// claim on the surface the third pass added.

// TestStaleTempsOnlyOurs: the sweep of abandoned temporary files leaves
// alone every file whose name is not exactly of the form queens writes,
// however old: a user's .notes.queens-tmp-backup is no temporary file.
func TestStaleTempsOnlyOurs(t *testing.T) {
	dir := t.TempDir()
	elsewhere := newMachine("elsewhere", "", "")
	const random = "-0123456789abcdef"
	old := time.Now().Add(-10 * staleAge)
	names := []string{
		".notes" + tempSuffix + "backup",
		".x" + tempSuffix + elsewhere.tag + "-12" + random + "-copy",
		".x" + tempSuffix + elsewhere.tag + "-12-0123456789ABCDEF",
		".x" + tempSuffix + "a b-" + elsewhere.id + "-12" + random,
		".x" + tempSuffix + elsewhere.tag + "-012" + random,
		tempSuffix + elsewhere.tag + "-12" + random,       // no NAME
		"x" + tempSuffix + elsewhere.tag + "-12" + random, // not hidden
	}
	for _, name := range names {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte("precious"), 0o644)
		os.Chtimes(path, old, old)
	}
	removeStaleTemps(filepath.Join(dir, "out.txt"))
	for _, name := range names {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%q was removed: %v", name, err)
		}
	}
}
