package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/gen"
	"github.com/windows-dev-agent/wda/gen/release"
	"github.com/windows-dev-agent/wda/internal/policy"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools/all"
)

// hostLayout is a fake HOME with the plugin installed the way Claude Code 2.1,
// Codex 0.171, the Copilot CLI 1.0 and Gemini CLI 0.61 install it (checked by
// installing dist/ with the real clients: docs/hostcheck.md).
type hostLayout struct {
	home, codexHome, claudeRoot, codexRoot string
	copilotRoot, geminiRoot, geminiData    string
	binVersion                             string // what the fake bin/wda version prints
}

// roots are the plugin folders of the layout.
func (h *hostLayout) roots() []string {
	return []string{h.claudeRoot, h.codexRoot, h.copilotRoot, h.geminiRoot}
}

func newHostLayout(t *testing.T) *hostLayout {
	t.Helper()
	root := t.TempDir()
	h := &hostLayout{home: filepath.Join(root, "home"), codexHome: filepath.Join(root, "codex-home"), binVersion: wda.Version}
	h.claudeRoot = filepath.Join(h.home, ".claude", "plugins", "cache", "local-check", wda.ServerName, wda.Version)
	h.codexRoot = filepath.Join(h.codexHome, "plugins", "cache", "local-check", wda.ServerName, wda.Version)
	h.copilotRoot = filepath.Join(h.home, ".copilot", "installed-plugins", "local-check", wda.ServerName)
	h.geminiRoot = filepath.Join(h.home, ".gemini", "extensions", wda.ServerName)
	h.geminiData = filepath.Join(root, "gemini-data")
	files, err := gen.Render(all.New(all.Config{}))
	if err != nil {
		t.Fatal(err)
	}
	for rel, data := range files {
		host, sub, _ := strings.Cut(rel, "/")
		dst := map[string]string{"claude": h.claudeRoot, "codex": h.codexRoot, "agent-plugin": h.copilotRoot, "gemini": h.geminiRoot}[host]
		if dst == "" {
			continue
		}
		write(t, filepath.Join(dst, filepath.FromSlash(sub)), string(data), 0o644)
	}
	for _, r := range h.roots() {
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
		return map[string]string{"HOME": h.home, "USERPROFILE": h.home, "CODEX_HOME": h.codexHome, "WINDOWS_DEV_AGENT_DATA_DIR": h.geminiData}[k]
	}, run: func(_ context.Context, argv []string) proc.Receipt {
		if len(argv) != 2 || argv[1] != "version" {
			return proc.Receipt{Error: "unexpected argv"}
		}
		if h.binVersion == "" {
			return proc.Receipt{Error: "Process could not be started: exec format error"}
		}
		return proc.Receipt{Succeeded: true, ExecutionStarted: true, Stdout: wda.ServerName + " " + h.binVersion + "\n"}
	}, policy: func() *policy.State { return &policy.State{} }} // no managed policy, whatever the machine has
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
		{"binary does not run", func(t *testing.T, h *hostLayout) { h.binVersion = "" }, []string{"claude/binary", "codex/binary", "copilot/binary", "gemini/binary"}},
		{"binary of another version", func(t *testing.T, h *hostLayout) { h.binVersion = "0.0.1" },
			[]string{"claude/versions", "codex/versions", "copilot/versions", "gemini/versions"}},
		{"copilot hooks edited", func(t *testing.T, h *hostLayout) {
			write(t, filepath.Join(h.copilotRoot, filepath.FromSlash(gen.CopilotHooksPath)), `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"echo"}]}}`, 0o644)
		}, []string{"copilot/hooks"}},
		{"copilot binary missing", func(t *testing.T, h *hostLayout) { os.Remove(filepath.Join(h.copilotRoot, "bin", binName())) }, []string{"copilot/binary"}},
		{"gemini server not the plugin's", func(t *testing.T, h *hostLayout) {
			write(t, filepath.Join(h.geminiRoot, "gemini-extension.json"), `{"name":"windows-dev-agent","version":"`+wda.Version+`","mcpServers":{}}`, 0o644)
		}, []string{"gemini/MCP server"}},
		{"gemini data dir is a file", func(t *testing.T, h *hostLayout) { write(t, h.geminiData, "x", 0o644) }, []string{"gemini/data directory"}},
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
			var before, after []map[string]string
			for _, r := range h.roots() {
				before = append(before, treeState(t, r))
			}
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
			for _, r := range h.roots() {
				after = append(after, treeState(t, r))
			}
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

