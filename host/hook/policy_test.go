package hook

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/internal/policy"
)

const policySource = `HKLM\SOFTWARE\Policies\WindowsDevAgent`

func policyLoader(t *testing.T, doc string, calls *int) func() policy.State {
	t.Helper()
	p, err := policy.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return func() policy.State { *calls++; return policy.State{Source: policySource, SHA256: "x", Policy: p} }
}

// TestHookPolicy: every host's permission hook denies what the managed policy
// refuses, with the pipeline's message, and records the policy's rule.
func TestHookPolicy(t *testing.T) {
	const doc = `{"max_execute_class": "read-only", "packages": {"allowed_ids": ["Git.Git"]}, "disabled_tools": ["sandbox_run"]}`
	pkg := map[string]any{"package_id": "Mozilla.Firefox"}
	for _, tc := range []struct {
		name, host, event string
		ev                map[string]any
		rule, reasonKey   string
	}{
		{"claude", "claude", "pre-tool-use", map[string]any{"session_id": "s", "tool_use_id": "u",
			"tool_name": "mcp__plugin_windows-dev-agent_windows-dev-agent__capability_run", "tool_input": map[string]any{"capability": "tests", "execute": true}},
			"max_execute_class", "permissionDecisionReason"},
		{"codex pre", "codex", "pre-tool-use", map[string]any{"session_id": "s", "tool_use_id": "u", "cwd": "/",
			"tool_name": "mcp__windows_dev_agent__package_install", "tool_input": pkg},
			"packages.allowed_ids", "permissionDecisionReason"},
		{"codex permission request", "codex", "permission-request", map[string]any{"session_id": "s", "tool_use_id": "u", "cwd": "/",
			"tool_name": "mcp__windows_dev_agent__package_install", "tool_input": pkg},
			"packages.allowed_ids", "message"},
		{"copilot", "copilot", "pre-tool-use", map[string]any{"sessionId": "s", "cwd": "/",
			"toolName": "windows-dev-agent-sandbox_run", "toolArgs": `{"command":"make","isolation_requirement":"linux_compatibility"}`},
			"disabled_tools", "permissionDecisionReason"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			var loads int
			var out, errb bytes.Buffer
			code := runWithPolicy(testSpecs(), policyLoader(t, doc, &loads), []string{tc.host, tc.event, "--data-dir", data},
				strings.NewReader(eventJSON(tc.ev)), &out, &errb, func(string) string { return "" })
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			want := "blocked by managed policy rule " + tc.rule + " (source " + policySource + ")"
			if !strings.Contains(out.String(), `"deny"`) || !strings.Contains(out.String(), jsonString(want)) {
				t.Errorf("output %s\nwant a deny with %q", out.String(), want)
			}
			if loads != 1 {
				t.Errorf("policy read %d times, want once", loads)
			}
			recs, err := audit.Read(data)
			if err != nil || len(recs) != 1 {
				t.Fatalf("records %v, %v", recs, err)
			}
			if recs[0]["refusal_rule"] != policy.AuditRule(tc.rule) || recs[0]["permission_decision"] != "deny" {
				t.Errorf("record %v, want refusal_rule %s and a deny", recs[0], policy.AuditRule(tc.rule))
			}
		})
	}
}

