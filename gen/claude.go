package gen

import (
	"path"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/skills"
	"github.com/windows-dev-agent/wda/tools"
)

type person struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

// claudeManifest holds only keys Claude Code reads (docs/hosts/claude.md): no
// "$schema", which it ignores at load time. Icon is read by the plugin listing and
// `claude plugin validate` (without it the validator reports ICON_MISSING).
type claudeManifest struct {
	Name        string   `json:"name"`
	DisplayName string   `json:"displayName"`
	Description string   `json:"description"`
	Version     string   `json:"version"`
	Author      person   `json:"author"`
	Homepage    string   `json:"homepage"`
	Repository  string   `json:"repository"`
	License     string   `json:"license"`
	Keywords    []string `json:"keywords"`
	Icon        string   `json:"icon"`
}

type stdioServer struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

// hookCommand is one command hook. Claude uses the exec form (Command + Args, no
// shell, OnFailure); Codex has no exec form and takes a command line per OS (Command,
// CommandWindows). Neither host reads a per-hook description.
type hookCommand struct {
	Type           string   `json:"type"`
	Command        string   `json:"command"`
	Args           []string `json:"args,omitempty"`
	CommandWindows string   `json:"commandWindows,omitempty"`
	OnFailure      string   `json:"onFailure,omitempty"`
	Timeout        int      `json:"timeout,omitempty"`
}

type hookGroup struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []hookCommand `json:"hooks"`
}

type claudeHooks struct {
	Description string `json:"description"`
	Hooks       struct {
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

// claudeServer and claudeHookBinary are the plugin's two binaries, without an
// extension: on Windows Claude Code resolves them to bin\wda.exe and bin\wda-hook.exe
// (cross-spawn for the MCP server, libuv for exec-form hooks), elsewhere bin/wda and
// bin/wda-hook are the dispatch scripts that start this machine's build
// (docs/hosts/claude.md, docs/release.md).
const (
	claudeServer     = "${CLAUDE_PLUGIN_ROOT}/bin/wda"
	claudeHookBinary = "${CLAUDE_PLUGIN_ROOT}/bin/wda-hook"
)

// claudeHook is an exec-form hook (command + args, no shell): Claude Code for Windows
// without Git Bash would otherwise run a command line in PowerShell, where a quoted
// path followed by words starts nothing. The PreToolUse hook fails closed: if the
// binary cannot start, the guarded call is blocked (onFailure "block"; the default
// lets the call through).
func claudeHook(event string, failClosed bool) hookCommand {
	h := hookCommand{Type: "command", Command: claudeHookBinary,
		Args: []string{"claude", event, "--data-dir", "${CLAUDE_PLUGIN_DATA}"}}
	if failClosed {
		h.OnFailure = "block"
	}
	return h
}

func renderClaude(reg *tools.Registry, _ []skills.Skill, files map[string][]byte) error {
	m := claudeManifest{
		Name:        wda.ServerName,
		DisplayName: displayName,
		Description: "Windows development for Claude Code: truthful environment discovery, capability routing with reviewed plans, WinGet/Chocolatey/Scoop setup, WSL/Dev Container/Windows Sandbox isolation and ecosystem audits; the host keeps approval.",
		Version:     wda.Version,
		Author:      person{Name: author, URL: homepage},
		Homepage:    homepage,
		Repository:  homepage,
		License:     license,
		Keywords:    append(keywords[:len(keywords):len(keywords)], "defrag"),
		Icon:        "./" + IconPath,
	}
	mcp := map[string]map[string]stdioServer{"mcpServers": {wda.ServerName: {
		Command: claudeServer,
		Args:    []string{"mcp", "--host", "claude"},
		Env: map[string]string{
			"WINDOWS_DEV_AGENT_DATA_DIR":    "${CLAUDE_PLUGIN_DATA}",
			"WINDOWS_DEV_AGENT_PROJECT_DIR": "${CLAUDE_PROJECT_DIR}",
		},
	}}}
	var h claudeHooks
	h.Description = "Windows Dev Agent hooks for Claude Code: PreToolUse asks for approval-required calls and denies forbidden ones (never allows), and blocks the call if the hook cannot run; PostToolUse and PostToolUseFailure record derived audit metadata; Stop shows the session's audit summary."
	pre := "^(Bash|PowerShell|mcp__" + claudeServerPrefixes + "__(" + alternation(Gated(reg)) + "))$"
	post := "^mcp__" + claudeServerPrefixes + "__.*$"
	h.Hooks.PreToolUse = []hookGroup{{Matcher: pre, Hooks: []hookCommand{claudeHook("pre-tool-use", true)}}}
	h.Hooks.PostToolUse = []hookGroup{{Matcher: post, Hooks: []hookCommand{claudeHook("post-tool-use", false)}}}
	h.Hooks.PostToolUseFailure = []hookGroup{{Matcher: post, Hooks: []hookCommand{claudeHook("post-tool-use-failure", false)}}}
	h.Hooks.Stop = []hookGroup{{Hooks: []hookCommand{claudeHook("stop", false)}}}

	for name, v := range map[string]any{
		".claude-plugin/plugin.json": m,
		".mcp.json":                  mcp,
		"hooks/hooks.json":           h,
	} {
		b, err := MarshalJSON(v)
		if err != nil {
			return err
		}
		files[path.Join(ClaudeRoot, name)] = b
	}
	files[path.Join(ClaudeRoot, IconPath)] = icon
	return nil
}
