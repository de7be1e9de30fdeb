package payload

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// mkBundle makes a folder under sandbox-runs, with or without the marker, aged by age.
func mkBundle(t *testing.T, data, name string, marker bool, age time.Duration, now time.Time) string {
	t.Helper()
	dir := filepath.Join(data, RunsDir, name)
	tree(t, dir, map[string]string{"share/payload/f.txt": "f"})
	if marker {
		tree(t, dir, map[string]string{MarkerFile: "1"})
	}
	if err := os.Chtimes(dir, now.Add(-age), now.Add(-age)); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestSweep(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	now := time.Now()
	old := 25 * time.Hour
	mkBundle(t, data, "run-old", true, old, now)
	mkBundle(t, data, "run-fresh", true, time.Hour, now)
	mkBundle(t, data, "run-nomarker", false, old, now)
	mkBundle(t, data, "other-old", true, old, now)
	removed, err := Sweep(data, now)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{filepath.Join(data, RunsDir, "run-old")}, removed); diff != "" {
		t.Fatalf("removed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"other-old", "run-fresh", "run-nomarker"}, bundles(t, data)); diff != "" {
		t.Fatalf("left (-want +got):\n%s", diff)
	}
	// The 24 h boundary itself is not stale.
	mkBundle(t, data, "run-edge", true, StaleAfter, now)
	if removed, _ := Sweep(data, now); len(removed) != 0 {
		t.Fatalf("a bundle exactly 24 h old was swept: %v", removed)
	}
}

func TestSweepNoRunsDir(t *testing.T) {
	t.Parallel()
	removed, err := Sweep(filepath.Join(t.TempDir(), "never-created"), time.Now())
	if err != nil || removed != nil {
		t.Fatalf("Sweep of a missing folder = %v, %v", removed, err)
	}
	if err := SweepStale(filepath.Join(t.TempDir(), "never-created")); err != nil {
		t.Fatal(err)
	}
}

func TestRemove(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	now := time.Now()
	good := mkBundle(t, data, "run-a", true, 0, now)
	unmarked := mkBundle(t, data, "run-b", false, 0, now)
	misnamed := mkBundle(t, data, "keep", true, 0, now)
	for _, dir := range []string{unmarked, misnamed} {
		if err := Remove(dir); err == nil {
			t.Errorf("Remove(%s) succeeded", dir)
		}
	}
	if err := Remove(good); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"keep", "run-b"}, bundles(t, data)); diff != "" {
		t.Fatalf("left (-want +got):\n%s", diff)
	}
}
