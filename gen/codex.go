package gen

import (
	"fmt"
	"path"
	"slices"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/internal/config"
	"github.com/windows-dev-agent/wda/skills"
	"github.com/windows-dev-agent/wda/tools"
)

// CodexEnvVars are the variables the Codex payload's server takes from Codex's
// environment (env_vars): CODEX_HOME, so the server and the hooks share one data folder,
// and the user catalog's variable, so they share one catalog (docs/hosts/codex.md).
func CodexEnvVars() []string { return []string{"CODEX_HOME", config.CatalogVar} }

// codexInterface is what Codex shows of the plugin. Icon paths must start with "./"
// (Codex drops others silently); defaultPrompt takes at most 3 prompts of at most 128
// characters (docs/hosts/codex.md).
type codexInterface struct {
	DisplayName      string   `json:"displayName"`
	ShortDescription string   `json:"shortDescription"`
	LongDescription  string   `json:"longDescription"`
	DeveloperName    string   `json:"developerName"`
	Category         string   `json:"category"`
	Capabilities     []string `json:"capabilities"`
	WebsiteURL       string   `json:"websiteURL"`
	DefaultPrompt    []string `json:"defaultPrompt"`
	BrandColor       string   `json:"brandColor"`
	ComposerIcon     string   `json:"composerIcon"`
	Logo             string   `json:"logo"`
}

// codexManifest holds only keys Codex reads: author, homepage, repository and license
// appear nowhere in what Codex loads or shows, so they are left out
// (docs/hosts/codex.md).
type codexManifest struct {
	Name        string         `json:"name"`
	Version     string         `json:"version"`
	Description string         `json:"description"`
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
	EnvVars                  []string            `json:"env_vars"`
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

// codexHook starts the plugin's hook binary. Codex runs a hook command line through
// the session's shell: on Linux and macOS `$SHELL -lc`, which expands $PLUGIN_ROOT (set
// for plugin hooks; quoted for spaces) and starts the dispatch script bin/wda-hook; on
// Windows PowerShell (pwsh or Windows PowerShell) or, without one, `%COMSPEC% /C`.
// Codex replaces ${PLUGIN_ROOT} textually before any shell sees the line, and Rust
// quotes the whole line as one argument, so commandWindows contains no quote at all:
// under PowerShell `cmd --%` hands the rest of the line verbatim to cmd; under cmd the
// first command is a harmless child cmd and the rest runs in place. In both, `cd /d`
// takes the rest of its line literally (spaces included) and bin\wda-hook.exe starts
// relative to the plugin root with the hook's stdin (docs/hosts/codex.md).
//
// Codex's hook handler takes no description field, so the purpose of each hook is said
// here and in the file's top-level description only.
func codexHook(event string) hookCommand {
	return hookCommand{
		Type:           "command",
		Command:        fmt.Sprintf(`"$PLUGIN_ROOT/bin/wda-hook" codex %s`, event),
		CommandWindows: fmt.Sprintf(`cmd --%% /d /c cd /d ${PLUGIN_ROOT} & cd /d ${PLUGIN_ROOT} && bin\wda-hook.exe codex %s`, event),
		Timeout:        30,
	}
}

// codexPrompts are the interface's starter prompts.
var codexPrompts = []string{
	"Inspect this Windows machine for development",
	"Plan how to build and test this project",
	"Find and install the tools this project needs",
}

func renderCodex(reg *tools.Registry, _ []skills.Skill, files map[string][]byte) error {
	m := codexManifest{
		Name:        wda.ServerName,
		Version:     wda.Version,
		Description: "Windows development for Codex: truthful environment discovery, capability routing with reviewed plans, package setup, local isolation and ecosystem audits; Codex keeps approval.",
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
			DefaultPrompt:    codexPrompts,
			BrandColor:       BrandColor,
			ComposerIcon:     "./" + IconPath,
			Logo:             "./" + IconPath,
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
		// command against that cwd (which_in: on Windows bin\wda.exe, since an
		// extension-less file counts only if it is a Windows executable), so this starts
		// the plugin's own binary wherever Codex cached it; ${PLUGIN_ROOT} is not
		// expanded here. The server gets only Codex's default variables plus env_vars:
		// CODEX_HOME passes through so the server and the hooks (which inherit Codex's
		// environment) resolve one data directory (docs/hosts/codex.md), and
		// WINDOWS_DEV_AGENT_CATALOG so both use one user catalog (docs/catalog.md).
		Command:                  "./bin/wda",
		Args:                     []string{"mcp", "--host", "codex"},
		Cwd:                      ".",
		Env:                      map[string]string{"WINDOWS_DEV_AGENT_HOST": "codex"},
		EnvVars:                  CodexEnvVars(),
		ToolTimeoutSec:           CodexToolTimeout,
		DefaultToolsApprovalMode: "prompt",
		Tools:                    tools,
	}}
	var h codexHooks
	h.Description = "Windows Dev Agent hooks for Codex. PreToolUse denies forbidden commands and project-scoped calls outside the session's project, and tells the server the hooks run; PermissionRequest allows only plan-only calls proven to stay inside it; PostToolUse records derived audit metadata; Stop shows the session's audit summary."
	prefix := "mcp__" + CodexServerName + "__"
	// Every tool of the server: project-scoped calls are checked, and every call's
	// hand-over tells the server the hooks run (host/codex, Notice).
	h.Hooks.PreToolUse = []hookGroup{{Matcher: "^(Bash|" + prefix + "(" + alternation(toolNames(reg)) + "))$",
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
		b, err := MarshalJSON(v)
		if err != nil {
			return err
		}
		files[path.Join(CodexRoot, name)] = b
	}
	files[path.Join(CodexRoot, IconPath)] = icon
	return nil
}
