package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/internal/audit"
)

// TestE2EReplacementCatalogOneClass: a replacement catalog (WINDOWS_DEV_AGENT_CATALOG)
// that changes a capability's class gives that class in the hook's decision, the tool's
// result and the audit records of both (docs/catalog.md). The shipped test-go is
// reversible, which a Claude hook lets through silently; the replacement makes it
// approval-required, so the hook must ask, and the server must say and record the same.
// (Its argv becomes `go version`, so the executing call is quick.)
func TestE2EReplacementCatalogOneClass(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the executing call needs a go command on PATH:", err)
	}
	shipped := string(wda.CapabilitiesYAML)
	const from = "test-go:\n  description: Run the Go tests of every package in the module.\n  safety: reversible\n" +
		"  tags: [go, golang, test]\n  tools:\n    - name: go\n      argv: [go, test, ./...]\n"
	if !strings.Contains(shipped, from) {
		t.Fatalf("the shipped catalog no longer has test-go in this form:\n%s", from)
	}
	to := strings.NewReplacer("reversible", "approval-required", "[go, test, ./...]", "[go, version]").Replace(from)
	replacement := strings.Replace(shipped, from, to, 1)
	catPath := filepath.Join(t.TempDir(), "capabilities.yaml")
	if err := os.WriteFile(catPath, []byte(replacement), 0o644); err != nil {
		t.Fatal(err)
	}
	data, project := t.TempDir(), repoRoot(t)
	env := append(os.Environ(), "WINDOWS_DEV_AGENT_CATALOG="+catPath, "WINDOWS_DEV_AGENT_DATA_DIR="+data,
		"WINDOWS_DEV_AGENT_PROJECT_DIR="+project, "CLAUDE_PROJECT_DIR="+project)

	// The hook, as Claude Code starts it for an executing capability_run.
	ev, _ := json.Marshal(map[string]any{"session_id": "S1", "tool_use_id": "U1", "hook_event_name": "PreToolUse",
		"tool_name": "mcp__plugin_windows-dev-agent_windows-dev-agent__capability_run", "cwd": project,
		"tool_input": map[string]any{"capability": "test-go", "execute": true, "cwd": project}})
	hook := exec.Command(wdaBin, "hook", "claude", "pre-tool-use")
	hook.Env, hook.Stdin = env, bytes.NewReader(ev)
	out, err := hook.Output()
	if err != nil {
		t.Fatalf("hook: %v", err)
	}
	var answer struct {
		HookSpecificOutput struct {
			PermissionDecision string `json:"permissionDecision"`
			AdditionalContext  string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &answer); err != nil {
		t.Fatalf("hook answer %q: %v", out, err)
	}
	if got := answer.HookSpecificOutput; got.PermissionDecision != "ask" || !strings.Contains(got.AdditionalContext, "safety_class=approval-required") {
		t.Errorf("hook answered %+v, want ask for approval-required", got)
	}

	// The server, as the same host starts it: the plan names the class, and the
	// executing call (the plan's execute_arguments, as a host passes them back after
	// the user approved) runs under it.
	cmd := exec.Command(wdaBin, "mcp", "--host", "claude")
	cmd.Env = env
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "0"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	type result struct {
		Status           string          `json:"status"`
		SafetyClass      string          `json:"safety_class"`
		ExecuteArguments json.RawMessage `json:"execute_arguments"`
	}
	call := func(args any) result {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "capability_run", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var r result
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	plan := call(map[string]any{"capability": "test-go", "cwd": project})
	if d := cmp.Diff("planned approval-required", plan.Status+" "+plan.SafetyClass); d != "" {
		t.Fatalf("capability_run plan (-want +got):\n%s", d)
	}
	run := call(plan.ExecuteArguments)
	if d := cmp.Diff("completed approval-required", run.Status+" "+run.SafetyClass); d != "" {
		t.Errorf("capability_run execution (-want +got):\n%s", d)
	}
	cs.Close()

	// The audit log: the hook's decision and the server's call, one class.
	recs, err := audit.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		class, _ := r["safety_class"].(string)
		got = append(got, r["event"].(string)+" "+class)
	}
	// The plan itself runs nothing, so it is read-only whatever it plans.
	want := []string{"PreToolUse approval-required", "tools/call read-only", "tools/call approval-required"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("audit records (-want +got):\n%s\n%v", d, recs)
	}
}
