//go:build !windows

package tooldiscover_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/tooldiscover"
)

// TestRealProbes runs the tool with real resolution and real processes: a fake `go`
// answers `version`, a fake `rider` must never run, and everything else is missing.
func TestRealProbes(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	marker := filepath.Join(t.TempDir(), "rider-ran")
	scripts := map[string]string{
		"go":    "#!/bin/sh\n[ \"$1\" = version ] && echo 'go version go1.99.0 linux/amd64'\n",
		"rider": "#!/bin/sh\ntouch " + marker + "\n",
	}
	for n, s := range scripts {
		if err := os.WriteFile(filepath.Join(bin, n), []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := &tools.Env{Getenv: func(k string) string {
		if k == "PATH" {
			return bin
		}
		return ""
	}}
	res, err := tooldiscover.New(tooldiscover.DefaultDeps()).Call(context.Background(), env, tools.Args{"category": "all"})
	if err != nil {
		t.Fatal(err)
	}
	out := res.(tooldiscover.Out)
	if err := testkit.CheckOutput(tooldiscover.New(tooldiscover.DefaultDeps()), out); err != nil {
		t.Fatalf("output does not conform to the output schema: %v", err)
	}
	g := out.Runtimes.Go
	if !out.ExecutionStarted || !g.Available || g.Version == nil || *g.Version != "go version go1.99.0 linux/amd64" ||
		g.VersionStatus != "known" || g.VersionSource != "command" || !filepath.IsAbs(g.Path) {
		t.Fatalf("go entry %+v (started %v)", g, out.ExecutionStarted)
	}
	r := out.Editors.Rider
	if !r.Available || r.Version != nil || r.VersionStatus != "unknown" || r.VersionSource != "windows_file_version" {
		t.Errorf("rider entry %+v", r)
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Fatal("rider was launched")
	}
	if out.Runtimes.Python.Available || out.VCS.Git.Available {
		t.Errorf("tools outside PATH reported available: %+v %+v", out.Runtimes.Python, out.VCS.Git)
	}
}
