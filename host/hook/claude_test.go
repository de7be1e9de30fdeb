package hook

import (
	"strings"
	"testing"
)

const plug = "mcp__plugin_windows-dev-agent_windows-dev-agent__"

// docs/hooks.md, "Claude Code", "PreToolUse": the decision table.
func TestClaudePreToolUse(t *testing.T) {
	reg := testSpecs()
	bash := func(cmd string) map[string]any { return map[string]any{"command": cmd} }
	cases := []struct {
		name     string
		tool     string
		input    any
		decision string // "" = no output
		class    string
	}{
		{"read-only PowerShell", "PowerShell", bash(`Get-ChildItem C:\src`), "", "read-only"},
		{"read-only Bash", "Bash", bash("git status --short"), "", "read-only"},
		{"feature enablement", "PowerShell", bash("Enable-WindowsOptionalFeature -Online -FeatureName VirtualMachinePlatform"), "ask", "approval-required"},
		{"unknown command", "Bash", bash("whoami"), "ask", "approval-required"},
		{"compound ;", "Bash", bash("git status; whoami"), "ask", "approval-required"},
		{"compound &&", "Bash", bash("git status && rm x"), "ask", "approval-required"},
		{"pipe", "PowerShell", bash("Get-ChildItem | Remove-Item"), "ask", "approval-required"},
		{"redirection", "Bash", bash("git log > out.txt"), "ask", "approval-required"},
		{"substitution", "Bash", bash("git show $(whoami)"), "ask", "approval-required"},
		{"lone &", "Bash", bash("git status & calc"), "ask", "approval-required"},
		{"pytest", "Bash", bash("pytest -q"), "", "reversible"},
		{"dotnet build", "PowerShell", bash("dotnet build"), "", "reversible"},
		{"winget install", "PowerShell", bash("winget install Git.Git"), "ask", "approval-required"},
		{"format C:", "Bash", bash("format C:"), "deny", "forbidden"},
		{"missing command", "Bash", map[string]any{}, "ask", "approval-required"},
		{"installed package_install execute", plug + "package_install", map[string]any{"package_id": "Git.Git", "execute": true}, "ask", "approval-required"},
		{"fake user_approved does not help", plug + "package_install", map[string]any{"package_id": "Git.Git", "execute": true, "user_approved": true}, "ask", "approval-required"},
		{"package_install plan", plug + "package_install", map[string]any{"package_id": "Git.Git", "execute": false}, "", "read-only"},
		{"direct prefix sandbox execute", "mcp__windows-dev-agent__sandbox_run", map[string]any{"execute": true}, "ask", "approval-required"},
		{"ecosystem_scan include_host", plug + "ecosystem_scan", map[string]any{"include_host": true}, "ask", "approval-required"},
		{"ecosystem_scan project only", plug + "ecosystem_scan", map[string]any{}, "", "read-only"},
		{"mcp_audit config_path", plug + "mcp_audit", map[string]any{"config_path": "x"}, "ask", "approval-required"},
		{"tool_discover", plug + "tool_discover", map[string]any{}, "ask", "approval-required"},
		{"package_search", plug + "package_search", map[string]any{"query": "git"}, "ask", "approval-required"},
		{"env_inspect", plug + "env_inspect", map[string]any{}, "", "read-only"},
		{"capability plan", plug + "capability_run", map[string]any{"capability": "deploy", "execute": false}, "", "read-only"},
		{"forbidden capability", plug + "capability_run", map[string]any{"capability": "dangerous", "execute": true}, "deny", "forbidden"},
		{"approval capability", plug + "capability_run", map[string]any{"capability": "deploy", "execute": true}, "ask", "approval-required"},
		{"checkpoint tool", plug + "checkpointer", nil, "ask", "checkpoint"},
		{"reversible capability", plug + "capability_run", map[string]any{"capability": "tests", "execute": true}, "", "reversible"},
		{"extra_args upgrade", plug + "capability_run", map[string]any{"capability": "tests", "execute": true, "extra_args": []any{"-k", "x"}}, "ask", "approval-required"},
		{"read-only capability with extra_args", plug + "capability_run", map[string]any{"capability": "lint", "execute": true, "extra_args": []any{"x"}}, "ask", "approval-required"},
		// A project's own task (issue 23 §1): the hook cannot read the project, so it
		// asks, even when a catalog names the id read-only; a plan stays read-only.
		{"project task", plug + "capability_run", map[string]any{"capability": "npm:dev", "execute": true}, "ask", "approval-required"},
		{"project task a catalog calls read-only", plug + "capability_run", map[string]any{"capability": "npm:lint", "execute": true}, "ask", "approval-required"},
		{"project task with spaces", plug + "capability_run", map[string]any{"capability": "vscode:Build Release", "execute": true}, "ask", "approval-required"},
		{"project task plan", plug + "capability_run", map[string]any{"capability": "npm:lint"}, "", "read-only"},
		{"project task, forbidden extra_args", plug + "capability_run", map[string]any{"capability": "make:test", "execute": true, "extra_args": []any{"/c", "format", "D:"}}, "deny", "forbidden"},
		{"unknown WDA tool", plug + "workflow_execute", map[string]any{}, "ask", "approval-required"},
		{"another server's tool", "mcp__other__env_inspect", map[string]any{}, "ask", "approval-required"},
		{"non-object tool_input", plug + "package_install", "execute", "", "read-only"},
	}
	cwd := t.TempDir() // a directory in no repository: a git form is checked and found plain
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := t.TempDir()
			ev := map[string]any{"session_id": "S1", "tool_use_id": "U1", "tool_name": c.tool, "tool_input": c.input,
				"cwd": cwd, "hook_event_name": "PreToolUse", "permission_mode": "default", "transcript_path": "/t"}
			r := run(t, reg, nil, eventJSON(ev), "claude", "pre-tool-use", "--data-dir", data)
			if r.code != 0 {
				t.Fatalf("exit %d", r.code)
			}
			m := decodeOne(t, r.stdout)
			gotDecision := ""
			if m != nil {
				hso := m["hookSpecificOutput"].(map[string]any)
				gotDecision = hso["permissionDecision"].(string)
				if hso["hookEventName"] != "PreToolUse" || hso["additionalContext"] != "windows-dev-agent safety_class="+c.class {
					t.Errorf("output %v", m)
				}
				reason, _ := hso["permissionDecisionReason"].(string)
				if gotDecision == "deny" && !strings.Contains(reason, "task boundary") {
					t.Errorf("deny reason %q does not mention the task boundary", reason)
				}
				if gotDecision == "ask" && !strings.Contains(reason, c.class) {
					t.Errorf("ask reason %q does not name the class", reason)
				}
			}
			if gotDecision != c.decision {
				t.Fatalf("decision %q, want %q (output %q)", gotDecision, c.decision, r.stdout)
			}
			raw, recs := records(t, data)
			if len(recs) != 1 {
				t.Fatalf("%d audit records", len(recs))
			}
			rec := recs[0]
			wantDecision := c.decision
			if wantDecision == "" {
				wantDecision = "host-default"
			}
			for k, want := range map[string]any{"event": "PreToolUse", "lifecycle_event": "PreToolUse", "execution_outcome": "not_applicable",
				"permission_decision": wantDecision, "permission_denied": c.decision == "deny", "safety_class": c.class,
				"session_id": "S1", "tool_use_id": "U1", "tool_name": c.tool, "schema_version": 1.0, "success": nil} {
				if rec[k] != want {
					t.Errorf("record %s = %v, want %v", k, rec[k], want)
				}
			}
			if _, has := rec["host"]; has {
				t.Errorf("Claude record carries host %v", rec["host"])
			}
			if strings.Contains(raw, "tool_input") || strings.Contains(raw, "Git.Git") || strings.Contains(raw, "Remove-Item") {
				t.Errorf("audit record stores the input: %s", raw)
			}
		})
	}
}

