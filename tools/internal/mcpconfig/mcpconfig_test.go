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
			configs := ReadAll(ProjectSources(testkit.Project(t, root)))
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
		configs := ReadAll(ProjectSources(testkit.Project(t, root)))
		if len(configs) != 1 || !strings.Contains(configs[0].Error, "reparse point") || len(configs[0].Servers) != 0 {
			t.Fatalf("got %+v", configs)
		}
	})
	t.Run("parent is a symlink", func(t *testing.T) {
		root := testkit.TempDir(t)
		if !testkit.Symlink(filepath.Join(outside, "dir"), filepath.Join(root, ".continue")) {
			t.Skip("symbolic links cannot be created here")
		}
		configs := ReadAll(ProjectSources(testkit.Project(t, root)))
		want := "project path crosses a symbolic link or reparse point: " + filepath.Join(root, ".continue")
		if len(configs) != 1 || configs[0].Error != want {
			t.Fatalf("got %+v, want error %q", configs, want)
		}
	})
	t.Run("3 MiB config", func(t *testing.T) {
		root := testkit.TempDir(t)
		big := `{"mcpServers":{"a":{"command":"` + strings.Repeat("x", 3<<20) + `"}}}`
		os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(big), 0o644)
		configs := ReadAll(ProjectSources(testkit.Project(t, root)))
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
	if c, _ := Read(Source{Path: p, TOML: true}); c.Error != "invalid TOML: syntax error at line 2, column 11" {
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
	p := testkit.Project(t, root)
	env := envWith("claude", map[string]string{"HOME": filepath.Join(root, "home")})
	tests := []struct {
		in   string
		want Source
	}{
		{"cfg/x.json", Source{Path: filepath.Join(root, "cfg", "x.json"), Project: p, Rel: filepath.Join("cfg", "x.json")}},
		{filepath.Join(root, "a.toml"), Source{Path: filepath.Join(root, "a.toml"), Project: p, Rel: "a.toml", TOML: true}},
		{filepath.Join(lex, "a.json"), Source{Path: filepath.Join(lex, "a.json"), Project: p, Rel: "a.json"}},
		{"~/x.JSON", Source{Path: filepath.Join(root, "home", "x.JSON"), Project: p, Rel: filepath.Join("home", "x.JSON")}},
		{"../outside.json", Source{Path: filepath.Join(filepath.Dir(root), "outside.json")}},
	}
	same := cmp.Comparer(func(a, b *tools.Project) bool { return a == b })
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, ExplicitSource(env, p, lex, tt.in), same); diff != "" {
			t.Errorf("%q (-want +got)\n%s", tt.in, diff)
		}
	}
	list := AppendUnique(ProjectSources(p), Source{Path: filepath.Join(root, "sub", "..", ".mcp.json")})
	if len(list) != 2 {
		t.Errorf("duplicate source appended: %+v", list)
	}
}

// TestLexicalRootReads: a config_path spelled under the project as named before links
// were resolved is read through the bound project, by the guarded reader.
func TestLexicalRootReads(t *testing.T) {
	real := testkit.TempDir(t)
	lex := filepath.Join(testkit.TempDir(t), "alias")
	if !testkit.Symlink(real, lex) {
		t.Skip("symbolic links cannot be created here")
	}
	testkit.WriteFile(t, filepath.Join(real, "cfg.json"), `{"mcpServers":{"a":{"command":"x"}}}`)
	outside := testkit.TempDir(t)
	testkit.WriteFile(t, filepath.Join(outside, "real.json"), `{"mcpServers":{"b":{"command":"x"}}}`)
	testkit.Symlink(filepath.Join(outside, "real.json"), filepath.Join(real, "linked.json"))
	p := testkit.Project(t, lex)
	env := envWith("claude", nil)
	if c, ok := Read(ExplicitSource(env, p, lex, filepath.Join(lex, "cfg.json"))); !ok || c.Error != "" || len(c.Servers) != 1 {
		t.Errorf("config under the lexical root: %+v", c)
	}
	if c, _ := Read(ExplicitSource(env, p, lex, filepath.Join(lex, "linked.json"))); !strings.Contains(c.Error, "reparse point") {
		t.Errorf("a link under the lexical root must be refused, not followed: %+v", c)
	}
}

