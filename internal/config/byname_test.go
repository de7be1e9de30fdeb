package config_test

import (
	"path/filepath"
	"testing"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/internal/config"
)

func TestByName(t *testing.T) {
	env := func(k string) string {
		return map[string]string{"CODEX_HOME": "/cx", "CLAUDE_PLUGIN_DATA": "/cl"}[k]
	}
	for _, c := range []struct{ name, data string }{
		{"claude", "/cl"},
		{"codex", filepath.Join("/cx", "plugins", "data", "windows-dev-agent")},
		{"generic", ""},
	} {
		h, err := config.ByName(c.name, env)
		if err != nil {
			t.Fatal(err)
		}
		if h.Name() != c.name {
			t.Errorf("ByName(%q).Name() = %q", c.name, h.Name())
		}
		got := config.DataDir(h, env)
		if c.data != "" && got != c.data {
			t.Errorf("%s: DataDir = %q, want %q", c.name, got, c.data)
		}
		if c.data == "" && got != host.DefaultDataDir(env) {
			t.Errorf("generic DataDir = %q", got)
		}
	}
	for _, bad := range []string{"", "Claude", "vscode"} {
		if _, err := config.ByName(bad, nil); err == nil {
			t.Errorf("ByName(%q) succeeded", bad)
		}
	}
}
