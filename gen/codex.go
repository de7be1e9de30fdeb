package gen

import (
	"fmt"
	"path"
	"slices"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/skills"
	"github.com/windows-dev-agent/wda/tools"
)

type codexInterface struct {
	DisplayName      string   `json:"displayName"`
	ShortDescription string   `json:"shortDescription"`
	LongDescription  string   `json:"longDescription"`
	DeveloperName    string   `json:"developerName"`
	Category         string   `json:"category"`
	Capabilities     []string `json:"capabilities"`
	WebsiteURL       string   `json:"websiteURL"`
}

type codexManifest struct {
	Name        string         `json:"name"`
	Version     string         `json:"version"`
	Description string         `json:"description"`
	Author      person         `json:"author"`
	Homepage    string         `json:"homepage"`
	Repository  string         `json:"repository"`
	License     string         `json:"license"`
	Keywords    []string       `json:"keywords"`
	Skills      string         `json:"skills"`
	MCPServers  string         `json:"mcpServers"`
	Hooks       string         `json:"hooks"`
	Interface   codexInterface `json:"interface"`
}

type approval struct {
	ApprovalMode string `json:"approval_mode"`
}

type codexServer struct {
	Command                  string              `json:"command"`
	Args                     []string            `json:"args"`
	Cwd                      string              `json:"cwd"`
	Env                      map[string]string   `json:"env"`
	ToolTimeoutSec           int                 `json:"tool_timeout_sec"`
	DefaultToolsApprovalMode string              `json:"default_tools_approval_mode"`
	Tools                    map[string]approval `json:"tools"`
}

type codexHooks struct {
	Description string `json:"description"`
	Hooks       struct {
		PreToolUse        []hookGroup `json:"PreToolUse"`
		PermissionRequest []hookGroup `json:"PermissionRequest"`
		PostToolUse       []hookGroup `json:"PostToolUse"`
		Stop              []hookGroup `json:"Stop"`
	} `json:"hooks"`
}

// CodexToolTimeout is Codex's per-call MCP timeout: above the runtime's 600 s execution
// ceiling so Codex never abandons a call the runtime is still bounding.
const CodexToolTimeout = 610

// codexHook runs the plugin binary. Codex injects PLUGIN_ROOT into plugin hooks and
// runs them from the project directory. On Windows the string goes to `cmd.exe /C`,
// where a double quote breaks parsing, so commandWindows is quote-free: `cd /d` takes
// the rest of its argument literally (spaces included) up to `&&`, then the binary is
// started relative to the plugin root.
//
// Codex's hook handler takes no description field, so the purpose of each hook is said
// here and in the file's top-level description only.
func codexHook(event string) hookCommand {
	return hookCommand{
		Type:           "command",
		Command:        fmt.Sprintf(`"$PLUGIN_ROOT/bin/wda" hook codex %s`, event),
		CommandWindows: fmt.Sprintf(`cd /d %%PLUGIN_ROOT%% && bin\wda.exe hook codex %s`, event),
		Timeout:        30,
	}
}

func renderCodex(reg *tools.Registry, _ []skills.Skill, files map[string][]byte) error {
	m := codexManifest{
		Name:        wda.ServerName,
		Version:     wda.Version,
		Description: "Windows development for Codex: truthful environment discovery, capability routing with reviewed plans, package setup, local isolation and ecosystem audits; Codex keeps approval.",
		Author:      person{Name: author, URL: homepage},
		Homepage:    homepage,
		Repository:  homepage,
		License:     license,
		Keywords:    append(keywords[:len(keywords):len(keywords)], "codex"),
		Skills:      "./skills/",
		MCPServers:  "./.mcp.codex.json",
		Hooks:       "./hooks/codex-hooks.json",
		Interface: codexInterface{
			DisplayName:      displayName,
			ShortDescription: "Windows-native developer orchestration",
			LongDescription:  "Ten MCP tools for Windows development: tri-state environment discovery, tool discovery, capability routing and plan-first execution, WinGet/Chocolatey/Scoop search and install, WSL, Dev Container and Windows Sandbox isolation, ecosystem and MCP-config audits, and a metadata-only audit log.",
			DeveloperName:    author,
			Category:         "Productivity",
			Capabilities:     []string{"Windows environment discovery", "Development workflow routing", "Package setup", "Local isolation"},
			WebsiteURL:       homepage,
		},
	}
	// Tools that are read-only whatever their arguments and read nothing of the project
	// are approved without a prompt; everything else prompts.
	autoApprove := without(AlwaysReadOnly(reg), ProjectScoped(reg)...)
	tools := map[string]approval{}
	for _, t := range reg.Tools() {
		mode := "prompt"
		if slices.Contains(autoApprove, t.Name()) {
			mode = "approve"
		}
		tools[t.Name()] = approval{mode}
	}
	server := map[string]codexServer{CodexServerName: {
		// Codex roots a relative cwd at the installed plugin and resolves a relative
		// command against that cwd (which_in on Windows adds .exe), so this starts the
		// plugin's own binary wherever Codex cached it.
		Command:                  "./bin/wda",
		Args:                     []string{"mcp", "--host", "codex"},
		Cwd:                      ".",
		Env:                      map[string]string{"WINDOWS_DEV_AGENT_HOST": "codex"},
		ToolTimeoutSec:           CodexToolTimeout,
		DefaultToolsApprovalMode: "prompt",
		Tools:                    tools,
	}}
	var h codexHooks
	h.Description = "Windows Dev Agent hooks for Codex. PreToolUse denies forbidden commands and project-scoped calls outside the session's project; PermissionRequest allows only plan-only calls proven to stay inside it; PostToolUse records derived audit metadata; Stop shows the session's audit summary."
	prefix := "mcp__" + CodexServerName + "__"
	h.Hooks.PreToolUse = []hookGroup{{Matcher: "^(Bash|" + prefix + "(" + alternation(ProjectScoped(reg)) + "))$",
		Hooks: []hookCommand{codexHook("pre-tool-use")}}}
	h.Hooks.PermissionRequest = []hookGroup{{Matcher: "^" + prefix + "(" + alternation(permissionRequestTools(reg)) + ")$",
		Hooks: []hookCommand{codexHook("permission-request")}}}
	h.Hooks.PostToolUse = []hookGroup{{Matcher: "^" + prefix + ".*$",
		Hooks: []hookCommand{codexHook("post-tool-use")}}}
	h.Hooks.Stop = []hookGroup{{Hooks: []hookCommand{codexHook("stop")}}}

	for name, v := range map[string]any{
		".codex-plugin/plugin.json": m,
		".mcp.codex.json":           server,
		"hooks/codex-hooks.json":    h,
	} {
		b, err := marshal(v)
		if err != nil {
			return err
		}
		files[path.Join(CodexRoot, name)] = b
	}
	return nil
}