func TestClaudePreToolUseUnparsable(t *testing.T) {
	for _, in := range []string{"", "not json", "[1,2]", "null", `"str"`, `{"tool_name":"Bash"} {}`, `{"tool_name":`, "\xff\xfe"} {
		r := run(t, testSpecs(), nil, in, "claude", "pre-tool-use", "--data-dir", t.TempDir())
		m := decodeOne(t, r.stdout)
		if r.code != 0 || m == nil {
			t.Fatalf("%q: %+v", in, r)
		}
		hso := m["hookSpecificOutput"].(map[string]any)
		if hso["permissionDecision"] != "deny" || !strings.Contains(hso["permissionDecisionReason"].(string), "could not read the hook event") {
			t.Errorf("%q: %v", in, m)
		}
		if _, has := hso["additionalContext"]; has {
			t.Errorf("%q: parse failure carries additionalContext", in)
		}
	}
	// A BOM before an otherwise valid event is tolerated.
	r := run(t, testSpecs(), nil, "\xef\xbb\xbf"+`{"tool_name":"Bash","tool_input":{"command":"Get-ChildItem src"}}`, "claude", "pre-tool-use", "--data-dir", t.TempDir())
	if r.stdout != "" {
		t.Errorf("BOM event: %q", r.stdout)
	}
}

