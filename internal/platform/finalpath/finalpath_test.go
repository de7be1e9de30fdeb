package finalpath

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestStripVerbatim(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`\\?\C:\x\y`:           `C:\x\y`,
		`\\?\UNC\srv\share\d`:  `\\srv\share\d`,
		`\\?\unc\srv\share`:    `\\srv\share`,
		`C:\plain`:             `C:\plain`,
		`\\srv\share`:          `\\srv\share`,
		`\\?\Volume{abc}\path`: `Volume{abc}\path`,
		``:                     ``,
	} {
		if got := StripVerbatim(in); got != want {
			t.Errorf("StripVerbatim(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOfFollowsTheHandle: after the directory is renamed, the handle still names it at
// its new place, and a link at the old place does not change the answer.
func TestOfFollowsTheHandle(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	real, err := filepath.EvalSymlinks(base)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(real, "a")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := Of(f)
	if err != nil {
		t.Fatal(err)
	}
	if !samePath(got, dir) {
		t.Fatalf("Of = %q, want %q", got, dir)
	}
	if runtime.GOOS == "windows" {
		return // an open directory cannot be renamed on Windows
	}
	moved := filepath.Join(real, "b")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), dir); err != nil {
		t.Fatal(err)
	}
	got, err = Of(f)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "linux" && !samePath(got, moved) {
		t.Fatalf("after rename Of = %q, want %q", got, moved)
	}
}

func samePath(a, b string) bool {
	if runtime.GOOS == "windows" {
		return filepath.Clean(a) == filepath.Clean(b) || len(a) == len(b) && equalFold(a, b)
	}
	return filepath.Clean(a) == filepath.Clean(b)
}

func equalFold(a, b string) bool {
	for i := range a {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
