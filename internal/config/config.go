package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	wda "github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/host/hostenv"
	"github.com/windows-dev-agent/wda/internal/platform/home"
)

// Hosts are the host names a command accepts, in the order help text lists them.
var Hosts = []string{"claude", "codex", "copilot", "gemini", "mcpb", "generic"}

// Environment variables read here, and nowhere else, to decide the session.
const (
	DataDirVar    = "WINDOWS_DEV_AGENT_DATA_DIR"
	ProjectDirVar = "WINDOWS_DEV_AGENT_PROJECT_DIR"
	CatalogVar    = "WINDOWS_DEV_AGENT_CATALOG"
	// ClaudePluginDataVar is Claude Code's plugin-scoped persistent directory.
	ClaudePluginDataVar = "CLAUDE_PLUGIN_DATA"
	// CodexHomeVar is Codex's home (default ~/.codex).
	CodexHomeVar = "CODEX_HOME"
	// CopilotPluginDataVar is the Copilot CLI's plugin data directory: set for both the
	// MCP server and the hooks of an installed plugin (docs/hosts/copilot.md).
	CopilotPluginDataVar = "COPILOT_PLUGIN_DATA"
	// PluginDataVar is the Agent Plugins 1.0 data directory, set for the MCP server
	// (Copilot's hooks get only COPILOT_PLUGIN_DATA).
	PluginDataVar = "PLUGIN_DATA"
)

// Config is what a process decided at start-up.
type Config struct {
	// Host is one of Hosts.
	Host string
	// DataDir holds the cache, the audit log and sandbox bundles.
	DataDir string
	// ProjectDir is the active project as configured ("" when the host gives none).
	ProjectDir string
	// CatalogPath is a user capability catalog that extends the shipped one ("" for none;
	// docs/catalog.md, "A user catalog").
	CatalogPath string
	// Getenv is the environment the process was given.
	Getenv func(string) string
}

// Flags are the command-line overrides; empty fields are unset. A value the host did
// not expand (a literal ${CLAUDE_PLUGIN_DATA}) counts as unset.
type Flags struct {
	DataDir    string
	ProjectDir string
}

// Resolve decides the session for host with the given overrides.
func Resolve(host string, f Flags, getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if !validHost(host) {
		return Config{}, fmt.Errorf("unknown host %q (want %s)", host, strings.Join(Hosts, ", "))
	}
	c := Config{Host: host, Getenv: getenv, CatalogPath: hostenv.Var(getenv, CatalogVar)}
	c.DataDir = hostenv.Var(func(string) string { return f.DataDir }, "")
	if c.DataDir == "" {
		c.DataDir = DataDir(host, getenv)
	}
	c.ProjectDir = hostenv.Var(func(string) string { return f.ProjectDir }, "")
	if c.ProjectDir == "" {
		c.ProjectDir = ProjectDir(host, getenv)
	}
	return c, nil
}

func validHost(h string) bool {
	for _, n := range Hosts {
		if n == h {
			return true
		}
	}
	return false
}

// DataDir is the data directory of host when no flag names one
// (docs/architecture.md, "Data directory"): WINDOWS_DEV_AGENT_DATA_DIR, else Claude's
// CLAUDE_PLUGIN_DATA, else Codex's ${CODEX_HOME:-~/.codex}/plugins/data/windows-dev-agent,
// else Copilot's COPILOT_PLUGIN_DATA or PLUGIN_DATA, else the user cache directory +
// windows-dev-agent (Gemini CLI and MCPB hosts give no data directory).
func DataDir(host string, getenv func(string) string) string {
	if v := hostenv.Var(getenv, DataDirVar); v != "" {
		return v
	}
	switch host {
	case "claude":
		if v := hostenv.Var(getenv, ClaudePluginDataVar); v != "" {
			return v
		}
	case "codex":
		if ch := CodexHome(getenv); ch != "" {
			return filepath.Join(ch, "plugins", "data", wda.ServerName)
		}
	case "copilot":
		for _, k := range []string{CopilotPluginDataVar, PluginDataVar} {
			if v := hostenv.Var(getenv, k); v != "" {
				return v
			}
		}
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, wda.ServerName)
	}
	return filepath.Join(os.TempDir(), wda.ServerName)
}

// CodexHome is Codex's home, ${CODEX_HOME:-~/.codex}, read through getenv: CODEX_HOME
// (hostenv.Var: an unexpanded placeholder counts as unset) with a leading ~ expanded
// by home.Expand, else .codex under home.Dir. It is "" when no absolute path results
// (CODEX_HOME relative, or unset with no home directory known): a relative one would
// name a folder under whatever the working directory is, which differs between the
// server and the hooks. It is the one rule for every caller — the Codex data
// directory, wda doctor, mcp_audit and ecosystem_scan (docs/platform.md, "The home
// directory").
func CodexHome(getenv func(string) string) string {
	if v := hostenv.Var(getenv, CodexHomeVar); v != "" {
		if v = home.Expand(v, getenv); filepath.IsAbs(v) {
			return filepath.Clean(v)
		}
		return ""
	}
	if h := home.Dir(getenv); h != "" {
		return filepath.Join(h, ".codex")
	}
	return ""
}

// ProjectDir is the active project of host when no flag names one: Claude's and Gemini
// CLI's come only from the host (WINDOWS_DEV_AGENT_PROJECT_DIR, set from
// ${CLAUDE_PROJECT_DIR} or ${workspacePath}); Codex, Copilot and MCPB hosts give none
// (each call names its own); the generic host uses the variable, else the current
// directory. The current directory of a host-started server is the plugin's own
// folder, never the project, so only the generic host falls back to it.
func ProjectDir(host string, getenv func(string) string) string {
	v := hostenv.Var(getenv, ProjectDirVar)
	if host != "generic" {
		return v
	}
	if v != "" {
		return v
	}
	d, _ := os.Getwd()
	return d
}
