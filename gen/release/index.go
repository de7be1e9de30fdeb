package release

import (
	"fmt"
	"regexp"

	"github.com/windows-dev-agent/wda/gen"
)

// The marketplace files, at the same paths in the distribution (local sources) and on
// the source repository's main branch (sources pinned to a distribution commit). The
// Copilot CLI reads its own before Claude's, so it never installs the Claude plugin
// from either place (docs/hosts/copilot.md).
const (
	ClaudeMarketplacePath  = ".claude-plugin/marketplace.json"
	CodexMarketplacePath   = ".agents/plugins/marketplace.json"
	CopilotMarketplacePath = ".github/plugin/marketplace.json"
)

// IndexPaths are main's marketplace files, in the order Index renders them.
var IndexPaths = []string{ClaudeMarketplacePath, CodexMarketplacePath, CopilotMarketplacePath}

// Repository is the published git URL of the project; the distribution commits are
// published to its branch dist and tags dist/v<version> (docs/release.md).
const Repository = "https://github.com/windows-dev-agent/wda.git"

const (
	marketplaceName = "windows-dev-agent"
	pluginName      = "windows-dev-agent"
	ownerName       = "Windows Dev Agent contributors"
	ownerURL        = "https://github.com/windows-dev-agent/wda"
)

type owner struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

type claudeMarketplace struct {
	Name        string        `json:"name"`
	Owner       owner         `json:"owner"`
	Description string        `json:"description"`
	Plugins     []claudeEntry `json:"plugins"`
}

type claudeEntry struct {
	Name        string `json:"name"`
	Source      any    `json:"source"` // "./claude" in the distribution, a gitSubdir on main
	Description string `json:"description"`
	Version     string `json:"version"`
}

// gitSubdir is Claude Code's source for a plugin in a folder of a git repository at a
// fixed commit (sparse, partial clone of ref, then sha).
type gitSubdir struct {
	Source string `json:"source"`
	URL    string `json:"url"`
	Path   string `json:"path"`
	Ref    string `json:"ref"`
	SHA    string `json:"sha"`
}

type codexSource struct {
	Source string `json:"source"`
	URL    string `json:"url,omitempty"`
	Path   string `json:"path"`
	SHA    string `json:"sha,omitempty"`
}

type codexMarketplaceFile struct {
	Name      string `json:"name"`
	Interface struct {
		DisplayName string `json:"displayName"`
	} `json:"interface"`
	Plugins []codexEntry `json:"plugins"`
}

type codexEntry struct {
	Name   string      `json:"name"`
	Source codexSource `json:"source"`
	Policy struct {
		Installation   string `json:"installation"`
		Authentication string `json:"authentication"`
	} `json:"policy"`
	Category string `json:"category"`
}

func renderClaudeMarketplace(source any, version string) ([]byte, error) {
	return gen.MarshalJSON(claudeMarketplace{
		Name:        marketplaceName,
		Owner:       owner{Name: ownerName, URL: ownerURL},
		Description: "Windows Dev Agent for Claude Code: ten MCP tools for Windows development, with the host keeping approval.",
		Plugins: []claudeEntry{{Name: pluginName, Source: source, Version: version,
			Description: "Truthful Windows environment discovery, capability routing with reviewed plans, package setup, isolation and ecosystem audits."}},
	})
}

// copilotMarketplace is the Copilot CLI's marketplace file: Claude's format with a
// metadata object (Copilot 1.0.102 accepts a git-subdir source, fetching its sha).
type copilotMarketplace struct {
	Name     string `json:"name"`
	Owner    owner  `json:"owner"`
	Metadata struct {
		Description string `json:"description"`
		Version     string `json:"version"`
	} `json:"metadata"`
	Plugins []claudeEntry `json:"plugins"`
}

func renderCopilotMarketplace(source any, version string) ([]byte, error) {
	f := copilotMarketplace{Name: marketplaceName, Owner: owner{Name: ownerName, URL: ownerURL},
		Plugins: []claudeEntry{{Name: pluginName, Source: source, Version: version,
			Description: "Truthful Windows environment discovery, capability routing with reviewed plans, package setup, isolation and ecosystem audits."}}}
	f.Metadata.Description = "Windows Dev Agent as an Agent Plugins 1.0 package for the GitHub Copilot CLI, VS Code and Cursor."
	f.Metadata.Version = version
	return gen.MarshalJSON(f)
}

func distClaudeMarketplace(m Manifest) ([]byte, error) {
	return renderClaudeMarketplace("./"+ClaudeDir, m.Version)
}

func codexMarketplace(src codexSource) ([]byte, error) {
	var f codexMarketplaceFile
	f.Name = marketplaceName
	f.Interface.DisplayName = "Windows Dev Agent"
	e := codexEntry{Name: pluginName, Source: src, Category: "Productivity"}
	e.Policy.Installation, e.Policy.Authentication = "AVAILABLE", "ON_INSTALL"
	f.Plugins = []codexEntry{e}
	return gen.MarshalJSON(f)
}

var shaRE = regexp.MustCompile(`^[0-9a-f]{40}$`)

// Index renders the marketplace files of the main branch (keyed by IndexPaths) for a
// published distribution commit: each installs its plugin folder of exactly that
// commit from the public repository.
func Index(commit string, m Manifest) (map[string][]byte, error) {
	if !shaRE.MatchString(commit) {
		return nil, fmt.Errorf("distribution commit must be 40 lowercase hex characters, got %q", commit)
	}
	if !versionRE.MatchString(m.Version) {
		return nil, fmt.Errorf("version %q is not a release version", m.Version)
	}
	subdir := func(dir string) gitSubdir {
		return gitSubdir{Source: "git-subdir", URL: Repository, Path: dir, Ref: m.Tag(), SHA: commit}
	}
	out := map[string][]byte{}
	var err error
	if out[ClaudeMarketplacePath], err = renderClaudeMarketplace(subdir(ClaudeDir), m.Version); err != nil {
		return nil, err
	}
	if out[CodexMarketplacePath], err = codexMarketplace(codexSource{Source: "url", URL: Repository, Path: "./" + CodexDir, SHA: commit}); err != nil {
		return nil, err
	}
	if out[CopilotMarketplacePath], err = renderCopilotMarketplace(subdir(AgentPluginDir), m.Version); err != nil {
		return nil, err
	}
	return out, nil
}
