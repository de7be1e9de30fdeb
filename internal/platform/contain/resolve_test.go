package contain_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/internal/testkit"
)

func TestResolveDir(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	proj := filepath.Join(base, "project")
	sub := filepath.Join(proj, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(proj, "file.txt")
	testkit.WriteFile(t, file, "x")
	realProj, err := contain.ResolveDir(proj)
	if err != nil {
		t.Fatal(err)
	}
	got, err := contain.ResolveDir(sub)
	if err != nil {
		t.Fatal(err)
	}
	if rel, ok := contain.Rel(realProj, got); !ok || rel != "sub" {
		t.Errorf("resolved child %q is not sub of the resolved root %q", got, realProj)
	}
	again, err := contain.ResolveDir(filepath.Join(sub, "..", "sub", "."))
	if err != nil || !contain.Same(again, got) {
		t.Errorf("an uncleaned spelling resolved to %q, %v; want %q", again, err, got)
	}
	for _, bad := range []string{file, filepath.Join(proj, "missing")} {
		_, err := contain.ResolveDir(bad)
		var nd *contain.NotDirError
		if !errors.As(err, &nd) || err.Error() != "Not a directory: "+bad {
			t.Errorf("ResolveDir(%q) error = %v, want Not a directory: %s", bad, err, bad)
		}
	}
}

// TestResolveDirRelative: a relative path is made absolute against the working
// directory, and a refusal names that absolute form.
func TestResolveDirRelative(t *testing.T) {
	t.Parallel()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	got, err := contain.ResolveDir(".")
	if err != nil {
		t.Fatal(err)
	}
	if real, err := contain.ResolveDir(wd); err != nil || got != real {
		t.Errorf("ResolveDir(.) = %q, ResolveDir(%q) = %q, %v", got, wd, real, err)
	}
	_, err = contain.ResolveDir("no-such-dir-here")
	if want := "Not a directory: " + filepath.Join(wd, "no-such-dir-here"); err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

// A symbolic link inside the project that points outside resolves outside.
func TestResolveDirSymlinkEscape(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	proj := filepath.Join(base, "project")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{proj, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(proj, "escape")
	if !testkit.Symlink(outside, link) {
		t.Skip("symbolic links cannot be created here")
	}
	realProj, err := contain.ResolveDir(proj)
	if err != nil {
		t.Fatal(err)
	}
	got, err := contain.ResolveDir(link)
	if err != nil {
		t.Fatal(err)
	}
	if contain.Within(realProj, got) {
		t.Errorf("link %q resolved to %q, which must not count as inside %q", link, got, realProj)
	}
	realOutside, _ := contain.ResolveDir(outside)
	if got != realOutside {
		t.Errorf("link resolved to %q, want %q", got, realOutside)
	}
	if strings.Contains(got, "escape") {
		t.Errorf("the link's own name survived resolution: %q", got)
	}
}
