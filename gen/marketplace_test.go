package gen_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/windows-dev-agent/wda"
)

// The Claude marketplace at the repository root must name this plugin and point at the
// generated payload.
func TestClaudeMarketplace(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", ".claude-plugin", "marketplace.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Name    string
		Plugins []struct{ Name, Source string }
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Name != wda.ServerName || len(m.Plugins) != 1 || m.Plugins[0].Name != wda.ServerName {
		t.Fatalf("marketplace names %+v, want %s", m, wda.ServerName)
	}
	manifest := filepath.Join("..", filepath.FromSlash(m.Plugins[0].Source), ".claude-plugin", "plugin.json")
	if _, err := os.Stat(manifest); err != nil {
		t.Fatalf("marketplace source has no plugin manifest: %v", err)
	}
}
