package payload

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools"
)

// bind binds ws as the call's workspace, as the pipeline does before sandbox_run runs.
func bind(t testing.TB, ws string) *tools.Project {
	t.Helper()
	return testkit.Project(t, ws)
}

// tree creates files (name → content; a name ending in "/" is a directory) under root.
func tree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	testkit.Tree(t, root, files, 0o644)
}

// snapshot lists every node under root as slash paths ("dir/" for directories) with
// file contents, for comparing a staged copy with its source.
func snapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			out[rel] = "<symlink>"
		case d.IsDir():
			out[rel+"/"] = ""
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// bundles lists what is under <dataDir>/sandbox-runs (nothing when it does not exist).
func bundles(t testing.TB, dataDir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dataDir, RunsDir))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// errContains fails unless err is non-nil and mentions want.
func errContains(t testing.TB, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("error = nil, want one containing %q", want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error = %q, want it to contain %q", err, want)
	}
}
