package policy

import (
	"errors"
	"testing"

	"github.com/windows-dev-agent/wda/tools"
)

func stateOf(t *testing.T, doc string) *State {
	t.Helper()
	p, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return &State{Source: `HKLM\SOFTWARE\Policies\WindowsDevAgent`, SHA256: hash([]byte(doc)), Policy: p}
}

// TestCheckRules: one case per rule that blocks, and its neighbour that passes.
func TestCheckRules(t *testing.T) {
	run := func(id string, execute bool, extra ...any) map[string]any {
		a := map[string]any{"capability": id, "execute": execute}
		if extra != nil {
			a["extra_args"] = extra
		}
		return a
	}
	for _, tc := range []struct {
		name, doc string
		call      Call
		want      string
	}{
		{"disabled tool", `{"disabled_tools": ["tool_discover"]}`, Call{Tool: "tool_discover", Class: tools.ApprovalRequired}, "disabled_tools"},
		{"disabled tool, other tool", `{"disabled_tools": ["tool_discover"]}`, Call{Tool: "env_inspect", Class: tools.ReadOnly}, ""},
		{"denied capability, planning too", `{"denied_capabilities": ["git.push"]}`, Call{Tool: "capability_run", Args: run("git.push", false), Class: tools.ReadOnly}, "denied_capabilities"},
		{"denied project task", `{"denied_capabilities": ["npm:deploy"]}`, Call{Tool: "capability_run", Args: run("npm:deploy", true), Class: tools.ApprovalRequired}, "denied_capabilities"},
		{"not allowed", `{"allowed_capabilities": ["go.test"]}`, Call{Tool: "capability_run", Args: run("git.push", true), Class: tools.ApprovalRequired}, "allowed_capabilities"},
		{"allowed", `{"allowed_capabilities": ["go.test"]}`, Call{Tool: "capability_run", Args: run("go.test", true), Class: tools.Reversible}, ""},
		{"empty allow-list", `{"allowed_capabilities": []}`, Call{Tool: "capability_run", Args: run("go.test", false), Class: tools.ReadOnly}, "allowed_capabilities"},
		{"project task not under allow-list", `{"allowed_capabilities": []}`, Call{Tool: "capability_run", Args: run("npm:test", true), Class: tools.ApprovalRequired}, ""},
		{"project tasks deny", `{"project_tasks": "deny"}`, Call{Tool: "capability_run", Args: run("npm:test", false), Class: tools.ReadOnly}, "project_tasks"},
		{"project tasks ask", `{"project_tasks": "ask"}`, Call{Tool: "capability_run", Args: run("npm:test", true), Class: tools.ApprovalRequired}, ""},
		{"extra args", `{"refuse_extra_args": true}`, Call{Tool: "capability_run", Args: run("go.test", true, "-run", "X"), Class: tools.ApprovalRequired}, "refuse_extra_args"},
		{"extra args malformed", `{"refuse_extra_args": true}`, Call{Tool: "capability_run", Args: map[string]any{"capability": "go.test", "extra_args": "-v"}, Class: tools.ApprovalRequired}, "refuse_extra_args"},
		{"no extra args", `{"refuse_extra_args": true}`, Call{Tool: "capability_run", Args: map[string]any{"capability": "go.test", "extra_args": []any{}}, Class: tools.Reversible}, ""},
		{"max class", `{"max_execute_class": "reversible"}`, Call{Tool: "capability_run", Args: run("winget.upgrade", true), Class: tools.ApprovalRequired}, "max_execute_class"},
		{"max class equal", `{"max_execute_class": "reversible"}`, Call{Tool: "capability_run", Args: run("go.test", true), Class: tools.Reversible}, ""},
		{"max class read-only", `{"max_execute_class": "read-only"}`, Call{Tool: "tool_discover", Class: tools.ApprovalRequired}, "max_execute_class"},
		{"package id", `{"packages": {"allowed_ids": ["Git.Git"]}}`, Call{Tool: "package_install", Args: map[string]any{"package_id": "Mozilla.Firefox"}, Class: tools.ReadOnly}, "packages.allowed_ids"},
		{"package id case", `{"packages": {"allowed_ids": ["Git.Git"]}}`, Call{Tool: "package_install", Args: map[string]any{"package_id": "git.git"}, Class: tools.ReadOnly}, ""},
		{"package source default", `{"packages": {"allowed_sources": ["scoop"]}}`, Call{Tool: "package_install", Args: map[string]any{"package_id": "git"}, Class: tools.ReadOnly}, "packages.allowed_sources"},
		{"package source", `{"packages": {"allowed_sources": ["scoop"]}}`, Call{Tool: "package_install", Args: map[string]any{"package_id": "git", "source": "scoop"}, Class: tools.ReadOnly}, ""},
		{"uninstall", `{"packages": {"allow_uninstall": false}}`, Call{Tool: "package_install", Args: map[string]any{"package_id": "Git.Git", "action": "uninstall", "execute": true}, Class: tools.ApprovalRequired}, "packages.allow_uninstall"},
		{"uninstall allowed", `{"packages": {"allow_uninstall": true}}`, Call{Tool: "package_install", Args: map[string]any{"package_id": "Git.Git", "action": "uninstall", "execute": true}, Class: tools.ApprovalRequired}, ""},
		{"sandbox route", `{"sandbox": {"allowed_routes": ["wsl"]}}`, Call{Tool: "sandbox_run", Args: map[string]any{"environment": "windows_sandbox"}, Class: tools.ReadOnly}, "sandbox.allowed_routes"},
		{"sandbox auto", `{"sandbox": {"allowed_routes": ["wsl", "dev_container"]}}`, Call{Tool: "sandbox_run", Args: map[string]any{}, Class: tools.ReadOnly}, "sandbox.allowed_routes"},
		{"sandbox auto, all routes", `{"sandbox": {"allowed_routes": ["wsl", "dev_container", "windows_sandbox"]}}`, Call{Tool: "sandbox_run", Args: map[string]any{"environment": "auto"}, Class: tools.ReadOnly}, ""},
		{"sandbox listed", `{"sandbox": {"allowed_routes": ["wsl"]}}`, Call{Tool: "sandbox_run", Args: map[string]any{"environment": "wsl"}, Class: tools.ReadOnly}, ""},
		{"empty policy", `{}`, Call{Tool: "capability_run", Args: run("git.push", true, "--force"), Class: tools.ApprovalRequired}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := stateOf(t, tc.doc).Check(tc.call)
			got := ""
			if b != nil {
				got = b.Rule
				want := "blocked by managed policy rule " + tc.want + ` (source HKLM\SOFTWARE\Policies\WindowsDevAgent)`
				if b.Message != want {
					t.Errorf("message %q, want %q", b.Message, want)
				}
				if !IsAuditRule(AuditRule(b.Rule)) {
					t.Errorf("%s is not an audit rule", AuditRule(b.Rule))
				}
			}
			if got != tc.want {
				t.Errorf("rule = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestCheckBroken: a policy that does not parse refuses what would execute; read-only
// calls answer.
func TestCheckBroken(t *testing.T) {
	st := &State{Source: "/etc/windows-dev-agent/policy.json", Err: errors.New("/etc/windows-dev-agent/policy.json: line 1, column 2: x")}
	for _, tc := range []struct {
		call    Call
		blocked bool
	}{
		{Call{Tool: "env_inspect", Class: tools.ReadOnly}, false},
		{Call{Tool: "capability_run", Args: map[string]any{"capability": "go.test"}, Class: tools.ReadOnly}, false},
		{Call{Tool: "capability_run", Args: map[string]any{"capability": "go.test", "execute": true}, Class: tools.Reversible}, true},
		{Call{Tool: "package_install", Args: map[string]any{"execute": true}, Class: tools.ReadOnly}, true},
		{Call{Tool: "tool_discover", Class: tools.ApprovalRequired}, true},
	} {
		b := st.Check(tc.call)
		if (b != nil) != tc.blocked {
			t.Errorf("%s %v: blocked %v, want %v", tc.call.Tool, tc.call.Args, b != nil, tc.blocked)
			continue
		}
		if b != nil {
			want := "blocked: the managed policy cannot be used, so calls that would execute are refused: /etc/windows-dev-agent/policy.json: line 1, column 2: x"
			if b.Message != want || b.Rule != RuleUnreadable {
				t.Errorf("block %+v, want message %q", b, want)
			}
		}
	}
	if (&State{}).Check(Call{Tool: "tool_discover", Class: tools.Forbidden}) != nil {
		t.Error("no policy blocked a call")
	}
}
