package hostcheck

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/gen/release"
)

// Names the checks use (the plugin, its marketplace, and the tool names each host
// shows the model).
const (
	pluginName      = "windows-dev-agent"
	marketplaceName = "windows-dev-agent"
	pluginID        = pluginName + "@" + marketplaceName
	claudePrefix    = "mcp__plugin_windows-dev-agent_windows-dev-agent__"
	codexNamespace  = "mcp__windows_dev_agent"
)

// Texts the hooks answer with (host/hook) that the sessions must show.
const (
	forbiddenCommand = "format C:"
	forbiddenText    = "Windows Dev Agent blocked a forbidden action"
	askText          = "classifies this call as approval-required"
	stopText         = "Windows Dev Agent Session Audit"
)

// askedCall is an executing capability_run of an approval-required capability: the
// PreToolUse hook (Claude) or the approval policy (Codex) must ask before it runs. The
// identity is deliberately wrong, so even an approved call could not start anything.
func askedCall(cwd string) map[string]any {
	in := map[string]any{"capability": "create-pr", "execute": true, "expected_executable": "/usr/bin/gh",
		"expected_executable_identity_kind": "file", "expected_executable_identity_sha256": strings.Repeat("0", 64)}
	if cwd != "" {
		in["cwd"] = cwd
	}
	return in
}

// claudeSession is one Claude Code home with the release installed.
type claudeSession struct {
	e       *Env
	home    string
	project string
}

func (s *claudeSession) env(extra ...string) []string { return s.e.clientEnv(s.home, extra...) }

func (s *claudeSession) claude(ctx context.Context, timeout time.Duration, extra []string, args ...string) receipt {
	return s.e.clientFor(ctx, ClaudeCode, s.project, s.env(extra...), timeout, args...)
}

// installed is where Claude Code keeps the installed plugin.
func (s *claudeSession) installed() string {
	return filepath.Join(s.home, ".claude", "plugins", "cache", marketplaceName, pluginName, s.e.manifest.Version)
}

func (s *claudeSession) dataDir() string {
	return filepath.Join(s.home, ".claude", "plugins", "data", pluginName+"-"+marketplaceName)
}

func (e *Env) claudeGroup() Group {
	s := &claudeSession{e: e}
	var tr *claudeTranscript
	var sc *script
	return Group{Name: "claude " + ClaudeCode.Version, Checks: []Check{
		{Name: "plugin validate --strict claude/", Run: func(ctx context.Context) error {
			var err error
			if s.home, err = e.home("claude"); err != nil {
				return err
			}
			if s.project = filepath.Join(e.work, "claude project"); os.MkdirAll(s.project, 0o755) != nil {
				return errors.New("cannot make the project folder")
			}
			return e.claudeValidate(ctx, s, filepath.Join(e.release, release.ClaudeDir))
		}},
		{Name: "plugin validate --strict on the marketplace root", Independent: true, Run: func(ctx context.Context) error {
			return e.claudeValidate(ctx, s, e.release)
		}},
		{Name: "plugin marketplace add dist/release; plugin install " + pluginID, Run: func(ctx context.Context) error {
			for _, args := range [][]string{{"plugin", "marketplace", "add", e.release}, {"plugin", "install", pluginID}} {
				if err := s.claude(ctx, 5*time.Minute, nil, args...).err(); err != nil {
					return fmt.Errorf("claude %s: %w", strings.Join(args, " "), err)
				}
			}
			return nil
		}},
		{Name: "the installed plugin is claude/ of the release, byte for byte", Run: func(context.Context) error {
			return sameTree(s.installed(), filepath.Join(e.release, release.ClaudeDir), true)
		}},
		{Name: "session: env_inspect, Bash format C:, an executing capability_run", Run: func(ctx context.Context) error {
			sc = newScript(
				step{Tool: claudePrefix + "env_inspect", Input: map[string]any{}},
				step{Tool: "Bash", Input: map[string]any{"command": "format C:", "description": "format the system drive"}},
				step{Tool: claudePrefix + "capability_run", Input: askedCall("")},
			)
			var err error
			tr, err = e.runClaude(ctx, sc, func(ctx context.Context, env []string, args ...string) receipt {
				return s.claude(ctx, 5*time.Minute, env, args...)
			}, []string{claudePrefix + "env_inspect", claudePrefix + "capability_run", "Bash"})
			return err
		}},
		{Name: "the server connected and the model was offered the ten tools", Independent: true, Run: func(context.Context) error {
			return e.offeredAll(sc, tr.servers, claudePrefix)
		}},
		{Name: "env_inspect answers from the shipped wda", Independent: true, Run: func(context.Context) error {
			return envInspectAnswered(tr.result(claudePrefix+"env_inspect"), "")
		}},
		{Name: "PreToolUse denies Bash format C:", Independent: true, Run: func(context.Context) error {
			return tr.deniedWith("Bash", forbiddenText)
		}},
		{Name: "PreToolUse asks before an executing capability_run", Independent: true, Run: func(context.Context) error {
			return tr.deniedWith(claudePrefix+"capability_run", askText)
		}},
		{Name: "Stop shows the session's audit summary", Independent: true, Run: func(context.Context) error {
			return tr.noticed(stopText)
		}},
		{Name: "server and hooks wrote one audit log in the plugin's data folder", Independent: true, Run: func(context.Context) error {
			return sharedAuditLog(s.dataDir(), "claude")
		}},
		{Name: "nothing was written inside the installed plugin folder", Independent: true, Run: func(context.Context) error {
			return sameTree(s.installed(), filepath.Join(e.release, release.ClaudeDir), true)
		}},
	}}
}

