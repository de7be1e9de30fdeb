package classify

import (
	"strings"

	"github.com/windows-dev-agent/wda/tools"
)

// The three names a host gives this server's tools: the direct (project .mcp.json)
// server key, the installed Claude plugin form mcp__plugin_<plugin>_<server>__, and
// Codex's underscore server key.
const (
	PrefixClaude       = "mcp__windows-dev-agent__"
	PrefixClaudePlugin = "mcp__plugin_windows-dev-agent_windows-dev-agent__"
	PrefixCodex        = "mcp__windows_dev_agent__"
)

// ShellTools are the host tool names whose tool_input.command is a shell command line.
var ShellTools = []string{"Bash", "PowerShell"}

// ShortName strips any of the three prefixes: ("env_inspect", true) for
// "mcp__windows_dev_agent__env_inspect"; ("", false) for a name that is not one of
// this server's tools.
func ShortName(toolName string) (string, bool) {
	for _, p := range []string{PrefixClaudePlugin, PrefixClaude, PrefixCodex} {
		if s, ok := strings.CutPrefix(toolName, p); ok && s != "" {
			return s, true
		}
	}
	return "", false
}

// IsShell reports whether toolName is Bash or PowerShell.
func IsShell(toolName string) bool { return toolName == "Bash" || toolName == "PowerShell" }

// Tool returns the safety class of a hook event's call. input is the decoded
// tool_input (nil for a non-object); decode it with json.Decoder.UseNumber so numbers
// reach a tool's Classify as they would after validation. The arguments are not
// validated: a tool's Classify tests values strictly (execute must be exactly true), so
// an argument the server would reject cannot lower the class, and an extra argument (a
// fake user_approved) is ignored. A WDA tool missing from reg, or a Classify that panics
// or answers an unknown class, is approval-required: the classifier fails closed.
func Tool(reg *tools.Registry, toolName string, input map[string]any) tools.Class {
	if IsShell(toolName) {
		cmd, _ := input["command"].(string)
		return Shell(cmd)
	}
	short, ok := ShortName(toolName)
	if !ok || reg == nil {
		return tools.ApprovalRequired
	}
	t, ok := reg.Lookup(short)
	if !ok {
		return tools.ApprovalRequired
	}
	return toolClass(t, input)
}

func toolClass(t tools.Tool, input map[string]any) (c tools.Class) {
	defer func() {
		if recover() != nil {
			c = tools.ApprovalRequired
		}
	}()
	if input == nil {
		input = map[string]any{}
	}
	c = t.Classify(tools.Args(input))
	if _, ok := tools.ParseClass(string(c)); !ok {
		return tools.ApprovalRequired
	}
	return c
}

// Lookup returns the registered tool behind a WDA tool name with any prefix.
func Lookup(reg *tools.Registry, toolName string) (tools.Tool, bool) {
	short, ok := ShortName(toolName)
	if !ok || reg == nil {
		return nil, false
	}
	return reg.Lookup(short)
}
