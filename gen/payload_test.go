package gen_test

import (
	"bytes"
	"image/png"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/gen"
	"github.com/windows-dev-agent/wda/tools"
)

// Both hosts drop unknown keys silently (Claude inside hooks, Codex everywhere), so a
// misspelt key would pass their validators: these tests pin what is rendered
// (docs/hosts/claude.md, docs/hosts/codex.md).

func render(t *testing.T) map[string][]byte {
	t.Helper()
	files, err := gen.Render(tools.Default())
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func keys(m any) []string {
	var out []string
	for k := range m.(map[string]any) {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// handlers yields every hook handler of a hooks file, by event.
func handlers(t *testing.T, file map[string]any) map[string][]map[string]any {
	t.Helper()
	out := map[string][]map[string]any{}
	for event, groups := range file["hooks"].(map[string]any) {
		for _, g := range groups.([]any) {
			for _, h := range g.(map[string]any)["hooks"].([]any) {
				out[event] = append(out[event], h.(map[string]any))
			}
		}
	}
	return out
}

func TestClaudeHooksAreExecFormStartingWdaHook(t *testing.T) {
	t.Parallel()
	files := render(t)
	hooks := decode(t, files, "claude/hooks/hooks.json")
	if d := cmp.Diff([]string{"description", "hooks"}, keys(hooks)); d != "" {
		t.Errorf("hooks.json top level (-want +got):\n%s", d)
	}
	events := map[string]string{"PreToolUse": "pre-tool-use", "PostToolUse": "post-tool-use",
		"PostToolUseFailure": "post-tool-use-failure", "Stop": "stop"}
	got := handlers(t, hooks)
	if len(got) != len(events) {
		t.Fatalf("events %v, want %v", keys(hooks["hooks"]), events)
	}
	for event, hs := range got {
		for _, h := range hs {
			want := map[string]any{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/bin/wda-hook",
				"args": []any{"claude", events[event], "--data-dir", "${CLAUDE_PLUGIN_DATA}"}}
			if event == "PreToolUse" {
				want["onFailure"] = "block" // fail closed: a hook that cannot start blocks the call
			}
			if d := cmp.Diff(want, h); d != "" {
				t.Errorf("%s handler (-want +got):\n%s", event, d)
			}
		}
	}
}

func TestCodexHooksStartWdaHookInEveryShell(t *testing.T) {
	t.Parallel()
	files := render(t)
	hooks := decode(t, files, "codex/hooks/codex-hooks.json")
	if d := cmp.Diff([]string{"description", "hooks"}, keys(hooks)); d != "" {
		t.Errorf("codex-hooks.json top level (-want +got):\n%s", d)
	}
	for event, hs := range handlers(t, hooks) {
		for _, h := range hs {
			if d := cmp.Diff([]string{"command", "commandWindows", "timeout", "type"}, keys(h)); d != "" {
				t.Errorf("%s handler keys (-want +got):\n%s", event, d)
			}
			cmd, win := h["command"].(string), h["commandWindows"].(string)
			if !strings.HasPrefix(cmd, `"$PLUGIN_ROOT/bin/wda-hook" codex `) {
				t.Errorf("%s command %q", event, cmd)
			}
			// One argument through Rust's quoting: a double quote would reach cmd as \".
			if strings.ContainsAny(win, `"'`) {
				t.Errorf("%s commandWindows has a quote: %q", event, win)
			}
			prefix := `cmd --% /d /c cd /d ${PLUGIN_ROOT} & cd /d ${PLUGIN_ROOT} && bin\wda-hook.exe codex `
			if !strings.HasPrefix(win, prefix) || strings.TrimPrefix(win, prefix) != strings.TrimPrefix(cmd, `"$PLUGIN_ROOT/bin/wda-hook" codex `) {
				t.Errorf("%s commandWindows %q does not run the same event as %q", event, win, cmd)
			}
		}
	}
}

func TestServersStartWda(t *testing.T) {
	t.Parallel()
	files := render(t)
	claude := decode(t, files, "claude/.mcp.json")["mcpServers"].(map[string]any)
	for name, s := range claude {
		s := s.(map[string]any)
		if s["command"] != "${CLAUDE_PLUGIN_ROOT}/bin/wda" {
			t.Errorf("claude server %s command %v", name, s["command"])
		}
	}
	for name, s := range decode(t, files, "codex/.mcp.codex.json") {
		s := s.(map[string]any)
		if s["command"] != "./bin/wda" || s["cwd"] != "." {
			t.Errorf("codex server %s: command %v cwd %v", name, s["command"], s["cwd"])
		}
		// The server sees only Codex's defaults plus env_vars; the hooks see CODEX_HOME
		// and the user catalog by inheritance, so both resolve one data folder and one
		// catalog only with this.
		if d := cmp.Diff([]any{"CODEX_HOME", "WINDOWS_DEV_AGENT_CATALOG"}, s["env_vars"]); d != "" {
			t.Errorf("codex server %s env_vars (-want +got):\n%s", name, d)
		}
	}
}

func TestManifestsHoldOnlyKeysTheHostsRead(t *testing.T) {
	t.Parallel()
	files := render(t)
	claude := decode(t, files, "claude/.claude-plugin/plugin.json")
	if d := cmp.Diff([]string{"author", "description", "displayName", "homepage", "icon", "keywords", "license", "name", "repository", "version"}, keys(claude)); d != "" {
		t.Errorf("claude plugin.json (-want +got):\n%s", d)
	}
	codex := decode(t, files, "codex/.codex-plugin/plugin.json")
	if d := cmp.Diff([]string{"description", "hooks", "interface", "keywords", "mcpServers", "name", "skills", "version"}, keys(codex)); d != "" {
		t.Errorf("codex plugin.json (-want +got):\n%s", d)
	}
	iface := codex["interface"].(map[string]any)
	if d := cmp.Diff([]string{"brandColor", "capabilities", "category", "composerIcon", "defaultPrompt", "developerName",
		"displayName", "logo", "longDescription", "shortDescription", "websiteURL"}, keys(iface)); d != "" {
		t.Errorf("codex interface (-want +got):\n%s", d)
	}
	prompts := iface["defaultPrompt"].([]any)
	if len(prompts) == 0 || len(prompts) > 3 {
		t.Errorf("%d default prompts, want 1 to 3", len(prompts))
	}
	for _, p := range prompts {
		if n := len([]rune(p.(string))); n > 128 {
			t.Errorf("default prompt of %d characters (at most 128): %q", n, p)
		}
	}
	for root, icons := range map[string][]any{gen.ClaudeRoot: {claude["icon"]}, gen.CodexRoot: {iface["composerIcon"], iface["logo"]}} {
		for _, icon := range icons {
			p, _ := icon.(string)
			if !strings.HasPrefix(p, "./") {
				t.Errorf("%s icon %q must start with ./", root, p)
			}
			if _, ok := files[path.Join(root, strings.TrimPrefix(p, "./"))]; !ok {
				t.Errorf("%s icon %q is not in the payload", root, p)
			}
		}
	}
}

// Claude's validator asks for a square PNG or JPEG of 512 to 2048 px under 2 MB.
func TestIconFitsTheValidators(t *testing.T) {
	t.Parallel()
	b := render(t)[path.Join(gen.ClaudeRoot, gen.IconPath)]
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != cfg.Height || cfg.Width < 512 || cfg.Width > 2048 || len(b) >= 2<<20 {
		t.Fatalf("icon %dx%d, %d bytes", cfg.Width, cfg.Height, len(b))
	}
}