// TestHardLinkedProjectConfig: a project .mcp.json that is a hard link to a file
// outside is refused with the reason, not summarised (issue 15, item 7).
func TestHardLinkedProjectConfig(t *testing.T) {
	root, outside := testkit.TempDir(t), testkit.TempDir(t)
	testkit.WriteFile(t, filepath.Join(outside, "secret.json"), `{"mcpServers":{"OUTSIDE-SERVER":{"command":"x"}}}`)
	if err := os.Link(filepath.Join(outside, "secret.json"), filepath.Join(root, ".mcp.json")); err != nil {
		t.Skipf("hard links cannot be made here: %v", err)
	}
	configs := ReadAll(ProjectSources(testkit.Project(t, root)))
	want := "project file has more than one hard link, so it may be a file outside the project: " + filepath.Join(root, ".mcp.json")
	if len(configs) != 1 || configs[0].Error != want || len(configs[0].Servers) != 0 {
		t.Fatalf("got %+v, want the error %q", configs, want)
	}
}

// TestParseErrorsNeverEchoContent: malformed configs around planted secrets, JSON and
// TOML, project and host, report a position and nothing of the file (issue 15, item 11).
func TestParseErrorsNeverEchoContent(t *testing.T) {
	root, home := testkit.TempDir(t), testkit.TempDir(t)
	files := map[string]struct{ body, want string }{
		filepath.Join(root, ".mcp.json"):                {`{"mcpServers":{"a":{"command":"S3CR3T-1"},}}`, "invalid JSON: syntax error at line 1, column 43"},
		filepath.Join(root, ".continue", "config.json"): {"{\"mcpServers\": {\n  \"a\": {\"env\": {\"K\": S3CR3T-2}}}}", "invalid JSON: syntax error at line 2, column 22"},
		filepath.Join(home, "shadow"):                   {"root:$6$S3CR3T-3:19000:0:99999:7:::\n", "invalid JSON: syntax error at line 1, column 1"},
		filepath.Join(home, "config.toml"):              {"[mcp_servers.a]\ncommand = S3CR3T-4\n", "invalid TOML: syntax error at line 2, column 11"},
		filepath.Join(home, "dup.toml"):                 {"[mcp_servers.S3CR3T-5]\ncommand = 'x'\n[mcp_servers.S3CR3T-5]\n", "invalid TOML: a key or table is defined more than once or conflicts with another"},
		filepath.Join(home, "str.toml"):                 {"[mcp_servers.a]\ncommand = \"S3CR3T-6\n", "invalid TOML: syntax error at line 2, column 20"},
	}
	for path, f := range files {
		testkit.WriteFile(t, path, f.body)
	}
	sources := ProjectSources(testkit.Project(t, root))
	for _, name := range []string{"shadow", "config.toml", "dup.toml", "str.toml"} {
		sources = append(sources, Source{Path: filepath.Join(home, name), TOML: strings.HasSuffix(name, ".toml")})
	}
	for _, s := range sources {
		c, ok := Read(s)
		if !ok {
			t.Fatalf("%s missing", s.Path)
		}
		if want := files[s.Path].want; c.Error != want {
			t.Errorf("%s: error %q, want %q", s.Path, c.Error, want)
		}
		if strings.Contains(c.Error, "S3CR3T") || strings.ContainsAny(c.Error, "'\"") {
			t.Errorf("%s: the error quotes the file: %q", s.Path, c.Error)
		}
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
	sources := append(ProjectSources(testkit.Project(t, root)), Source{Path: toml, TOML: true})
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
