//go:build !windows

package payload

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/windows-dev-agent/wda/internal/testkit"
)

// TestSwapAfterValidation: links swapped in between nomination and staging are refused
// and leave no bundle.
func TestSwapAfterValidation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		paths []string
		swap  string // replaced by a link to the same-named node outside
		want  string
	}{
		{"dir inside a selected tree", []string{"tree"}, "tree/sub", "payload contains a symbolic link or reparse point: tree/sub"},
		{"file inside a selected tree", []string{"tree"}, "tree/sub/f.txt", "payload contains a symbolic link or reparse point: tree/sub/f.txt"},
		{"selected root", []string{"tree/sub/f.txt"}, "tree/sub/f.txt", "payload contains a symbolic link or reparse point: tree/sub/f.txt"},
		{"parent of a selected child", []string{"tree/sub/f.txt"}, "tree", "payload path crosses a symbolic link or reparse point: tree"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws, outside, data := t.TempDir(), t.TempDir(), t.TempDir()
			layout := map[string]string{"tree/sub/f.txt": "inside", "tree/g.txt": "g"}
			tree(t, ws, layout)
			tree(t, outside, map[string]string{"tree/sub/f.txt": "OUTSIDE", "tree/g.txt": "OUTSIDE"})
			sel := mustValidate(t, ws, tc.paths...)
			victim := filepath.Join(ws, tc.swap)
			if err := os.RemoveAll(victim); err != nil {
				t.Fatal(err)
			}
			symlink(t, filepath.Join(outside, tc.swap), victim)
			_, err := Stage(data, sel, "x")
			errContains(t, err, tc.want)
			if n := bundles(t, data); len(n) != 0 {
				t.Fatalf("failed staging left %v", n)
			}
		})
	}
}

// TestSwapDuringStaging injects a swap through the test hook in the window between a
// node's no-follow stat and its open: the open itself must catch it.
func TestSwapDuringStaging(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		victim string
		swap   func(t *testing.T, victim, outside string)
		want   string
	}{
		{"file to link", "tree/sub/f.txt", func(t *testing.T, v, o string) {
			os.Remove(v)
			symlink(t, filepath.Join(o, "tree/sub/f.txt"), v)
		}, "payload contains a symbolic link or reparse point: tree/sub/f.txt"},
		{"dir to link", "tree/sub", func(t *testing.T, v, o string) {
			os.RemoveAll(v)
			symlink(t, filepath.Join(o, "tree/sub"), v)
		}, "payload contains a symbolic link or reparse point: tree/sub"},
		{"file to FIFO (must not block)", "tree/sub/f.txt", func(t *testing.T, v, _ string) {
			os.Remove(v)
			if err := unix.Mkfifo(v, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "changed during staging and could not be staged safely: tree/sub/f.txt"},
		{"file to another file", "tree/sub/f.txt", func(t *testing.T, v, _ string) {
			// Created before the old one goes, so the inode cannot be reused.
			tree(t, filepath.Dir(v), map[string]string{"f.new": "replacement"})
			if err := os.Rename(filepath.Join(filepath.Dir(v), "f.new"), v); err != nil {
				t.Fatal(err)
			}
		}, "changed during staging and could not be staged safely: tree/sub/f.txt"},
		{"dir to file", "tree/sub", func(t *testing.T, v, _ string) {
			os.RemoveAll(v)
			tree(t, filepath.Dir(v), map[string]string{"sub": "now a file"})
		}, "changed during staging and could not be staged safely: tree/sub"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws, outside, data := t.TempDir(), t.TempDir(), t.TempDir()
			tree(t, ws, map[string]string{"tree/sub/f.txt": "inside", "tree/a.txt": "a"})
			tree(t, outside, map[string]string{"tree/sub/f.txt": "OUTSIDE"})
			sel := mustValidate(t, ws, "tree")
			victim := filepath.Join(ws, tc.victim)
			fired := false
			hook := func(p string) {
				if p == victim && !fired {
					fired = true
					tc.swap(t, victim, outside)
				}
			}
			_, err := stage(data, sel, "x", defaultLimits, hook)
			if !fired {
				t.Fatal("hook never reached the victim")
			}
			errContains(t, err, tc.want)
			if n := bundles(t, data); len(n) != 0 {
				t.Fatalf("failed staging left %v", n)
			}
		})
	}
}

// TestParentSwapAfterOpen: once a directory is open, swapping its path for a link
// cannot redirect staging: children are opened relative to the held descriptor, so
// what is staged is the original content, never the link's target.
func TestParentSwapAfterOpen(t *testing.T) {
	t.Parallel()
	ws, outside, data := t.TempDir(), t.TempDir(), t.TempDir()
	tree(t, ws, map[string]string{"tree/sub/f.txt": "inside"})
	tree(t, outside, map[string]string{"tree/sub/f.txt": "OUTSIDE"})
	sel := mustValidate(t, ws, "tree")
	victim := filepath.Join(ws, "tree/sub/f.txt")
	fired := false
	hook := func(p string) {
		if p == victim && !fired {
			fired = true
			if err := os.Rename(filepath.Join(ws, "tree"), filepath.Join(ws, "moved")); err != nil {
				t.Error(err)
			}
			symlink(t, filepath.Join(outside, "tree"), filepath.Join(ws, "tree"))
		}
	}
	b, err := stage(data, sel, "x", defaultLimits, hook)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(b.Share, PayloadDir, "tree/sub/f.txt"))
	if err != nil || string(got) != "inside" {
		t.Fatalf("staged %q, %v; want the original content", got, err)
	}
}

