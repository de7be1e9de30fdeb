//go:build unix

package projectscan_test

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/tools/workflowplan/internal/projectscan"
)

// A FIFO planted as a marker is neither evidence nor opened (an open would block).
func TestScanFIFOIsNotOpened(t *testing.T) {
	t.Parallel()
	root, dir := fixture(t, nil)
	for _, n := range []string{"package.json", "go.mod"} {
		if err := syscall.Mkfifo(filepath.Join(dir, n), 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	got := projectscan.Scan(root, shippedLike)
	const why = "a link, reparse point or special file; not followed"
	want := normalize(projectscan.Result{Skipped: []projectscan.Skipped{{"go.mod", why}, {"package.json", why}}})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
