package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/capabilityrun"
)

// argvCatalog is a user catalog whose argv decide what extra arguments mean:
// after `wsl rm -rf` a path is a removal, after `dotnet format` a drive is a format.
const argvCatalog = `
wipe: {description: d, safety: reversible, tools: [{name: wsl, argv: [wsl, rm, -rf]}]}
second: {description: d, safety: read-only, tools: [{name: l, argv: [l]}, {name: wsl, argv: [wsl, rm, -rf]}]}
fmt: {description: d, safety: reversible, tools: [{name: dotnet, argv: [dotnet, format]}]}
plain: {description: d, safety: read-only, tools: [{name: l, argv: [l]}]}
"npm:x": {description: d, safety: read-only, tools: [{name: wsl, argv: [wsl, rm, -rf]}]}
`

// TestExtraArgsAfterCatalogArgv (issue 22 §1, through this server's own tools): the
// hooks classify capability_run's extra_args after the argv of the capability in the
// catalog in force, as the server does, so a combination that is forbidden only after
// that argv (a path after `wsl rm -rf`, a drive after `dotnet format`) is denied by the
// Claude, Codex and Copilot hooks rather than asked. Each row's class is first checked
// against the server's own classification of the call (capability_run with the same
// catalog), so the table cannot drift from what the server blocks.
func TestExtraArgsAfterCatalogArgv(t *testing.T) {
	t.Parallel()
	p := makeProject(t)
	replacement := filepath.Join(t.TempDir(), "catalog.yaml")
	if err := os.WriteFile(replacement, []byte(argvCatalog), 0o600); err != nil {
		t.Fatal(err)
	}
	user, err := catalog.Load([]byte(argvCatalog))
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := catalog.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	extended := catalog.Extend(shipped, user) // what wda mcp serves with it
	cases := []struct {
		name    string
		shipped bool // the shipped catalog, else extended by argvCatalog
		id      string
		execute bool
		extra   []any
		want    tools.Class
	}{
		{"path after wsl rm -rf", false, "wipe", true, []any{"/mnt/c/Windows"}, tools.Forbidden},
		{"drive after wsl rm -rf", false, "wipe", true, []any{"/mnt/c"}, tools.Forbidden},
		{"path after the second tool's argv", false, "second", true, []any{"/mnt/c/Windows"}, tools.Forbidden},
		{"drive after dotnet format", false, "fmt", true, []any{"D:"}, tools.Forbidden},
		{"forbidden on its own", false, "plain", true, []any{"/c", "format", "D:"}, tools.Forbidden},
		{"harmless path after wsl rm -rf", false, "wipe", true, []any{"./build"}, tools.ApprovalRequired},
		{"system path after a harmless argv", false, "plain", true, []any{"/mnt/c/Windows"}, tools.ApprovalRequired},
		{"no extra arguments", false, "wipe", true, nil, tools.Reversible},
		{"a plan", false, "wipe", false, []any{"/mnt/c/Windows"}, tools.ReadOnly},
		{"unknown id", false, "nope", true, []any{"/mnt/c/Windows"}, tools.ApprovalRequired},
		{"a shipped id the user catalog leaves alone", false, "format-dotnet", true, []any{"D:"}, tools.Forbidden},
		{"project task id: the catalog argv is not its", false, "npm:x", true, []any{"/mnt/c/Windows"}, tools.ApprovalRequired},
		{"shipped: drive after dotnet format", true, "format-dotnet", true, []any{"D:"}, tools.Forbidden},
		{"shipped: drive after dotnet format --verify-no-changes", true, "formatting-dotnet", true, []any{`C:\`}, tools.Forbidden},
		{"shipped: drive after go build", true, "build-go", true, []any{"D:"}, tools.ApprovalRequired},
		{"shipped: no extra arguments", true, "formatting-dotnet", true, nil, tools.Reversible},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			input := map[string]any{"capability": c.id, "execute": c.execute, "cwd": p.child}
			if c.extra != nil {
				input["extra_args"] = c.extra
			}
			cat, env := extended, map[string]string{"WINDOWS_DEV_AGENT_CATALOG": replacement}
			if c.shipped {
				cat, env = shipped, map[string]string{"WINDOWS_DEV_AGENT_CATALOG": ""}
			}
			server := capabilityrun.New(capabilityrun.Deps{Catalog: func() (*catalog.Catalog, error) { return cat, nil }})
			if got := server.Classify(tools.Args(input)); got != c.want {
				t.Fatalf("the server classifies the call %s, the row says %s", got, c.want)
			}
			deny := c.want == tools.Forbidden
			asks := c.want == tools.ApprovalRequired
			for _, h := range []struct {
				host, event string
				ev          map[string]any
				want        string // the decision printed, "" for none
			}{
				{"claude", "pre-tool-use", map[string]any{"session_id": "S", "tool_use_id": "U", "tool_name": plug + "capability_run",
					"tool_input": input, "cwd": p.root}, pick(deny, "deny", asks, "ask")},
				{"codex", "pre-tool-use", map[string]any{"session_id": "S", "tool_use_id": "U", "tool_name": cx + "capability_run",
					"tool_input": input, "cwd": p.root}, pick(deny, "deny", false, "")},
				{"codex", "permission-request", map[string]any{"session_id": "S", "tool_use_id": "U", "tool_name": cx + "capability_run",
					"tool_input": input, "cwd": p.root}, pick(deny, "deny", c.want == tools.ReadOnly, "allow")},
				{"copilot", "pre-tool-use", map[string]any{"sessionId": "S", "toolName": cp + "capability_run",
					"toolArgs": input, "cwd": p.root}, pick(deny, "deny", asks, "ask")},
			} {
				r := run(t, testSpecs(), env, eventJSON(h.ev), h.host, h.event, "--data-dir", t.TempDir())
				if r.code != 0 {
					t.Fatalf("%s %s: exit %d: %s", h.host, h.event, r.code, r.stderr)
				}
				got, reason := decisionOf(t, decodeOne(t, r.stdout))
				if got != h.want {
					t.Errorf("%s %s: decision %q, want %q (server: %s; output %q)", h.host, h.event, got, h.want, c.want, r.stdout)
				}
				if got == "deny" && h.event == "pre-tool-use" && h.host != "codex" && !strings.Contains(reason, "shell classifier forbids") &&
					!strings.Contains(reason, "capability_run declares") {
					t.Errorf("%s: deny reason %q names neither the shell classifier nor the declaration", h.host, reason)
				}
			}
		})
	}
}

// pick is the decision a host prints: a when ca holds, else b when cb holds, else none.
func pick(ca bool, a string, cb bool, b string) string {
	switch {
	case ca:
		return a
	case cb:
		return b
	}
	return ""
}

// decisionOf reads the decision and its reason from any host's answer.
func decisionOf(t testing.TB, m map[string]any) (decision, reason string) {
	t.Helper()
	if m == nil {
		return "", ""
	}
	if d, ok := m["permissionDecision"].(string); ok { // Copilot
		r, _ := m["permissionDecisionReason"].(string)
		return d, r
	}
	hso, _ := m["hookSpecificOutput"].(map[string]any)
	if d, ok := hso["permissionDecision"].(string); ok { // Claude and Codex PreToolUse
		r, _ := hso["permissionDecisionReason"].(string)
		return d, r
	}
	if dec, ok := hso["decision"].(map[string]any); ok { // Codex PermissionRequest
		b, _ := dec["behavior"].(string)
		r, _ := dec["message"].(string)
		return b, r
	}
	t.Fatalf("no decision in %v", m)
	return "", ""
}

// TestOneReadPerCall: a call's class and argv come from one read of the user
// catalog, so a file swapped between the two lookups cannot pair the class of one
// catalog with the argv of another, and the call parses the file once.
func TestOneReadPerCall(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "catalog.yaml")
	if err := os.WriteFile(path, []byte(argvCatalog), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &call{specs: testSpecs(), catalogPath: path}
	if class, ok := c.catalog("wipe"); class != tools.Reversible || !ok {
		t.Fatalf("class %q %v", class, ok)
	}
	swapped := "wipe: {description: d, safety: reversible, tools: [{name: l, argv: [l]}]}\n"
	if err := os.WriteFile(path, []byte(swapped), 0o600); err != nil {
		t.Fatal(err)
	}
	argvs, ok := c.catalogArgv("wipe")
	if !ok || len(argvs) != 1 || strings.Join(argvs[0], " ") != "wsl rm -rf" {
		t.Fatalf("argv %q %v, want the one read with the class", argvs, ok)
	}
	// Another id is another lookup.
	if _, ok := c.catalogArgv("fmt"); ok {
		t.Fatal("fmt found in the swapped catalog")
	}
}
