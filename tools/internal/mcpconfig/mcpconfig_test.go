package mcpconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools"
)

// normalise marshals v and replaces root with $ROOT (and, on Windows, separators with
// /) so fixtures are platform-neutral, then decodes it generically for cmp.
func normalise(t *testing.T, root string, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	esc, _ := json.Marshal(root)
	s := strings.ReplaceAll(string(b), strings.Trim(string(esc), `"`), "$ROOT")
	s = strings.ReplaceAll(s, `\\`, "/")
	var out any
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("fixture JSON: %v\n%s", err, s)
	}
	return v
}

func TestProjectFixtures(t *testing.T) {
	archives, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if len(archives) == 0 {
		t.Fatal("no fixtures")
	}
	for _, a := range archives {
		t.Run(filepath.Base(a), func(t *testing.T) {
			files := readTxtar(t, a)
			root := testkit.TempDir(t)
			materialise(t, root, files)
			configs := ReadAll(ProjectSources(root))
			if diff := cmp.Diff(decode(t, files["want.json"]), normalise(t, root, configs)); diff != "" {
				t.Errorf("configs (-want +got)\n%s", diff)
			}
			count, dups, malformed := Totals(configs)
			got := map[string]any{"count": count, "duplicates": dups, "malformed": malformed}
			if diff := cmp.Diff(decode(t, files["want-totals.json"]), normalise(t, root, got)); diff != "" {
				t.Errorf("totals (-want +got)\n%s", diff)
			}
		})
	}
}

func TestGuardedProjectReads(t *testing.T) {
	outside := testkit.TempDir(t)
	os.WriteFile(filepath.Join(outside, "real.json"), []byte(`{"mcpServers":{"x":{"command":"c"}}}`), 0o644)
	os.MkdirAll(filepath.Join(outside, "dir"), 0o755)
	os.WriteFile(filepath.Join(outside, "dir", "config.json"), []byte(`{"mcpServers":{"y":{"command":"c"}}}`), 0o644)

	t.Run("config is a symlink", func(t *testing.T) {
		root := testkit.TempDir(t)
		if !testkit.Symlink(filepath.Join(outside, "real.json"), filepath.Join(root, ".mcp.json")) {
			t.Skip("symbolic links cannot be created here")
		}
		configs := ReadAll(ProjectSources(root))
		if len(configs) != 1 || !strings.Contains(configs[0].Error, "reparse point") || len(configs[0].Servers) != 0 {
			t.Fatalf("got %+v", configs)
		}
	})
	t.Run("parent is a symlink", func(t *testing.T) {
		root := testkit.TempDir(t)
		if !testkit.Symlink(filepath.Join(outside, "dir"), filepath.Join(root, ".continue")) {
			t.Skip("symbolic links cannot be created here")
		}
		configs := ReadAll(ProjectSources(root))
		want := "project path crosses a symbolic link or reparse point: " + filepath.Join(root, ".continue")
		if len(configs) != 1 || configs[0].Error != want {
			t.Fatalf("got %+v, want error %q", configs, want)
		}
	})
	t.Run("3 MiB config", func(t *testing.T) {
		root := testkit.TempDir(t)
		big := `{"mcpServers":{"a":{"command":"` + strings.Repeat("x", 3<<20) + `"}}}`
		os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(big), 0o644)
		configs := ReadAll(ProjectSources(root))
		if len(configs) != 1 || configs[0].Error != "JSON config exceeds 2097152 byte read limit" {
			t.Fatalf("got %+v", configs)
		}
	})
}

func envWith(host string, vars map[string]string) *tools.Env {
	return &tools.Env{Host: host, Getenv: func(k string) string { return vars[k] }}
}