// TestDoctorEveryHost: doctor finds the plugin of every host the release installs in,
// and with none installed, says for each how to install it with the real commands
// of the published release, never a placeholder (issue 25 §2).
func TestDoctorEveryHost(t *testing.T) {
	t.Parallel()
	h := newHostLayout(t)
	rep := h.env().diagnose(context.Background(), "")
	var hosts []string
	for _, in := range rep.Installs {
		hosts = append(hosts, in.Host+" "+in.ID+" "+in.Version)
	}
	want := []string{"claude windows-dev-agent@local-check " + wda.Version, "codex windows-dev-agent@local-check " + wda.Version,
		"copilot windows-dev-agent@local-check " + wda.Version, "gemini windows-dev-agent " + wda.Version}
	if d := cmp.Diff(want, hosts); d != "" {
		t.Fatalf("installs (-want +got):\n%s", d)
	}
	if rep.Problems != 0 || rep.Bin == "" {
		t.Fatalf("problems %d, bin %q: %v", rep.Problems, rep.Bin, failed(rep))
	}

	f := newFixture(t)
	f.env["CODEX_HOME"] = filepath.Join(f.home, ".codex")
	r := f.run(t, noTTY, nil, "doctor")
	for _, want := range []string{
		"claude plugin marketplace add windows-dev-agent/wda, then claude plugin install windows-dev-agent@windows-dev-agent",
		"codex plugin marketplace add windows-dev-agent/wda, then codex plugin add windows-dev-agent@windows-dev-agent",
		"copilot plugin marketplace add windows-dev-agent/wda, then copilot plugin install windows-dev-agent@windows-dev-agent",
		"git clone --depth 1 --branch dist/v" + wda.Version + " https://github.com/windows-dev-agent/wda.git wda-" + wda.Version +
			", then gemini extensions install ./wda-" + wda.Version + "/gemini",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q in:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "<") {
		t.Errorf("a placeholder in a fix:\n%s", r.stdout)
	}
}

// TestReleaseNames: the repository and marketplace doctor's install lines name are
// the release's own.
func TestReleaseNames(t *testing.T) {
	t.Parallel()
	if release.Repository != "https://github.com/"+releaseRepo+".git" {
		t.Fatalf("release.Repository %s, doctor says %s", release.Repository, releaseRepo)
	}
	files, err := release.Index(strings.Repeat("a", 40), release.Manifest{Name: wda.ServerName, Version: wda.Version, Repository: release.Repository})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range release.IndexPaths {
		var m struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(files[p], &m); err != nil || m.Name != releaseMarketplace {
			t.Errorf("%s: marketplace %q (%v), doctor says %s", p, m.Name, err, releaseMarketplace)
		}
	}
}

func TestVersionLess(t *testing.T) {
	t.Parallel()
	ordered := []string{"", "0.1", "0.9.0", "0.10.0-rc1", "0.10.0-rc2", "0.10.0", "0.10.1", "1.0.0", "1.0.0.1", "10.0.0"}
	for i := range ordered {
		for j := range ordered {
			if got := versionLess(ordered[i], ordered[j]); got != (i < j) {
				t.Errorf("versionLess(%q, %q) = %v", ordered[i], ordered[j], got)
			}
		}
	}
}

// FuzzVersionLess: versionLess is a strict order: never both ways, never a version
// before itself.
func FuzzVersionLess(f *testing.F) {
	f.Add("0.9.0", "0.10.0")
	f.Add("0.10.0-rc1", "0.10.0")
	f.Add("1.a", "1.b")
	f.Fuzz(func(t *testing.T, a, b string) {
		if versionLess(a, a) {
			t.Fatalf("%q < itself", a)
		}
		if versionLess(a, b) && versionLess(b, a) {
			t.Fatalf("%q and %q each before the other", a, b)
		}
	})
}
