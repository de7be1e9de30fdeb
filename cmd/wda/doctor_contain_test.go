package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/testkit"
)

// TestDataDirInsidePlugin: the data directory check decides containment by the
// platform's rule (internal/platform/contain): by components, so a sibling folder
// whose name starts with the plugin's, or a child whose name starts with "..", is
// judged right; without case on Windows; and through links, also for a data
// directory not created yet.
func TestDataDirInsidePlugin(t *testing.T) {
	t.Parallel()
	base := testkit.TempDir(t)
	plugin := filepath.Join(base, "plugin")
	if err := os.MkdirAll(filepath.Join(plugin, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	outsideReal := filepath.Join(base, "elsewhere")
	if err := os.MkdirAll(outsideReal, 0o755); err != nil {
		t.Fatal(err)
	}
	linkedIn := filepath.Join(base, "linked-in")
	haveLinks := testkit.Symlink(filepath.Join(plugin, "data"), linkedIn)
	tests := []struct {
		name, dir string
		inside    bool
		needLinks bool
	}{
		{"child", filepath.Join(plugin, "data"), true, false},
		{"the plugin folder itself", plugin, true, false},
		{"deep child not created yet", filepath.Join(plugin, "a", "b"), true, false},
		{"child named ..cache", filepath.Join(plugin, "..cache"), true, false},
		{"sibling with the plugin's name as prefix", plugin + "-data", false, false},
		{"parent", base, false, false},
		{"elsewhere", outsideReal, false, false},
		{"through ..", filepath.Join(plugin, "..", "elsewhere"), false, false},
		{"link into the plugin", linkedIn, true, true},
		{"below a link into the plugin, not created yet", filepath.Join(linkedIn, "new"), true, true},
		{"elsewhere, not created yet", filepath.Join(outsideReal, "f", "data"), false, false},
	}
	if runtime.GOOS == "windows" {
		tests = append(tests, struct {
			name, dir string
			inside    bool
			needLinks bool
		}{"other case", strings.ToUpper(filepath.Join(plugin, "data")), true, false})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if tt.needLinks && !haveLinks {
				t.Skip("symbolic links cannot be created here")
			}
			c := dataDirCheck(tt.dir, plugin)
			got := c.State == checkFail && strings.Contains(c.Detail, "inside the plugin folder")
			if got != tt.inside {
				t.Errorf("dataDirCheck(%s) = %+v, want inside=%v", tt.dir, c, tt.inside)
			}
		})
	}
}
