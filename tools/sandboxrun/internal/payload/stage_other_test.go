//go:build !windows

package payload

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSwapAfterValidation: links swapped in between nomination and staging are refused
// and leave no bundle.
func TestSwapAfterValidation(t *testing.T) {
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
			ws, outside, data := t.TempDir(), t.TempDir(), t.TempDir()
			tree(t, ws, map[string]string{"tree/sub/f.txt": "inside", "tree/a.txt": "a"})
			tree(t, outside, map[string]string{"tree/sub/f.txt": "OUTSIDE"})
			sel := mustValidate(t, ws, "tree")
			victim := filepath.Join(ws, tc.victim)
			fired := false
			hookBeforeOpen = func(p string) {
				if p == victim && !fired {
					fired = true
					tc.swap(t, victim, outside)
				}
			}
			defer func() { hookBeforeOpen = nil }()
			_, err := Stage(data, sel, "x")
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
	ws, outside, data := t.TempDir(), t.TempDir(), t.TempDir()
	tree(t, ws, map[string]string{"tree/sub/f.txt": "inside"})
	tree(t, outside, map[string]string{"tree/sub/f.txt": "OUTSIDE"})
	sel := mustValidate(t, ws, "tree")
	victim := filepath.Join(ws, "tree/sub/f.txt")
	hookBeforeOpen = func(p string) {
		if p == victim {
			hookBeforeOpen = nil
			if err := os.Rename(filepath.Join(ws, "tree"), filepath.Join(ws, "moved")); err != nil {
				t.Error(err)
			}
			symlink(t, filepath.Join(outside, "tree"), filepath.Join(ws, "tree"))
		}
	}
	defer func() { hookBeforeOpen = nil }()
	b, err := Stage(data, sel, "x")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(b.Share, PayloadDir, "tree/sub/f.txt"))
	if err != nil || string(got) != "inside" {
		t.Fatalf("staged %q, %v; want the original content", got, err)
	}
}

func TestRunsDirMustBeReal(t *testing.T) {
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
	ws, data := t.TempDir(), t.TempDir()
	tree(t, ws, map[string]string{"a/1.txt": "1", "a/2.txt": "2", "z/late.txt": "late"})
	sel := mustValidate(t, ws, "a", "z")
	late := filepath.Join(ws, "z/late.txt")
	var sawBundle bool
	hookBeforeOpen = func(p string) {
		if p == late {
			sawBundle = len(bundles(t, data)) == 1
			os.Remove(late)
			symlink(t, "/etc/passwd", late)
		}
	}
	defer func() { hookBeforeOpen = nil }()
	_, err := Stage(data, sel, "x")
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
