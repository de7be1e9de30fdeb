package tools_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools"
)

func TestResolveDir(t *testing.T) {
	root := t.TempDir()
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(root, "project")
	sub := filepath.Join(root, "home", "sub")
	file := filepath.Join(root, "file")
	for _, d := range []string{project, sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := &tools.Env{ProjectDir: project, Getenv: func(k string) string {
		return map[string]string{"HOME": filepath.Join(root, "home")}[k]
	}}
	tests := []struct {
		in, want, err string
	}{
		{in: "  ", want: filepath.Join(real, "project")},
		{in: project, want: filepath.Join(real, "project")},
		{in: "~/sub", want: filepath.Join(real, "home", "sub")},
		{in: file, err: "Not a directory: " + file},
		{in: filepath.Join(root, "missing"), err: "Not a directory: " + filepath.Join(root, "missing")},
	}
	if filepath.Separator == '\\' {
		tests = append(tests, struct{ in, want, err string }{in: `~\sub`, want: filepath.Join(real, "home", "sub")})
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := tools.ResolveDir(env, tt.in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("ResolveDir(%q) = %q, %v; want error %q", tt.in, got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ResolveDir(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

// TestRealDirThroughLink: the named directory may itself be a link; the result is its
// target.
func TestRealDirThroughLink(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "target")
	link := filepath.Join(root, "link")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if !testkit.Symlink(target, link) {
		t.Skip("this system cannot create symlinks")
	}
	want, err := filepath.EvalSymlinks(target)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := tools.RealDir(link); err != nil || got != want {
		t.Fatalf("RealDir(link) = %q, %v; want %q", got, err, want)
	}
}
