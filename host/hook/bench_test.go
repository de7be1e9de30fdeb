package hook

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"

	"github.com/windows-dev-agent/wda/host/classify"
)

// BenchmarkClaudePreToolUse measures the in-process hook path (decode, classify, audit
// append, answer) for a read-only shell event, a read-only git event in a repository
// (which adds the repository check) and an ask-worthy MCP event. Process start-up is
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
	for name, ev := range events {
		b.Run(name, func(b *testing.B) {
			args := []string{"claude", "pre-tool-use", "--data-dir", b.TempDir()}
			in := []byte(ev)
			reg := classify.Shipped
			b.ReportAllocs()
			for b.Loop() {
				if Run(reg, args, bytes.NewReader(in), io.Discard, io.Discard, func(string) string { return "" }) != 0 {
					b.Fatal("non-zero exit")
				}
			}
		})
	}
}
