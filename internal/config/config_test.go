package config_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/windows-dev-agent/wda/internal/config"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDataDir(t *testing.T) {
	t.Parallel()
	home := filepath.Join(string(filepath.Separator)+"home", "u")
	if runtime.GOOS == "windows" {
		home = `C:` + home // a home directory is an absolute path (internal/platform/home)
	}
	codex := filepath.Join(home, "c") // CODEX_HOME must be absolute (config.CodexHome)
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip("no user cache dir here")
	}
	fallback := filepath.Join(cache, "windows-dev-agent")
	cases := []struct {
		name, host string
		env        map[string]string
		want       string
	}{
		{"claude explicit wins", "claude", map[string]string{"WINDOWS_DEV_AGENT_DATA_DIR": "/a", "CLAUDE_PLUGIN_DATA": "/b"}, "/a"},
		{"claude plugin data", "claude", map[string]string{"CLAUDE_PLUGIN_DATA": "/b"}, "/b"},
		{"claude unexpanded placeholder", "claude", map[string]string{"WINDOWS_DEV_AGENT_DATA_DIR": "${CLAUDE_PLUGIN_DATA}", "CLAUDE_PLUGIN_DATA": "/b"}, "/b"},
		{"claude fallback", "claude", nil, fallback},
		{"codex explicit wins", "codex", map[string]string{"WINDOWS_DEV_AGENT_DATA_DIR": "/d", "CODEX_HOME": codex, "PLUGIN_DATA": "/p"}, "/d"},
		{"codex CODEX_HOME beats PLUGIN_DATA", "codex", map[string]string{"CODEX_HOME": codex, "PLUGIN_DATA": "/p"}, filepath.Join(codex, "plugins", "data", "windows-dev-agent")},
		{"codex CODEX_HOME relative is no Codex home", "codex", map[string]string{"HOME": home, "USERPROFILE": home, "CODEX_HOME": "cx"}, fallback},
		{"codex CODEX_HOME unexpanded counts as unset", "codex", map[string]string{"HOME": home, "USERPROFILE": home, "CODEX_HOME": "${CODEX_HOME}"}, filepath.Join(home, ".codex", "plugins", "data", "windows-dev-agent")},
		{"codex default ~/.codex", "codex", map[string]string{"HOME": home, "USERPROFILE": home}, filepath.Join(home, ".codex", "plugins", "data", "windows-dev-agent")},
		{"codex without a home", "codex", map[string]string{"HOME": "relative"}, fallback},
		{"codex CODEX_HOME with ~", "codex", map[string]string{"HOME": home, "USERPROFILE": home, "CODEX_HOME": "~/cx"}, filepath.Join(home, "cx", "plugins", "data", "windows-dev-agent")},
		{"generic explicit", "generic", map[string]string{"WINDOWS_DEV_AGENT_DATA_DIR": "/g", "CLAUDE_PLUGIN_DATA": "/b"}, "/g"},
		{"generic ignores host variables", "generic", map[string]string{"CLAUDE_PLUGIN_DATA": "/b", "CODEX_HOME": codex}, fallback},
		{"copilot explicit wins", "copilot", map[string]string{"WINDOWS_DEV_AGENT_DATA_DIR": "/e", "COPILOT_PLUGIN_DATA": "/cp", "PLUGIN_DATA": "/p"}, "/e"},
		{"copilot plugin data (what its hooks get)", "copilot", map[string]string{"COPILOT_PLUGIN_DATA": "/cp", "PLUGIN_DATA": "/p"}, "/cp"},
		{"copilot Agent Plugins data", "copilot", map[string]string{"PLUGIN_DATA": "/p"}, "/p"},
		{"copilot unexpanded placeholders", "copilot", map[string]string{"WINDOWS_DEV_AGENT_DATA_DIR": "${PLUGIN_DATA}", "PLUGIN_DATA": "${PLUGIN_DATA}"}, fallback},
		{"copilot ignores Claude's variable", "copilot", map[string]string{"CLAUDE_PLUGIN_DATA": "/b"}, fallback},
		{"gemini has no data directory", "gemini", map[string]string{"PLUGIN_DATA": "/p", "CLAUDE_PLUGIN_DATA": "/b"}, fallback},
		{"gemini explicit", "gemini", map[string]string{"WINDOWS_DEV_AGENT_DATA_DIR": "/gm"}, "/gm"},
		{"mcpb has no data directory", "mcpb", map[string]string{"PLUGIN_DATA": "/p"}, fallback},
	}
	for _, c := range cases {
		if got := config.DataDir(c.host, env(c.env)); got != c.want {
			t.Errorf("%s: DataDir = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	e := env(map[string]string{"WINDOWS_DEV_AGENT_PROJECT_DIR": "/p", "WINDOWS_DEV_AGENT_CATALOG": "/cat.yaml", "CLAUDE_PLUGIN_DATA": "/b"})
	c, err := config.Resolve("claude", config.Flags{}, e)
	if err != nil || c.DataDir != "/b" || c.ProjectDir != "/p" || c.CatalogPath != "/cat.yaml" || c.Host != "claude" {
		t.Fatalf("%+v %v", c, err)
	}
	c, _ = config.Resolve("claude", config.Flags{DataDir: "/flag", ProjectDir: "/proj"}, e)
	if c.DataDir != "/flag" || c.ProjectDir != "/proj" {
		t.Fatalf("flags lost: %+v", c)
	}
	c, _ = config.Resolve("claude", config.Flags{DataDir: "${CLAUDE_PLUGIN_DATA}"}, e)
	if c.DataDir != "/b" {
		t.Fatalf("an unexpanded flag must count as unset: %+v", c)
	}
	if c, _ := config.Resolve("codex", config.Flags{}, env(nil)); c.ProjectDir != "" {
		t.Fatalf("codex has no session project: %+v", c)
	}
	for _, h := range []string{"copilot", "mcpb"} {
		if c, _ := config.Resolve(h, config.Flags{}, env(nil)); c.ProjectDir != "" {
			t.Fatalf("%s has no session project: %+v", h, c)
		}
	}
	g := env(map[string]string{"WINDOWS_DEV_AGENT_PROJECT_DIR": "/ws"})
	if c, _ := config.Resolve("gemini", config.Flags{}, g); c.ProjectDir != "/ws" {
		t.Fatalf("gemini project = %q, want the workspace the host gave", c.ProjectDir)
	}
	for _, unset := range []string{"", "${workspacePath}"} {
		g := env(map[string]string{"WINDOWS_DEV_AGENT_PROJECT_DIR": unset})
		if c, _ := config.Resolve("gemini", config.Flags{}, g); c.ProjectDir != "" {
			t.Fatalf("gemini without a workspace must not fall back to the current directory: %+v", c)
		}
	}
	wd, _ := os.Getwd()
	if c, _ := config.Resolve("generic", config.Flags{}, env(nil)); c.ProjectDir != wd {
		t.Fatalf("generic project = %q, want the current directory", c.ProjectDir)
	}
	for _, bad := range []string{"", "Claude", "vscode"} {
		if _, err := config.Resolve(bad, config.Flags{}, e); err == nil {
			t.Errorf("Resolve(%q) succeeded", bad)
		}
	}
}