func TestClaudeStop(t *testing.T) {
	reg := testSpecs()
	data := t.TempDir()
	post := func(session, tool string, input, response any, failure bool) {
		ev := eventJSON(map[string]any{"session_id": session, "tool_name": tool, "tool_input": input, "tool_response": response, "tool_use_id": "u"})
		name := "post-tool-use"
		if failure {
			name = "post-tool-use-failure"
		}
		if r := run(t, reg, nil, ev, "claude", name, "--data-dir", data); r.code != 0 || r.stdout != "" {
			t.Fatalf("trace: %+v", r)
		}
	}
	post("S1", plug+"package_install", map[string]any{"execute": true}, map[string]any{"status": "completed", "succeeded": true, "execution_started": true}, false)
	post("S1", plug+"sandbox_run", map[string]any{"execute": true}, map[string]any{"status": "launched", "execution_started": true}, false)
	post("S1", plug+"capability_run", map[string]any{"execute": true}, map[string]any{"status": "failed", "execution_started": true}, false)
	post("OTHER", plug+"mcp_audit", map[string]any{}, map[string]any{"status": "issues_found"}, false)
	run(t, reg, nil, eventJSON(map[string]any{"session_id": "S1", "tool_name": "Bash", "tool_input": map[string]any{"command": "format C:"}}),
		"claude", "pre-tool-use", "--data-dir", data)

	r := run(t, reg, nil, `{"session_id":"S1","hook_event_name":"Stop"}`, "claude", "stop", "--data-dir", data)
	m := decodeOne(t, r.stdout)
	if r.code != 0 || m == nil {
		t.Fatalf("%+v", r)
	}
	msg, _ := m["systemMessage"].(string)
	if len(m) != 1 {
		t.Errorf("extra keys in %v", m)
	}
	for _, want := range []string{"Session Audit", "Events: 4", "succeeded: 1", "failed: 1", "unknown: 1", "permission denials: 1", "sandbox_run"} {
		if !strings.Contains(msg, want) {
			t.Errorf("report lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "mcp_audit") {
		t.Errorf("report lists another session's tool:\n%s", msg)
	}
	// --session-id wins over stdin; nothing for an unknown session, no session, bad stdin.
	if r := run(t, reg, nil, "garbage", "claude", "stop", "--session-id", "OTHER", "--data-dir", data); !strings.Contains(r.stdout, "Events: 1") {
		t.Errorf("--session-id: %q", r.stdout)
	}
	for _, in := range []string{`{"session_id":"NOPE"}`, `{}`, "garbage", ""} {
		if r := run(t, reg, nil, in, "claude", "stop", "--data-dir", data); r.code != 0 || r.stdout != "" {
			t.Errorf("%q: %+v", in, r)
		}
	}
	if r := run(t, reg, nil, `{"session_id":"S1"}`, "claude", "stop", "--data-dir", t.TempDir()); r.code != 0 || r.stdout != "" {
		t.Errorf("empty data dir: %+v", r)
	}
}
