package gen_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/gen"
	"github.com/windows-dev-agent/wda/host/hook"
	"github.com/windows-dev-agent/wda/host/mcpb"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools"
)

// decode unmarshals a rendered JSON file into a generic object.
func decode(t *testing.T, files map[string][]byte, name string) map[string]any {
	t.Helper()
	b, ok := files[name]
	if !ok {
		t.Fatalf("%s is not rendered", name)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// onlyKeys fails when m has a key outside allowed (the formats' schemas are closed).
func onlyKeys(t *testing.T, what string, m map[string]any, allowed ...string) {
	t.Helper()
	for _, k := range keys(m) {
		if !slices.Contains(allowed, k) {
			t.Errorf("%s: key %q is not in the format (allowed: %v)", what, k, allowed)
		}
	}
}

// The Agent Plugins 1.0 files stay inside the closed schemas, start the plugin's own
// binary for the copilot host, and the Copilot hook sees exactly the tools it decides
// for, under the names Copilot gives them.
func TestAgentPluginPayload(t *testing.T) {
	files := render(t)
	p := decode(t, files, "agent-plugin/plugin.json")
	onlyKeys(t, "plugin.json", p, "$schema", "name", "version", "description", "homepage", "repository", "license", "author", "keywords", "extensions")
	if p["$schema"] != "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json" || p["version"] != wda.Version {
		t.Errorf("plugin.json = %v", p)
	}
	nameRE := regexp.MustCompile(`^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$`)
	if n, _ := p["name"].(string); !nameRE.MatchString(n) || len(n) > 64 || strings.Contains(n, "--") || strings.Contains(n, "..") {
		t.Errorf("plugin name %q breaks the spec's rule", n)
	}
	onlyKeys(t, "plugin.json author", p["author"].(map[string]any), "name", "email", "url")

	m := decode(t, files, "agent-plugin/mcp.json")
	onlyKeys(t, "mcp.json", m, "$schema", "mcpServers")
	if m["$schema"] != "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json" {
		t.Errorf("mcp.json $schema %v must match the plugin.json version", m["$schema"])
	}
	srv := m["mcpServers"].(map[string]any)[wda.ServerName].(map[string]any)
	onlyKeys(t, "mcp.json server", srv, "type", "command", "args", "env", "cwd")
	cmdline, _ := srv["command"].(string)
	if srv["type"] != "stdio" || !strings.HasPrefix(cmdline, "./") || strings.ContainsAny(cmdline, " $") {
		t.Errorf("server %v: command must be one ./ token without placeholders (the spec expands none there)", srv)
	}
	if diff := cmp.Diff([]any{"mcp", "--host", "copilot"}, srv["args"]); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	for k, v := range srv["env"].(map[string]any) {
		if k == "PLUGIN_ROOT" || k == "PLUGIN_DATA" {
			t.Errorf("env key %s is reserved by the spec", k)
		}
		if strings.Contains(v.(string), "PROJECT_DIR") {
			t.Errorf("env %s=%v: Copilot leaves project placeholders unexpanded", k, v)
		}
	}

	var h struct {
		Version int
		Hooks   map[string][]map[string]any
	}
	if err := json.Unmarshal(files["agent-plugin/"+gen.CopilotHooksPath], &h); err != nil {
		t.Fatal(err)
	}
	if h.Version != 1 || len(h.Hooks) != 1 || len(h.Hooks["preToolUse"]) != 1 {
		t.Fatalf("hooks = %+v", h)
	}
	pre := h.Hooks["preToolUse"][0]
	for _, shell := range []string{"bash", "powershell"} {
		c, _ := pre[shell].(string)
		if !strings.Contains(c, "wda-hook") || !strings.HasSuffix(c, " copilot pre-tool-use") {
			t.Errorf("%s command %q does not run wda-hook copilot pre-tool-use", shell, c)
		}
	}
	matcher := regexp.MustCompile(pre["matcher"].(string))
	for _, tl := range tools.Default().Tools() {
		want := slices.Contains(gen.CopilotHookTools(tools.Default()), tl.Name())
		if got := matcher.MatchString(hook.CopilotToolPrefix + tl.Name()); got != want {
			t.Errorf("matcher on %s = %v, want %v", tl.Name(), got, want)
		}
		if tl.ProjectArg() != "" && !want {
			t.Errorf("project-scoped %s escapes the hook's scope check", tl.Name())
		}
		if tl.MaxClass().Rank() > tools.Reversible.Rank() && !want {
			t.Errorf("gated %s escapes the hook", tl.Name())
		}
	}
	// The tools that type into a running shell are gated too (issue 22 §1); reading
	// and stopping one are not.
	for name, want := range map[string]bool{"bash": true, "powershell": true, "xbash": false, "bash2": false,
		"write_bash": true, "write_powershell": true, "read_bash": false, "stop_powershell": false, "write_bash2": false,
		"windows-dev-agent-env_inspect": false, "other-windows-dev-agent-tool_discover": false, "windows-dev-agent-tool_discover2": false} {
		if got := matcher.MatchString(name); got != want {
			t.Errorf("matcher on %q = %v, want %v", name, got, want)
		}
	}
	for _, s := range []string{"env-inspect", "workflow-plan"} {
		if _, ok := files["agent-plugin/skills/"+s+"/SKILL.md"]; !ok {
			t.Errorf("skill %s missing", s)
		}
	}
}

// The MCPB manifest: version 0.3, a Windows binary server, the registry's tools, and
// static responses equal to the wire descriptions of the MCPB adapter
// (cmd/wda's e2e test compares them with the running binary too).
func TestMCPBManifest(t *testing.T) {
	files := render(t)
	m := decode(t, files, "mcpb/manifest.json")
	onlyKeys(t, "manifest", m, "$schema", "manifest_version", "name", "display_name", "version", "description", "long_description",
		"author", "repository", "homepage", "documentation", "support", "icon", "icons", "screenshots", "server", "tools",
		"tools_generated", "prompts", "prompts_generated", "keywords", "license", "privacy_policies", "compatibility",
		"user_config", "localization", "_meta")
	if m["manifest_version"] != "0.3" || m["version"] != wda.Version || m["name"] != wda.ServerName {
		t.Errorf("manifest header %v %v %v", m["manifest_version"], m["version"], m["name"])
	}
	srv := m["server"].(map[string]any)
	cfg := srv["mcp_config"].(map[string]any)
	win := cfg["platform_overrides"].(map[string]any)["win32"].(map[string]any)
	if srv["type"] != "binary" || srv["entry_point"] != "bin/wda.exe" || win["command"] != "${__dirname}/"+srv["entry_point"].(string) {
		t.Errorf("server %v: the win32 command must start the entry point", srv)
	}
	if diff := cmp.Diff([]any{"mcp", "--host", "mcpb"}, cfg["args"]); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"platforms": []any{"win32"}}, m["compatibility"]); diff != "" {
		t.Errorf("compatibility (-want +got):\n%s", diff)
	}
	var listed []any
	h := mcpb.New()
	var wire []any
	for _, tl := range tools.Default().Tools() {
		listed = append(listed, map[string]any{"name": tl.Name(), "description": tl.Description()})
		b, err := json.Marshal(runtime.MCPTool(tl, h))
		if err != nil {
			t.Fatal(err)
		}
		var w any
		if err := json.Unmarshal(b, &w); err != nil {
			t.Fatal(err)
		}
		wire = append(wire, w)
	}
	if diff := cmp.Diff(listed, m["tools"]); diff != "" {
		t.Errorf("tools (-registry +manifest):\n%s", diff)
	}
	static := m["_meta"].(map[string]any)["com.microsoft.windows"].(map[string]any)["static_responses"].(map[string]any)
	got := static["tools/list"].(map[string]any)["tools"].([]any)
	byName := func(a, b any) int {
		return strings.Compare(a.(map[string]any)["name"].(string), b.(map[string]any)["name"].(string))
	}
	slices.SortFunc(wire, byName)
	slices.SortFunc(got, byName)
	if diff := cmp.Diff(wire, got); diff != "" {
		t.Errorf("static tools/list differs from runtime.MCPTool under the MCPB adapter (-wire +static):\n%s", diff)
	}
	init := static["initialize"].(map[string]any)
	info := init["serverInfo"].(map[string]any)
	if info["name"] != wda.ServerName || info["version"] != wda.Version || init["instructions"] != mcpb.Instructions ||
		init["protocolVersion"] != gen.MCPBProtocolVersion {
		t.Errorf("static initialize %v", init)
	}
}

