package ecosystemscan

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
)

// TestHostInventoryHome: ~/.claude/plugins, ~/.claude.json and ~/.codex come from the
// platform's home directory (USERPROFILE first on Windows, HOME first elsewhere), the
// same ~ the host adapters bind project arguments with, even when HOME names another
// folder (Git Bash, MSYS).
func TestHostInventoryHome(t *testing.T) {
	t.Parallel()
	root, base := testkit.TempDir(t), testkit.TempDir(t)
	unixHome, winHome := filepath.Join(base, "home"), filepath.Join(base, "profile")
	want, other := unixHome, winHome
	if runtime.GOOS == "windows" {
		want, other = winHome, unixHome
	}
	for _, d := range []string{filepath.Join(want, ".claude", "plugins", "mine"), filepath.Join(other, ".claude", "plugins", "theirs"),
		filepath.Join(want, ".codex", "plugins", "personal"), filepath.Join(other, ".codex", "plugins", "wrong")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	testkit.WriteFile(t, filepath.Join(want, ".claude.json"), `{"mcpServers":{}}`)
	testkit.WriteFile(t, filepath.Join(other, ".claude.json"), `{"mcpServers":{}}`)
	rec := &recorder{paths: map[string]string{}}
	out, _ := run(t, envFor(root, "codex", map[string]string{"HOME": unixHome, "USERPROFILE": winHome}), In{IncludeHost: true}, rec.deps())
	inv := out.Inventory
	if diff := cmp.Diff([]string{"mine"}, inv.ClaudePlugins); diff != "" {
		t.Errorf("claude_plugins (-want +got)\n%s", diff)
	}
	if inv.CodexPlugins == nil || inv.CodexPlugins.Root != filepath.Join(want, ".codex", "plugins") {
		t.Errorf("codex_plugins = %+v, want the root under %s", inv.CodexPlugins, want)
	}
	if len(inv.MCP) != 1 || inv.MCP[0].File != filepath.Join(want, ".claude.json") {
		t.Errorf("host MCP configs: %+v, want only %s", inv.MCP, filepath.Join(want, ".claude.json"))
	}
}
