package payload

import (
	"path/filepath"
	"testing"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/internal/testkit"
)

// linkDir makes link a link to the directory target with mk (a symbolic link here, a
// junction on Windows), skipping when this system cannot make one.
func linkDir(t *testing.T, mk func(target, link string) bool, target, link string) {
	t.Helper()
	if !mk(target, link) {
		t.Skip("this system cannot make the link")
	}
}

// testDataDirThroughLink: a data directory reached through a link (made by mk) is
// taken at its final path, so a payload that holds its target is refused as
// containing the staging folder, and bundles elsewhere are reported at their final
// paths.
func testDataDirThroughLink(t *testing.T, mk func(target, link string) bool) {
	ws := t.TempDir()
	tree(t, ws, map[string]string{"a/f.txt": "f", "a/data/": "", "b.txt": "b"})
	inside := filepath.Join(t.TempDir(), "data")
	linkDir(t, mk, filepath.Join(ws, "a", "data"), inside)
	_, err := Stage(inside, mustValidate(t, ws, "a"), "x")
	errContains(t, err, "contains the Sandbox staging folder")
	if n := bundles(t, inside); len(n) != 0 {
		t.Fatalf("refusal left %v", n)
	}

	target := t.TempDir()
	outside := filepath.Join(t.TempDir(), "data")
	linkDir(t, mk, target, outside)
	runs, err := runsDir(outside)
	if err != nil {
		t.Fatal(err)
	}
	final, err := contain.ResolveDir(filepath.Join(target, RunsDir))
	if err != nil {
		t.Fatal(err)
	}
	if runs != final {
		t.Fatalf("runsDir = %s, want the final path %s", runs, final)
	}
	b, err := Stage(outside, mustValidate(t, ws, "b.txt"), "x")
	if err != nil {
		t.Fatal(err)
	}
	if !contain.Within(final, b.Dir) {
		t.Fatalf("bundle %s is not under the final path %s", b.Dir, final)
	}
}

func TestDataDirThroughSymlink(t *testing.T) {
	t.Parallel()
	testDataDirThroughLink(t, testkit.Symlink)
}
