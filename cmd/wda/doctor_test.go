package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/gen"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools/all"
)

// hostLayout is a fake HOME with the plugin installed the way Claude Code 2.1 and
// Codex 0.171 install it (checked by installing dist/ with the real clients).
type hostLayout struct {
	home, codexHome, claudeRoot, codexRoot string
	binVersion                             string // what the fake bin/wda version prints
}

func newHostLayout(t *testing.T) *hostLayout {
	t.Helper()
	root := t.TempDir()
	h := &hostLayout{home: filepath.Join(root, "home"), codexHome: filepath.Join(root, "codex-home"), binVersion: wda.Version}
	h.claudeRoot = filepath.Join(h.home, ".claude", "plugins", "cache", "local-check", wda.ServerName, wda.Version)
	h.codexRoot = filepath.Join(h.codexHome, "plugins", "cache", "local-check", wda.ServerName, wda.Version)
	files, err := gen.Render(all.New(all.Config{}))
	if err != nil {
		t.Fatal(err)
	}
	for rel, data := range files {
		host, sub, _ := strings.Cut(rel, "/")
		dst := map[string]string{"claude": h.claudeRoot, "codex": h.codexRoot}[host]
		if dst == "" {
			continue
		}
		write(t, filepath.Join(dst, filepath.FromSlash(sub)), string(data), 0o644)
	}
	for _, r := range []string{h.claudeRoot, h.codexRoot} {
		write(t, filepath.Join(r, "bin", binName()), "binary", 0o755)
	}
	id := wda.ServerName + "@local-check"
	write(t, filepath.Join(h.home, ".claude", "plugins", "installed_plugins.json"),
		`{"version":2,"plugins":{"`+id+`":[{"scope":"user","installPath":`+jsonString(h.claudeRoot)+`,"version":"`+wda.Version+`"}]}}`, 0o644)
	write(t, filepath.Join(h.home, ".claude", "settings.json"), `{"enabledPlugins":{"`+id+`":true}}`, 0o644)
	write(t, filepath.Join(h.codexHome, "config.toml"), "[marketplaces.local-check]\nsource_type = \"local\"\n\n[plugins.\""+id+"\"]\nenabled = true # on\n", 0o644)
	return h
}

func binName() string {
	if goosForTest == "windows" {
		return "wda.exe"
	}
	return "wda"
}

func write(t *testing.T, p, data string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

func jsonString(s string) string {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		if r == '\\' || r == '"' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

func (h *hostLayout) env() doctorEnv {
	return doctorEnv{goos: goosForTest, getenv: func(k string) string {
		return map[string]string{"HOME": h.home, "USERPROFILE": h.home, "CODEX_HOME": h.codexHome}[k]
	}, run: func(_ context.Context, argv []string) proc.Receipt {
		if len(argv) != 2 || argv[1] != "version" {
			return proc.Receipt{Error: "unexpected argv"}
		}
		if h.binVersion == "" {
			return proc.Receipt{Error: "Process could not be started: exec format error"}
		}
		return proc.Receipt{Succeeded: true, ExecutionStarted: true, Stdout: wda.ServerName + " " + h.binVersion + "\n"}
	}}
}

// treeState lists every file of dir with its size and modification time.
func treeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, _ := d.Info()
		out[p] = fi.ModTime().String() + " " + itoa(int(fi.Size()))
		return nil
	})
	return out
}

// failed lists "host/check" of every failed check.
func failed(rep doctorReport) []string {
	var out []string
	for _, in := range rep.Installs {
		for _, ch := range in.Checks {
			if ch.State == checkFail {
				out = append(out, in.Host+"/"+ch.Name)
			}
		}
	}
	for _, n := range rep.Notes {
		if n.State == checkFail {
			out = append(out, "note/"+n.Name)
		}
	}
	return out
}