func TestHostSources(t *testing.T) {
	home := filepath.Join(t.TempDir(), "u")
	appdata := filepath.Join(home, "AppData", "Roaming")
	tests := []struct {
		name string
		env  *tools.Env
		want []Source
	}{
		{"claude host", envWith("claude", map[string]string{"HOME": home, "APPDATA": appdata, "CODEX_HOME": "/c"}), []Source{
			{Path: filepath.Join(home, ".claude.json")},
			{Path: filepath.Join(appdata, "Claude", "claude_desktop_config.json")},
		}},
		{"codex host, CODEX_HOME", envWith("codex", map[string]string{"USERPROFILE": home, "CODEX_HOME": filepath.Join(home, "cx")}), []Source{
			{Path: filepath.Join(home, ".claude.json")},
			{Path: filepath.Join(home, "cx", "config.toml"), TOML: true},
		}},
		{"codex host, default home", envWith("codex", map[string]string{"HOME": home}), []Source{
			{Path: filepath.Join(home, ".claude.json")},
			{Path: filepath.Join(home, ".codex", "config.toml"), TOML: true},
		}},
		{"nothing known", envWith("codex", map[string]string{"APPDATA": "relative"}), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, HostSources(tt.env)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestCodexTOML(t *testing.T) {
	dir := testkit.TempDir(t)
	p := filepath.Join(dir, "config.toml")
	os.WriteFile(p, []byte(`
[mcp_servers.docs]
command = "npx"
args = ["-y", "pkg"]
[mcp_servers.docs.env]
K = "v"
[mcp_servers.web]
url = "https://x.test"
env = {}
[mcp_servers.broken]
args = "x"
`), 0o644)
	c, ok := Read(Source{Path: p, TOML: true})
	if !ok {
		t.Fatal("missing")
	}
	got := normalise(t, dir, c)
	want := decode(t, `{"file": "$ROOT/config.toml", "servers": [
		{"name": "broken", "valid": false, "transport": "unknown", "has_command": false, "has_url": false, "arg_count": null, "has_env": false},
		{"name": "docs", "valid": true, "transport": "command", "has_command": true, "has_url": false, "arg_count": 2, "has_env": true},
		{"name": "web", "valid": true, "transport": "url", "has_command": false, "has_url": true, "arg_count": 0, "has_env": false}]}`)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}

	os.WriteFile(p, []byte("mcp_servers = 3\n"), 0o644)
	if c, _ := Read(Source{Path: p, TOML: true}); c.Error != "mcp_servers is not a table" {
		t.Errorf("error = %q", c.Error)
	}
	os.WriteFile(p, []byte("[mcp_servers.x]\ncommand = sk-secret-value\n"), 0o644)
	if c, _ := Read(Source{Path: p, TOML: true}); c.Error != "invalid TOML: line 2: invalid value" {
		t.Errorf("error = %q", c.Error)
	}
	os.WriteFile(p, []byte("model = 'x'\n"), 0o644)
	if c, _ := Read(Source{Path: p, TOML: true}); c.Error != "" || len(c.Servers) != 0 {
		t.Errorf("config without servers: %+v", c)
	}
}

func TestExplicitSource(t *testing.T) {
	root := testkit.TempDir(t)
	lex := filepath.Join(testkit.TempDir(t), "alias")
	env := envWith("claude", map[string]string{"HOME": filepath.Join(root, "home")})
	tests := []struct {
		in   string
		want Source
	}{
		{"cfg/x.json", Source{Path: filepath.Join(root, "cfg", "x.json"), Root: root}},
		{filepath.Join(root, "a.toml"), Source{Path: filepath.Join(root, "a.toml"), Root: root, TOML: true}},
		{filepath.Join(lex, "a.json"), Source{Path: filepath.Join(lex, "a.json"), Root: lex}},
		{"~/x.JSON", Source{Path: filepath.Join(root, "home", "x.JSON"), Root: root}},
		{"../outside.json", Source{Path: filepath.Join(filepath.Dir(root), "outside.json")}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, ExplicitSource(env, root, lex, tt.in)); diff != "" {
			t.Errorf("%q (-want +got)\n%s", tt.in, diff)
		}
	}
	list := AppendUnique(ProjectSources(root), Source{Path: filepath.Join(root, "sub", "..", ".mcp.json")})
	if len(list) != 2 {
		t.Errorf("duplicate source appended: %+v", list)
	}
}

// TestNoSecretsInSummaries plants distinctive secrets in every command, URL, argument
// and env value (and env key) and greps the whole JSON of every summary and total.
func TestNoSecretsInSummaries(t *testing.T) {
	root := testkit.TempDir(t)
	secrets := []string{"CMDSECRET1", "URLSECRET2", "ARGSECRET3", "ENVSECRET4", "ENVKEYSECRET5", "TOMLSECRET6", "HDRSECRET7"}
	os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(`{"mcpServers":{
		"a": {"command": "C:\\tools\\CMDSECRET1.exe", "args": ["--token=ARGSECRET3", "x"], "env": {"ENVKEYSECRET5": "ENVSECRET4"}},
		"b": {"type": "sse", "url": "https://user:URLSECRET2@host/mcp", "headers": {"Authorization": "Bearer HDRSECRET7"}},
		"c": {"command": ["CMDSECRET1"], "args": "ARGSECRET3", "env": "ENVSECRET4"}
	}}`), 0o644)
	os.MkdirAll(filepath.Join(root, ".continue"), 0o755)
	os.WriteFile(filepath.Join(root, ".continue", "config.json"), []byte(`{"mcpServers":{"a":{"url":"URLSECRET2"}}}`), 0o644)
	toml := filepath.Join(root, "codex.toml")
	os.WriteFile(toml, []byte("[mcp_servers.t]\ncommand = \"TOMLSECRET6\"\nargs = ['ARGSECRET3']\nenv = { ENVKEYSECRET5 = \"ENVSECRET4\" }\nurl = \"URLSECRET2\"\n"), 0o644)
	sources := append(ProjectSources(root), Source{Path: toml, TOML: true})
	configs := ReadAll(sources)
	count, dups, malformed := Totals(configs)
	b, _ := json.Marshal(map[string]any{"configs": configs, "count": count, "dups": dups, "malformed": malformed})
	for _, s := range secrets {
		if strings.Contains(string(b), s) {
			t.Errorf("secret %s leaked: %s", s, b)
		}
	}
	if count != 5 || strings.Contains(string(b), `"command":`) || strings.Contains(string(b), `"url":`) || strings.Contains(string(b), `"env":`) || strings.Contains(string(b), `"args":`) {
		t.Errorf("unexpected summary: %s", b)
	}
}