func TestRunsDirMustBeReal(t *testing.T) {
	t.Parallel()
	ws, data, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
	tree(t, ws, map[string]string{"f": "f"})
	symlink(t, elsewhere, filepath.Join(data, RunsDir))
	_, err := Stage(data, mustValidate(t, ws, "f"), "x")
	errContains(t, err, "is not a real directory")
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("staging wrote through the link: %v", entries)
	}
}

// TestStageFailureRemovesPartialBundle: a failure late in the copy (after other files
// were staged) still removes everything.
func TestStageFailureRemovesPartialBundle(t *testing.T) {
	t.Parallel()
	ws, data := t.TempDir(), t.TempDir()
	tree(t, ws, map[string]string{"a/1.txt": "1", "a/2.txt": "2", "z/late.txt": "late"})
	sel := mustValidate(t, ws, "a", "z")
	late := filepath.Join(ws, "z/late.txt")
	var sawBundle bool
	hook := func(p string) {
		if p == late {
			sawBundle = len(bundles(t, data)) == 1
			os.Remove(late)
			symlink(t, "/etc/passwd", late)
		}
	}
	_, err := stage(data, sel, "x", defaultLimits, hook)
	errContains(t, err, "reparse point")
	if !sawBundle {
		t.Fatal("the bundle did not exist when the late failure happened")
	}
	if n := bundles(t, data); len(n) != 0 {
		t.Fatalf("failed staging left %v", n)
	}
	if !strings.Contains(err.Error(), "z/late.txt") {
		t.Fatalf("error does not name the node: %v", err)
	}
}

// TestHardLinks: a file with more than one hard link may be a file outside the
// workspace under a second name; validation refuses it, and so does staging when the
// link appears after validation (issue 15, item 7).
func TestHardLinks(t *testing.T) {
	t.Parallel()
	ws, outside := t.TempDir(), t.TempDir()
	tree(t, outside, map[string]string{"secret.txt": "OUTSIDE"})
	tree(t, ws, map[string]string{"tree/a.txt": "a", "tree/sub/b.txt": "b"})
	if err := os.Link(filepath.Join(outside, "secret.txt"), filepath.Join(ws, "tree", "sub", "leak.txt")); err != nil {
		t.Skipf("hard links cannot be made here: %v", err)
	}
	for _, paths := range [][]string{{"tree"}, {"tree/sub"}, {"tree/sub/leak.txt"}, {"."}} {
		_, err := Validate(bind(t, ws), paths)
		errContains(t, err, "payload contains a file with more than one hard link, which may be a file outside the workspace: ")
		errContains(t, err, "leak.txt")
	}
	// Linked after nomination: staging counts the links on the opened handle.
	os.Remove(filepath.Join(ws, "tree", "sub", "leak.txt"))
	sel := mustValidate(t, ws, "tree")
	if err := os.Link(filepath.Join(outside, "secret.txt"), filepath.Join(ws, "tree", "a2.txt")); err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	_, err := Stage(data, sel, "x")
	errContains(t, err, "more than one hard link, which may be a file outside the workspace: tree/a2.txt")
	if n := bundles(t, data); len(n) != 0 {
		t.Fatalf("failed staging left %v", n)
	}
	// Linked between the node's stat and its open: the handle still says so.
	os.Remove(filepath.Join(ws, "tree", "a2.txt"))
	victim := filepath.Join(ws, "tree", "sub", "b.txt")
	hook := func(p string) {
		if p == victim {
			if err := os.Link(victim, filepath.Join(outside, "b-twin.txt")); err != nil {
				t.Error(err)
			}
		}
	}
	_, err = stage(data, mustValidate(t, ws, "tree"), "x", defaultLimits, hook)
	errContains(t, err, "more than one hard link, which may be a file outside the workspace: tree/sub/b.txt")
	if n := bundles(t, data); len(n) != 0 {
		t.Fatalf("failed staging left %v", n)
	}
}

// TestSwapRaceDuringStaging: while each validation and staging runs, another goroutine
// swaps a folder of the selected tree (or the bound workspace itself) for a link to an
// outside folder with the same names. Staging either refuses (and leaves no bundle) or
// stages the workspace's own files; the outside marker is never staged (issue 15,
// item 1).
func TestSwapRaceDuringStaging(t *testing.T) {
	t.Parallel()
	base, data := t.TempDir(), t.TempDir()
	ws, outside := filepath.Join(base, "proj"), filepath.Join(base, "outside")
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("tree/sub/f%02d.txt", i)] = "inside"
	}
	tree(t, ws, files)
	for name := range files {
		files[name] = "OUTSIDE-MARKER"
	}
	tree(t, outside, files)
	testkit.NeedSwaps(t, base)
	staged := 0
	const runs = 200
	for i := range runs {
		victim, target := filepath.Join(ws, "tree", "sub"), filepath.Join(outside, "tree", "sub")
		if i%2 == 1 {
			victim, target = ws, outside
		}
		p, err := testkit.Bind(base, "proj")
		if err != nil {
			t.Fatal(err)
		}
		var b *Bundle
		testkit.SwapDuring(t, victim, target, func() {
			var sel *Selection
			if sel, err = Validate(p, []string{"tree"}); err == nil {
				b, err = Stage(data, sel, "x")
			}
		})
		p.Close()
		if err != nil {
			if n := bundles(t, data); len(n) != 0 {
				t.Fatalf("failed staging (%v) left %v", err, n)
			}
			continue
		}
		staged++
		// What was staged is the workspace's own: the folder may have been staged under
		// its aside name if the listing saw the rename, but never the outside one.
		for name, content := range snapshot(t, filepath.Join(b.Share, PayloadDir)) {
			if content != "" && content != "inside" {
				t.Fatalf("run %d: staged %s = %q; want the workspace's own file", i, name, content)
			}
		}
		if err := Remove(b.Dir); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d of %d stagings completed, the others refused the swap", staged, runs)
}