func TestDoctor(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		breakIt func(t *testing.T, h *hostLayout)
		want    []string
	}{
		{"healthy", func(*testing.T, *hostLayout) {}, nil},
		{"binary missing", func(t *testing.T, h *hostLayout) { os.Remove(filepath.Join(h.claudeRoot, "bin", binName())) }, []string{"claude/binary"}},
		{"binary does not run", func(t *testing.T, h *hostLayout) { h.binVersion = "" }, []string{"claude/binary", "codex/binary"}},
		{"binary of another version", func(t *testing.T, h *hostLayout) { h.binVersion = "0.0.1" }, []string{"claude/versions", "codex/versions"}},
		{"hooks edited", func(t *testing.T, h *hostLayout) {
			write(t, filepath.Join(h.claudeRoot, "hooks", "hooks.json"), `{"hooks":{"Stop":[]}}`, 0o644)
		}, []string{"claude/hooks"}},
		{"codex hooks file missing", func(t *testing.T, h *hostLayout) {
			os.Remove(filepath.Join(h.codexRoot, "hooks", "codex-hooks.json"))
		}, []string{"codex/hooks"}},
		{"mcp config edited", func(t *testing.T, h *hostLayout) {
			write(t, filepath.Join(h.claudeRoot, ".mcp.json"), `{"mcpServers":{}}`, 0o644)
		}, []string{"claude/MCP server"}},
		{"disabled in claude", func(t *testing.T, h *hostLayout) {
			write(t, filepath.Join(h.home, ".claude", "settings.json"), `{"enabledPlugins":{"windows-dev-agent@local-check":false}}`, 0o644)
		}, []string{"claude/enabled"}},
		{"codex hooks turned off", func(t *testing.T, h *hostLayout) {
			write(t, filepath.Join(h.codexHome, "config.toml"), "[features]\nhooks = false\n[plugins.\"windows-dev-agent@local-check\"]\nenabled = false\n", 0o644)
		}, []string{"codex/enabled", "codex/hooks feature"}},
		{"data dir is a file", func(t *testing.T, h *hostLayout) {
			os.Remove(filepath.Join(h.home, ".claude", "plugins", "data", "windows-dev-agent-local-check"))
			write(t, filepath.Join(h.home, ".claude", "plugins", "data", "windows-dev-agent-local-check"), "x", 0o644)
		}, []string{"claude/data directory"}},
		{"manifest of another version", func(t *testing.T, h *hostLayout) {
			write(t, filepath.Join(h.codexRoot, ".codex-plugin", "plugin.json"), `{"name":"windows-dev-agent","version":"0.0.9","hooks":"./hooks/codex-hooks.json"}`, 0o644)
		}, []string{"codex/versions"}},
		{"registry unreadable", func(t *testing.T, h *hostLayout) {
			write(t, filepath.Join(h.home, ".claude", "plugins", "installed_plugins.json"), "{", 0o644)
		}, []string{"note/Claude Code"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHostLayout(t)
			os.MkdirAll(filepath.Join(h.home, ".claude", "plugins", "data", "windows-dev-agent-local-check"), 0o755)
			tc.breakIt(t, h)
			before := [2]map[string]string{treeState(t, h.claudeRoot), treeState(t, h.codexRoot)}
			rep := h.env().diagnose(context.Background(), "")
			if d := cmp.Diff(tc.want, failed(rep)); d != "" {
				var b bytes.Buffer
				writeDoctor(&view{w: &b}, rep)
				t.Fatalf("failed checks (-want +got):\n%s\n%s", d, b.String())
			}
			if rep.Problems != len(tc.want) {
				t.Errorf("problems = %d, want %d", rep.Problems, len(tc.want))
			}
			for _, in := range rep.Installs {
				for _, ch := range in.Checks {
					if ch.State == checkFail && ch.Fix == "" {
						t.Errorf("%s/%s fails without a fix", in.Host, ch.Name)
					}
				}
			}
			after := [2]map[string]string{treeState(t, h.claudeRoot), treeState(t, h.codexRoot)}
			if d := cmp.Diff(before, after); d != "" {
				t.Errorf("doctor changed a plugin folder:\n%s", d)
			}
		})
	}
}

