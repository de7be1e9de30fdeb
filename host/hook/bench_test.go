package hook

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/internal/policy"
)

// BenchmarkClaudePreToolUse measures the in-process hook path (decode, classify, audit
// append, answer) for a read-only shell event, a read-only git event in a repository
// (which adds the repository check) and an ask-worthy MCP event, without and with a
// managed policy in force. Process start-up is
// measured against the built binary in cmd/wda.
func BenchmarkClaudePreToolUse(b *testing.B) {
	repo := b.TempDir()
	gitRepo(b, filepath.Join(repo, ".git"), plainGitConfig)
	events := map[string]string{
		"read-only-shell": `{"session_id":"b","tool_use_id":"u","tool_name":"PowerShell","tool_input":{"command":"Get-ChildItem C:\\src"}}`,
		"read-only-git": eventJSON(map[string]any{"session_id": "b", "tool_use_id": "u", "tool_name": "Bash",
			"tool_input": map[string]any{"command": "git status --short"}, "cwd": repo}),
		"ask-mcp": `{"session_id":"b","tool_use_id":"u","tool_name":"mcp__plugin_windows-dev-agent_windows-dev-agent__package_install","tool_input":{"package_id":"Git.Git","execute":true}}`,
	}
	// ask-mcp-policy is ask-mcp with a managed policy file in force that allows the
	// call: the cost of reading (one open) and parsing it on every call of our tools.
	events["ask-mcp-policy"] = events["ask-mcp"]
	policyFile := filepath.Join(b.TempDir(), "policy.json")
	if err := os.WriteFile(policyFile, []byte(`{"max_execute_class": "approval-required", "denied_capabilities": ["git.push"], "packages": {"allowed_ids": ["Git.Git"]}}`), 0o600); err != nil {
		b.Fatal(err)
	}
	for name, ev := range events {
		b.Run(name, func(b *testing.B) {
			args := []string{"claude", "pre-tool-use", "--data-dir", b.TempDir()}
			in := []byte(ev)
			reg := classify.Shipped
			load := systemPolicy // no policy on a test machine: /etc/windows-dev-agent/policy.json is absent
			if name == "ask-mcp-policy" {
				load = func() policy.State { return policy.Load(policy.Sources{File: policyFile}) }
			}
			b.ReportAllocs()
			for b.Loop() {
				if runWithPolicy(reg, load, args, bytes.NewReader(in), io.Discard, io.Discard, func(string) string { return "" }) != 0 {
					b.Fatal("non-zero exit")
				}
			}
		})
	}
}