func (e *Env) claudeValidate(ctx context.Context, s *claudeSession, dir string) error {
	r := s.claude(ctx, 2*time.Minute, nil, "plugin", "validate", "--strict", dir)
	if err := r.err(); err != nil {
		return err
	}
	if out := r.output(); !strings.Contains(out, "Validation passed") || strings.Contains(out, "⚠") {
		return fmt.Errorf("validator: %s", tail(out))
	}
	return nil
}

// claudeRunner runs one claude command with extra environment.
type claudeRunner func(ctx context.Context, env []string, args ...string) receipt

// runClaude runs `claude -p` against the scripted model and parses its stream.
func (e *Env) runClaude(ctx context.Context, sc *script, run claudeRunner, allowed []string) (*claudeTranscript, error) {
	model, err := serve(anthropicModel(sc))
	if err != nil {
		return nil, err
	}
	defer func() { _ = model.Close() }() // the session is over; its results are in hand
	r := run(ctx, []string{"ANTHROPIC_BASE_URL=" + model.URL, "ANTHROPIC_API_KEY=sk-ant-api03-scripted"},
		"-p", "use the tools", "--output-format", "stream-json", "--verbose", "--allowedTools", strings.Join(allowed, ","))
	if err := r.err(); err != nil {
		return nil, err
	}
	tr, err := parseClaude(r.Stdout)
	if err != nil {
		return nil, err
	}
	if sc.Played() != len(sc.steps) {
		return tr, fmt.Errorf("the session ended after %d of %d scripted calls: %s", sc.Played(), len(sc.steps), tail(r.output()))
	}
	return tr, nil
}