func TestDoctorGolden(t *testing.T) {
	t.Parallel()
	if goosForTest == "windows" {
		t.Skip("the golden text has Unix paths; TestDoctor checks the same on Windows")
	}
	h := newHostLayout(t)
	h.binVersion = "0.0.1"
	rep := h.env().diagnose(context.Background(), "")
	rep.Version = "X"
	var b bytes.Buffer
	writeDoctor(&view{w: &b}, rep)
	text := strings.ReplaceAll(b.String(), filepath.Dir(h.home), "$ROOT")
	text = strings.ReplaceAll(text, wda.Version, "$VERSION")
	golden(t, "doctor-versions", []string{"doctor"}, result{code: 1, stdout: text})
}

func TestDoctorNothingInstalled(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.env["CODEX_HOME"] = filepath.Join(f.home, ".codex")
	r := f.run(t, noTTY, nil, "doctor")
	if r.code != exitNotDone || !strings.Contains(r.stdout, "No installed plugin was found.") || !strings.Contains(r.stdout, "claude plugin install") {
		t.Fatalf("exit %d\n%s", r.code, r.stdout)
	}
}

func TestScanCodexConfig(t *testing.T) {
	t.Parallel()
	cfg := scanCodexConfig("# c\n[features]\nhooks = true\n[plugins.\"a@b\"] # x\nenabled = false\n[plugins.\"c@d\"]\nenabled=true\nname = \"enabled = false # no\"\n[[x]]\nenabled = false\n")
	if cfg.hooksOff || cfg.enabled["a@b"] == nil || *cfg.enabled["a@b"] || cfg.enabled["c@d"] == nil || !*cfg.enabled["c@d"] || len(cfg.enabled) != 2 {
		t.Fatalf("%+v", cfg)
	}
	if !scanCodexConfig("[features]\r\nhooks = false\r\n").hooksOff {
		t.Fatal("CRLF config")
	}
}

func FuzzScanCodexConfig(f *testing.F) {
	f.Add("[features]\nhooks = false\n[plugins.\"windows-dev-agent@m\"]\nenabled = true\n")
	f.Add("[plugins.\"\"]\nenabled = true\n# \"\n")
	f.Fuzz(func(t *testing.T, s string) {
		cfg := scanCodexConfig(s)
		for id, v := range cfg.enabled {
			if v == nil || !strings.Contains(s, id) {
				t.Fatalf("id %q not from the input", id)
			}
		}
	})
}

// Every form of hook command this version or an earlier one ships starts the plugin's
// hooks binary for its host; nothing else does.
func TestHookStarts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		host, line string
		want       bool
	}{
		{"claude", "${CLAUDE_PLUGIN_ROOT}/bin/wda-hook claude pre-tool-use --data-dir ${CLAUDE_PLUGIN_DATA}", true},
		{"codex", `"$PLUGIN_ROOT/bin/wda-hook" codex pre-tool-use`, true},
		{"codex", `cmd --% /d /c cd /d ${PLUGIN_ROOT} && bin/wda-hook.exe codex pre-tool-use`, true},
		{"claude", `"${CLAUDE_PLUGIN_ROOT}/bin/wda" hook claude stop`, true},
		{"codex", `bin/wda.exe hook codex stop`, true},
		{"claude", "${CLAUDE_PLUGIN_ROOT}/bin/wda-hook codex pre-tool-use", false},
		{"claude", "${CLAUDE_PLUGIN_ROOT}/bin/wda mcp --host claude", false},
		{"claude", "${CLAUDE_PLUGIN_ROOT}/bin/wda-hook claudex pre-tool-use", false},
		{"claude", "/usr/bin/other-hook claude", false},
	}
	for _, c := range cases {
		if got := hookStarts(c.host).MatchString(c.line); got != c.want {
			t.Errorf("hookStarts(%s) on %q = %v, want %v", c.host, c.line, got, c.want)
		}
	}
}
