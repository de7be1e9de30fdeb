//go:build !windows

package payload

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSweepRefusesLinks: a run-* link (to a folder holding a marker), a marker that is
// a link, and a linked sandbox-runs are never followed or deleted through.
func TestSweepRefusesLinks(t *testing.T) {
	t.Parallel()
	now := time.Now()
	data, victim := t.TempDir(), t.TempDir()
	tree(t, victim, map[string]string{MarkerFile: "1", "precious.txt": "keep me"})
	if err := os.MkdirAll(filepath.Join(data, RunsDir), 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(data, RunsDir, "run-link")
	symlink(t, victim, link)
	markerLink := mkBundle(t, data, "run-markerlink", false, 48*time.Hour, now)
	symlink(t, filepath.Join(victim, MarkerFile), filepath.Join(markerLink, MarkerFile))
	// Age the link's target: the link itself is refused whatever its age.
	if err := os.Chtimes(victim, now.Add(-48*time.Hour), now.Add(-48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	removed, _ := Sweep(data, now)
	if len(removed) != 0 {
		t.Fatalf("swept %v", removed)
	}
	if err := Remove(link); err == nil {
		t.Fatal("Remove deleted through a link")
	}
	if _, err := os.Stat(filepath.Join(victim, "precious.txt")); err != nil {
		t.Fatalf("the link target was touched: %v", err)
	}

	// A linked sandbox-runs is not swept through either.
	data2 := t.TempDir()
	realRuns := t.TempDir()
	mkBundle(t, realRuns, "x", false, 0, now) // makes realRuns/sandbox-runs/x
	old := filepath.Join(realRuns, RunsDir)
	tree(t, old, map[string]string{"run-z/" + MarkerFile: "1"})
	os.Chtimes(filepath.Join(old, "run-z"), now.Add(-48*time.Hour), now.Add(-48*time.Hour))
	symlink(t, old, filepath.Join(data2, RunsDir))
	if _, err := Sweep(data2, now); err == nil {
		t.Fatal("Sweep accepted a linked sandbox-runs")
	}
	if _, err := os.Stat(filepath.Join(old, "run-z")); err != nil {
		t.Fatal("swept through a linked sandbox-runs")
	}
}
