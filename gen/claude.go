package gen

import (
	"fmt"
	"path"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/skills"
	"github.com/windows-dev-agent/wda/tools"
)

type person struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

type claudeManifest struct {
	Schema      string   `json:"$schema"`
	Name        string   `json:"name"`
	DisplayName string   `json:"displayName"`
	Description string   `json:"description"`
	Version     string   `json:"version"`
	Author      person   `json:"author"`
	Homepage    string   `json:"homepage"`
	Repository  string   `json:"repository"`
	License     string   `json:"license"`
	Keywords    []string `json:"keywords"`
}

type stdioServer struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

type hookCommand struct {
	Type           string `json:"type"`
	Command        string `json:"command"`
	CommandWindows string `json:"commandWindows,omitempty"`
	Timeout        int    `json:"timeout,omitempty"`
	Description    string `json:"description,omitempty"`
}

type hookGroup struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []hookCommand `json:"hooks"`
}

type claudeHooks struct {
	Hooks struct {
		PreToolUse         []hookGroup `json:"PreToolUse"`
		PostToolUse        []hookGroup `json:"PostToolUse"`
		PostToolUseFailure []hookGroup `json:"PostToolUseFailure"`
		Stop               []hookGroup `json:"Stop"`
	} `json:"hooks"`
}

var keywords = []string{"windows", "powershell", "winget", "wsl", "sandbox", "agentic", "orchestration"}

// claudeServerPrefixes are the two names Claude gives this server's tools: the bare
// server (a local .mcp.json) and the installed plugin.
var claudeServerPrefixes = "(" + wda.ServerName + "|plugin_" + wda.ServerName + "_" + wda.ServerName + ")"

// claudeBinary is the plugin's own binary; without an extension so the same manifest
// starts bin/wda on Linux and macOS and bin/wda.exe on Windows (Claude's process
// spawning and Git Bash both add .exe).
const claudeBinary = "${CLAUDE_PLUGIN_ROOT}/bin/wda"

func claudeHook(event, description string) hookCommand {
	return hookCommand{Type: "command",
		Command:     fmt.Sprintf(`"%s" hook claude %s --data-dir "${CLAUDE_PLUGIN_DATA}"`, claudeBinary, event),
		Description: description}
}

func renderClaude(reg *tools.Registry, _ []skills.Skill, files map[string][]byte) error {
	m := claudeManifest{
		Schema:      "https://json.schemastore.org/claude-code-plugin-manifest.json",
		Name:        wda.ServerName,
		DisplayName: displayName,
		Description: "Windows development for Claude Code: truthful environment discovery, capability routing with reviewed plans, WinGet/Chocolatey/Scoop setup, WSL/Dev Container/Windows Sandbox isolation and ecosystem audits; the host keeps approval.",
		Version:     wda.Version,
		Author:      person{Name: author, URL: homepage},
		Homepage:    homepage,
		Repository:  homepage,
		License:     license,
		Keywords:    append(keywords[:len(keywords):len(keywords)], "defrag"),
	}
	mcp := map[string]map[string]stdioServer{"mcpServers": {wda.ServerName: {
		Command: claudeBinary,
		Args:    []string{"mcp", "--host", "claude"},
		Env: map[string]string{
			"WINDOWS_DEV_AGENT_DATA_DIR":    "${CLAUDE_PLUGIN_DATA}",
			"WINDOWS_DEV_AGENT_PROJECT_DIR": "${CLAUDE_PROJECT_DIR}",
		},
	}}}
	var h claudeHooks
	pre := "^(Bash|PowerShell|mcp__" + claudeServerPrefixes + "__(" + alternation(Gated(reg)) + "))$"
	post := "^mcp__" + claudeServerPrefixes + "__.*$"
	h.Hooks.PreToolUse = []hookGroup{{Matcher: pre, Hooks: []hookCommand{claudeHook("pre-tool-use", "Tighten Claude's permission flow: ask for approval-required calls, deny forbidden ones, never allow.")}}}
	h.Hooks.PostToolUse = []hookGroup{{Matcher: post, Hooks: []hookCommand{claudeHook("post-tool-use", "Record derived metadata of a finished Windows Dev Agent call in the audit log.")}}}
	h.Hooks.PostToolUseFailure = []hookGroup{{Matcher: post, Hooks: []hookCommand{claudeHook("post-tool-use-failure", "Record a failed Windows Dev Agent call; an external effect stays unknown.")}}}
	h.Hooks.Stop = []hookGroup{{Hooks: []hookCommand{claudeHook("stop", "Show this session's Windows Dev Agent audit summary.")}}}

	for name, v := range map[string]any{
		".claude-plugin/plugin.json": m,
		".mcp.json":                  mcp,
		"hooks/hooks.json":           h,
	} {
		b, err := marshal(v)
		if err != nil {
			return err
		}
		files[path.Join(ClaudeRoot, name)] = b
	}
	return nil
}
