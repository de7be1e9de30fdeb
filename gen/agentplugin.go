package gen

import (
	"path"
	"slices"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/host/hook"
	"github.com/windows-dev-agent/wda/skills"
	"github.com/windows-dev-agent/wda/tools"
)

// AgentPluginRoot is the Agent Plugins 1.0 payload (GitHub Copilot CLI, VS Code,
// Cursor; docs/hosts/copilot.md).
const AgentPluginRoot = "agent-plugin"

// Agent Plugins 1.0 schema identifiers: both files must name the same spec version.
const (
	agentPluginSchema = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
	agentMCPSchema    = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"
)

// CopilotHooksPath is the Copilot CLI's client-extension hooks file inside the
// payload: since Copilot CLI 1.0.80 an Agent Plugins package's hooks are read only
// under com.github.copilot/, never from the plugin root.
const CopilotHooksPath = "com.github.copilot/hooks/hooks.json"

type agentPluginManifest struct {
	Schema      string   `json:"$schema"`
	Name        string   `json:"name"`
	Version     string   `json:"version"`
	Description string   `json:"description"`
	Author      person   `json:"author"`
	Homepage    string   `json:"homepage"`
	Repository  string   `json:"repository"`
	License     string   `json:"license"`
	Keywords    []string `json:"keywords"`
}

type agentStdioServer struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

type agentMCP struct {
	Schema     string                      `json:"$schema"`
	MCPServers map[string]agentStdioServer `json:"mcpServers"`
}

type copilotHook struct {
	Matcher    string `json:"matcher"`
	Type       string `json:"type"`
	Bash       string `json:"bash"`
	PowerShell string `json:"powershell"`
	TimeoutSec int    `json:"timeoutSec"`
}

type copilotHooks struct {
	Version int `json:"version"`
	Hooks   struct {
		PreToolUse []copilotHook `json:"preToolUse"`
	} `json:"hooks"`
}

// agentPluginBinary is the server command. The spec resolves a ./ path against the
// plugin root and forbids placeholders in command; it has no extension so the same
// manifest starts bin/wda on Linux and macOS and bin/wda.exe on Windows, where both
// process spawners the hosts use (Rust's std::process for the Copilot CLI, libuv for
// VS Code and Cursor) append .exe to an extensionless path (docs/hosts/copilot.md).
const agentPluginBinary = "./bin/wda"

// CopilotHookTools are the tools the Copilot preToolUse hook sees, in registry order:
// every tool a gate can decide something for, and every project-scoped tool (the hook
// checks its project argument against the session's directory).
func CopilotHookTools(reg *tools.Registry) []string {
	gated, scoped := Gated(reg), ProjectScoped(reg)
	var out []string
	for _, t := range reg.Tools() {
		if slices.Contains(gated, t.Name()) || slices.Contains(scoped, t.Name()) {
			out = append(out, t.Name())
		}
	}
	return out
}

func renderAgentPlugin(reg *tools.Registry, all []skills.Skill, files map[string][]byte) error {
	m := agentPluginManifest{
		Schema:      agentPluginSchema,
		Name:        wda.ServerName,
		Version:     wda.Version,
		Description: "Windows development over MCP for Agent Plugins hosts (GitHub Copilot CLI, VS Code, Cursor): truthful environment discovery, capability routing with reviewed plans, package setup, isolation and ecosystem audits; the host keeps approval.",
		Author:      person{Name: author, URL: homepage},
		Homepage:    homepage,
		Repository:  homepage,
		License:     license,
		Keywords:    append(keywords[:len(keywords):len(keywords)], "copilot", "vscode"),
	}
	mcp := agentMCP{Schema: agentMCPSchema, MCPServers: map[string]agentStdioServer{wda.ServerName: {
		Type:    "stdio",
		Command: agentPluginBinary,
		Args:    []string{"mcp", "--host", "copilot"},
		// ${PLUGIN_DATA} is the spec's per-plugin data folder; ${COPILOT_PROJECT_DIR}
		// is not expanded here (it stays literal), so no project is passed.
		Env: map[string]string{"WINDOWS_DEV_AGENT_DATA_DIR": "${PLUGIN_DATA}"},
	}}}
	// Copilot anchors the matcher itself; the explicit anchors and group keep the
	// alternation whole whichever way it does.
	var h copilotHooks
	h.Version = 1
	h.Hooks.PreToolUse = []copilotHook{{
		Matcher: "^(" + alternation(hook.CopilotShellTools) + "|" + alternation(hook.CopilotShellInputTools) +
			"|" + alternation([]string{hook.CopilotToolPrefix}) +
			"(" + alternation(CopilotHookTools(reg)) + "))$",
		Type: "command",
		// The hook runs from the plugin root with PLUGIN_ROOT set; bash elsewhere,
		// PowerShell on Windows (where the call operator starts a quoted path).
		Bash:       `"$PLUGIN_ROOT/bin/wda-hook" copilot pre-tool-use`,
		PowerShell: `& "$env:PLUGIN_ROOT\bin\wda-hook.exe" copilot pre-tool-use`,
		TimeoutSec: 30,
	}}
	for name, v := range map[string]any{
		"plugin.json":    m,
		"mcp.json":       mcp,
		CopilotHooksPath: h,
	} {
		b, err := MarshalJSON(v)
		if err != nil {
			return err
		}
		files[path.Join(AgentPluginRoot, name)] = b
	}
	for _, s := range all {
		files[path.Join(AgentPluginRoot, "skills", s.Name, "SKILL.md")] = s.Body
	}
	return renderPayloadDocs(AgentPluginRoot, "Agent Plugins", reg, all, files)
}