// offeredAll checks that the server connected and every tool the release ships (the
// names in its Codex server configuration) was offered under prefix.
func (e *Env) offeredAll(sc *script, servers map[string]string, prefix string) error {
	if servers != nil {
		connected := false
		for name, st := range servers {
			connected = connected || (strings.Contains(name, pluginName) && st == "connected")
		}
		if !connected {
			return fmt.Errorf("no connected %s server: %v", pluginName, servers)
		}
	}
	names, err := e.shippedTools()
	if err != nil {
		return err
	}
	var missing []string
	for _, n := range names {
		if !sc.Offered(prefix + n) {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 || len(names) != 10 {
		return fmt.Errorf("%d tools shipped, not offered: %v", len(names), missing)
	}
	return nil
}

// shippedTools are the tool names of the release, from its Codex server configuration.
func (e *Env) shippedTools() ([]string, error) {
	raw, err := os.ReadFile(filepath.Join(e.release, release.CodexDir, ".mcp.codex.json"))
	if err != nil {
		return nil, err
	}
	var cfg map[string]struct {
		Tools map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return nil, err
	}
	var names []string
	for _, s := range cfg {
		for n := range s.Tools {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names, nil
}

// envInspectAnswered checks a tool result is env_inspect's snapshot; osName, when set,
// must appear in the snapshot's OS name.
func envInspectAnswered(text, osName string) error {
	var r struct {
		Status   string `json:"status"`
		Snapshot *struct {
			System struct {
				OSName string `json:"os_name"`
			} `json:"system"`
		} `json:"snapshot"`
	}
	if err := json.Unmarshal([]byte(text), &r); err != nil || r.Snapshot == nil || (r.Status != "ok" && r.Status != "degraded") {
		return fmt.Errorf("env_inspect result is not a snapshot: %s", tail(text))
	}
	if osName != "" && !strings.Contains(r.Snapshot.System.OSName, osName) {
		return fmt.Errorf("env_inspect reports os_name %q, want %s", r.Snapshot.System.OSName, osName)
	}
	return nil
}

// claudeTranscript is what a `claude -p --output-format stream-json` run showed.
type claudeTranscript struct {
	servers map[string]string // MCP server → status at start
	calls   []toolCall
	notices []string
	denied  []string // tools in the run's permission_denials
}

type toolCall struct {
	tool    string
	result  string
	isError bool
}

func parseClaude(stream string) (*claudeTranscript, error) {
	tr := &claudeTranscript{servers: map[string]string{}}
	names := map[string]string{} // tool_use id → tool
	sc := bufio.NewScanner(strings.NewReader(stream))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	sawResult := false
	for sc.Scan() {
		var line struct {
			Type       string `json:"type"`
			Subtype    string `json:"subtype"`
			Content    any    `json:"content"`
			MCPServers []struct {
				Name, Status string
			} `json:"mcp_servers"`
			Message struct {
				Content []struct {
					Type      string          `json:"type"`
					ID        string          `json:"id"`
					Name      string          `json:"name"`
					ToolUseID string          `json:"tool_use_id"`
					Content   json.RawMessage `json:"content"`
					IsError   bool            `json:"is_error"`
				} `json:"content"`
			} `json:"message"`
			PermissionDenials []struct {
				ToolName string `json:"tool_name"`
			} `json:"permission_denials"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		switch line.Type {
		case "system":
			for _, s := range line.MCPServers {
				tr.servers[s.Name] = s.Status
			}
			if s, ok := line.Content.(string); ok {
				tr.notices = append(tr.notices, s)
			}
		case "assistant":
			for _, c := range line.Message.Content {
				if c.Type == "tool_use" {
					names[c.ID] = c.Name
				}
			}
		case "user":
			for _, c := range line.Message.Content {
				if c.Type == "tool_result" {
					tr.calls = append(tr.calls, toolCall{tool: names[c.ToolUseID], result: resultText(c.Content), isError: c.IsError})
				}
			}
		case "result":
			sawResult = true
			for _, d := range line.PermissionDenials {
				tr.denied = append(tr.denied, d.ToolName)
			}
		}
	}
	if !sawResult {
		return tr, fmt.Errorf("the session stream has no result line: %s", tail(stream))
	}
	return tr, sc.Err()
}

// resultText is a tool result's content: a string, or text blocks joined.
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct{ Text string }
	if json.Unmarshal(raw, &blocks) == nil {
		var b strings.Builder
		for _, x := range blocks {
			b.WriteString(x.Text)
		}
		return b.String()
	}
	return string(raw)
}

func (t *claudeTranscript) result(tool string) string {
	for _, c := range t.calls {
		if c.tool == tool {
			return c.result
		}
	}
	return ""
}

// deniedWith checks that tool's call was refused with text and counted as a
// permission denial.
func (t *claudeTranscript) deniedWith(tool, text string) error {
	for _, c := range t.calls {
		if c.tool == tool {
			if !c.isError || !strings.Contains(c.result, text) {
				return fmt.Errorf("%s was not refused with %q: %s", tool, text, tail(c.result))
			}
			if !slices.Contains(t.denied, tool) {
				return fmt.Errorf("%s is not among the permission denials %v", tool, t.denied)
			}
			return nil
		}
	}
	return fmt.Errorf("no result for %s", tool)
}

func (t *claudeTranscript) noticed(text string) error {
	for _, n := range t.notices {
		if strings.Contains(n, text) {
			return nil
		}
	}
	return fmt.Errorf("no notice with %q among %d", text, len(t.notices))
}