// jsonString is s as the hooks' JSON encoder writes it (backslashes doubled).
func jsonString(s string) string { return strings.ReplaceAll(s, `\`, `\\`) }

// TestHookPolicyShell: the host's shell meets the policy's class rules in every
// host's hook (docs/policy.md, "The host's shell"): a command above
// max_execute_class is denied with the policy's message and rule, one within it gets
// the usual answer, and a policy without class rules refuses no command.
func TestHookPolicyShell(t *testing.T) {
	const capped = `{"max_execute_class": "reversible"}`
	unknown := "frobnicate --all" // a program the classifier does not know: approval-required
	for _, tc := range []struct {
		name, doc, host string
		ev              map[string]any
		deny            bool
	}{
		{"claude Bash above the cap", capped, "claude", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": unknown}}, true},
		{"claude PowerShell above the cap", capped, "claude", map[string]any{"tool_name": "PowerShell", "tool_input": map[string]any{"command": unknown}}, true},
		{"claude Bash within the cap", capped, "claude", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "pytest -q"}}, false},
		{"claude no class rule", `{"disabled_tools": ["sandbox_run"]}`, "claude", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": unknown}}, false},
		{"codex Bash above the cap", capped, "codex", map[string]any{"tool_name": "Bash", "cwd": "/", "tool_input": map[string]any{"command": unknown}}, true},
		{"copilot bash above the cap", capped, "copilot", map[string]any{"toolName": "bash", "cwd": "/", "toolArgs": map[string]any{"command": unknown}}, true},
		{"copilot write_bash above the cap", capped, "copilot", map[string]any{"toolName": "write_bash", "cwd": "/", "toolArgs": map[string]any{"input": unknown + "{enter}"}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			var loads int
			var out, errb bytes.Buffer
			code := runWithPolicy(testSpecs(), policyLoader(t, tc.doc, &loads), []string{tc.host, "pre-tool-use", "--data-dir", data},
				strings.NewReader(eventJSON(tc.ev)), &out, &errb, func(string) string { return "" })
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			want := "blocked by managed policy rule max_execute_class (source " + policySource + ")"
			got := strings.Contains(out.String(), `"deny"`) && strings.Contains(out.String(), jsonString(want))
			if got != tc.deny {
				t.Errorf("output %s\nwant deny with %q: %v", out.String(), want, tc.deny)
			}
			if tc.deny {
				recs, err := audit.Read(data)
				if err != nil || len(recs) != 1 || recs[0]["refusal_rule"] != "policy_max_execute_class" {
					t.Errorf("records %v, %v; want one with refusal_rule policy_max_execute_class", recs, err)
				}
			}
		})
	}
}

// TestHookPolicyCost: a read-only shell command never reads the policy; a call the
// policy does not refuse gets the usual answer.
func TestHookPolicyCost(t *testing.T) {
	var loads int
	load := policyLoader(t, `{"disabled_tools": ["sandbox_run"]}`, &loads)
	var out bytes.Buffer
	// git status in a folder of no repository: read-only (docs/hooks.md).
	ev := eventJSON(map[string]any{"tool_name": "Bash", "cwd": t.TempDir(), "tool_input": map[string]any{"command": "git status --short"}})
	runWithPolicy(testSpecs(), load, []string{"claude", "pre-tool-use", "--data-dir", t.TempDir()}, strings.NewReader(ev), &out, &bytes.Buffer{}, func(string) string { return "" })
	if loads != 0 {
		t.Errorf("a read-only Bash call read the policy %d times", loads)
	}
	out.Reset()
	ev = eventJSON(map[string]any{"tool_name": "mcp__windows-dev-agent__env_inspect", "tool_input": map[string]any{}})
	runWithPolicy(testSpecs(), load, []string{"claude", "pre-tool-use", "--data-dir", t.TempDir()}, strings.NewReader(ev), &out, &bytes.Buffer{}, func(string) string { return "" })
	if out.Len() != 0 || loads != 1 {
		t.Errorf("env_inspect under a policy that allows it: output %q, loads %d", out.String(), loads)
	}
}

// TestHookPolicyBroken: a policy that does not parse denies what would execute and
// lets read-only calls through, in the hooks as in the server.
func TestHookPolicyBroken(t *testing.T) {
	load := func() policy.State {
		return policy.State{Source: "/etc/windows-dev-agent/policy.json", Err: errors.New("/etc/windows-dev-agent/policy.json: line 1, column 2: bad")}
	}
	for _, tc := range []struct {
		tool  string
		input map[string]any
		deny  bool
	}{
		{"mcp__windows-dev-agent__package_install", map[string]any{"package_id": "Git.Git", "execute": true}, true},
		{"mcp__windows-dev-agent__package_install", map[string]any{"package_id": "Git.Git"}, false},
		{"Bash", map[string]any{"command": "frobnicate --all"}, true},
		{"Bash", map[string]any{"command": "git status --short"}, false},
	} {
		var out bytes.Buffer
		ev := eventJSON(map[string]any{"tool_name": tc.tool, "cwd": t.TempDir(), "tool_input": tc.input})
		runWithPolicy(testSpecs(), load, []string{"claude", "pre-tool-use", "--data-dir", t.TempDir()}, strings.NewReader(ev), &out, &bytes.Buffer{}, func(string) string { return "" })
		got := strings.Contains(out.String(), `"deny"`) && strings.Contains(out.String(), "line 1, column 2: bad")
		if got != tc.deny {
			t.Errorf("%v: output %s, want deny %v", tc.input, out.String(), tc.deny)
		}
	}
}