// The registry template: its placeholders are refused until filled, and the filled
// file keeps the rules the registry checks only at publish time for MCPB packages.
func TestRegistryServerJSON(t *testing.T) {
	files := render(t)
	tmpl := files[gen.RegistryTemplatePath]
	sha := regexp.MustCompile(`^[a-f0-9]{64}$`)
	var raw struct {
		Packages []struct{ FileSha256 string }
	}
	if err := json.Unmarshal(tmpl, &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.Packages) != len(gen.MCPBArchs) {
		t.Fatalf("%d packages, want one per architecture %v", len(raw.Packages), gen.MCPBArchs)
	}
	for _, p := range raw.Packages {
		if sha.MatchString(p.FileSha256) {
			t.Fatalf("template holds a real-looking sha %q", p.FileSha256)
		}
	}
	sums := map[string]string{}
	for i, arch := range gen.MCPBArchs {
		sums[gen.MCPBAsset(arch)] = strings.Repeat(fmt.Sprintf("%x", i+10), 64)
	}
	filled, err := gen.FillServerJSON(tmpl, func(a string) (string, error) {
		s, ok := sums[a]
		if !ok {
			return "", fmt.Errorf("no asset %s", a)
		}
		return s, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Schema      string `json:"$schema"`
		Name        string
		Title       string
		Description string
		Version     string
		Repository  struct{ URL, Source string }
		Packages    []map[string]any
	}
	dec := json.NewDecoder(bytes.NewReader(filled))
	if err := dec.Decode(&s); err != nil {
		t.Fatal(err)
	}
	if s.Schema != gen.RegistrySchema || !regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`).MatchString(s.Name) ||
		!strings.HasPrefix(s.Name, "io.github.windows-dev-agent/") || len(s.Description) > 100 || len(s.Title) > 100 ||
		s.Version != wda.Version || s.Repository.Source != "github" {
		t.Errorf("server.json header %+v", s)
	}
	pathRE := regexp.MustCompile(`^/[^/]+/[^/]+/releases/download/[^/]+/[^/]+$`)
	for i, p := range s.Packages {
		arch := gen.MCPBArchs[i]
		id, _ := p["identifier"].(string)
		u, err := url.Parse(id)
		if err != nil || u.Scheme != "https" || u.Host != "github.com" || !pathRE.MatchString(u.Path) ||
			!strings.Contains(id, "mcp") || !strings.HasSuffix(u.Path, "/"+gen.ReleaseTag+"/"+gen.MCPBAsset(arch)) {
			t.Errorf("identifier %q breaks the registry's MCPB publish rules", id)
		}
		if _, ok := p["registryBaseUrl"]; ok {
			t.Errorf("registryBaseUrl must be absent for mcpb packages")
		}
		if p["registryType"] != "mcpb" || p["version"] != wda.Version || p["fileSha256"] != sums[gen.MCPBAsset(arch)] {
			t.Errorf("package %v", p)
		}
		if diff := cmp.Diff(map[string]any{"type": "stdio"}, p["transport"]); diff != "" {
			t.Errorf("transport (-want +got):\n%s", diff)
		}
	}

	for name, sum := range map[string]func(string) (string, error){
		"missing asset": func(string) (string, error) { return "", errors.New("no such file") },
		"short sum":     func(string) (string, error) { return "abc", nil },
		"upper case":    func(string) (string, error) { return strings.Repeat("A", 64), nil },
	} {
		if out, err := gen.FillServerJSON(tmpl, sum); err == nil {
			t.Errorf("%s: filled anyway:\n%s", name, out)
		}
	}
	if _, err := gen.FillServerJSON([]byte(`{"fileSha256":"${sha256:../x.mcpb}"}`), func(string) (string, error) { return strings.Repeat("a", 64), nil }); err == nil {
		t.Error("a placeholder naming a path was filled")
	}
}

func TestGeminiExtension(t *testing.T) {
	files := render(t)
	e := decode(t, files, "gemini/gemini-extension.json")
	if n, _ := e["name"].(string); !regexp.MustCompile(`^[a-zA-Z0-9-]+$`).MatchString(n) || e["version"] != wda.Version {
		t.Errorf("extension header %v %v", e["name"], e["version"])
	}
	ctx, _ := e["contextFileName"].(string)
	if _, ok := files["gemini/"+ctx]; !ok {
		t.Errorf("context file %q is not rendered", ctx)
	}
	srv := e["mcpServers"].(map[string]any)[wda.ServerName].(map[string]any)
	if _, trusted := srv["trust"]; trusted {
		t.Error("extensions may not set trust")
	}
	if !strings.HasPrefix(srv["command"].(string), "${extensionPath}") ||
		srv["env"].(map[string]any)["WINDOWS_DEV_AGENT_PROJECT_DIR"] != "${workspacePath}" || srv["timeout"].(float64) <= 600000 {
		t.Errorf("server %v", srv)
	}
	if diff := cmp.Diff([]any{"mcp", "--host", "gemini"}, srv["args"]); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	for _, sk := range []string{"env-inspect", "workflow-plan"} {
		if !bytes.Contains(files["gemini/GEMINI.md"], []byte("`"+sk+"`")) {
			t.Errorf("GEMINI.md does not name the skill %s", sk)
		}
	}
}
