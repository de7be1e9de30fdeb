//go:build !windows

package payload

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// On Unix a symbolic link stands in for every Windows reparse point.

func symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func TestValidateLinks(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	tree(t, outside, map[string]string{"secret.txt": "s", "dir/f.txt": "f"})
	ws := t.TempDir()
	tree(t, ws, map[string]string{"real/child.txt": "c", "tree/a/b/c/file.txt": "x", "plain.txt": "p"})
	symlink(t, filepath.Join(ws, "real"), filepath.Join(ws, "rootlink"))                   // inside target
	symlink(t, "real", filepath.Join(ws, "parentlink"))                                    // relative, inside
	symlink(t, filepath.Join(outside, "dir"), filepath.Join(ws, "outlink"))                // escapes
	symlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(ws, "tree/a/b/c/leak")) // deep
	symlink(t, "nowhere", filepath.Join(ws, "dangling"))
	tests := []struct {
		name  string
		paths []string
		want  string
	}{
		{"link at the root, target inside", []string{"rootlink"}, "payload path crosses a symbolic link or reparse point: rootlink"},
		{"link parent of a selected child", []string{"parentlink/child.txt"}, "payload path crosses a symbolic link or reparse point: parentlink"},
		{"link escaping the workspace", []string{"outlink/f.txt"}, "payload path crosses a symbolic link or reparse point: outlink"},
		{"dangling link", []string{"dangling"}, "payload path crosses a symbolic link or reparse point: dangling"},
		{"link deep in a selected tree", []string{"tree"}, "payload contains a symbolic link or reparse point: tree/a/b/c/leak"},
		{"link deep, selected from the middle", []string{"tree/a/b"}, "payload contains a symbolic link or reparse point: tree/a/b/c/leak"},
		{"workspace with a link inside", []string{"."}, "symbolic link or reparse point"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Validate(bind(t, ws), tc.paths)
			errContains(t, err, tc.want)
		})
	}
	if _, err := Validate(bind(t, ws), []string{"real", "plain.txt"}); err != nil {
		t.Fatalf("link-free roots refused: %v", err)
	}
}

// TestWorkspaceThroughLink: the workspace itself may be reached through a link (it is
// the user's project); its contents may not.
func TestWorkspaceThroughLink(t *testing.T) {
	t.Parallel()
	real := t.TempDir()
	tree(t, real, map[string]string{"f.txt": "f"})
	link := filepath.Join(t.TempDir(), "ws")
	symlink(t, real, link)
	sel, err := Validate(bind(t, link), []string{"f.txt"})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(real)
	if sel.Workspace != want {
		t.Fatalf("workspace = %s, want the real path %s", sel.Workspace, want)
	}
}

func TestValidateSpecialFiles(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	tree(t, ws, map[string]string{"d/ok.txt": "ok"})
	if err := unix.Mkfifo(filepath.Join(ws, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(filepath.Join(ws, "d", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(ws, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() }) // not defer: the parallel subtests run after this function returns
	tests := []struct{ path, want string }{
		{"fifo", "neither a regular file nor a directory: fifo"},
		{"d", "neither a regular file nor a directory: d/fifo"},
		{"sock", "neither a regular file nor a directory: sock"},
	}
	dev := filepath.Join(ws, "null")
	switch err := unix.Mknod(dev, unix.S_IFCHR|0o600, int(unix.Mkdev(1, 3))); {
	case err == nil:
		tests = append(tests, struct{ path, want string }{"null", "neither a regular file nor a directory: null"})
	case errors.Is(err, unix.EPERM):
		t.Log("mknod not permitted here; the device case is covered by FIFOs and sockets")
	default:
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			_, err := Validate(bind(t, ws), []string{tc.path})
			errContains(t, err, tc.want)
		})
	}
}
