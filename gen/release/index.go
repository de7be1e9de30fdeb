package release

import (
	"fmt"
	"regexp"
)

// The two marketplace files, at the same paths in the distribution (local sources)
// and on the source repository's main branch (sources pinned to a distribution
// commit).
const (
	ClaudeMarketplacePath = ".claude-plugin/marketplace.json"
	CodexMarketplacePath  = ".agents/plugins/marketplace.json"
)

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
	return marshal(claudeMarketplace{
		Name:        marketplaceName,
		Owner:       owner{Name: ownerName, URL: ownerURL},
		Description: "Windows Dev Agent for Claude Code: ten MCP tools for Windows development, with the host keeping approval.",
		Plugins: []claudeEntry{{Name: pluginName, Source: source, Version: version,
			Description: "Truthful Windows environment discovery, capability routing with reviewed plans, package setup, isolation and ecosystem audits."}},
	})
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
	return marshal(f)
}

var shaRE = regexp.MustCompile(`^[0-9a-f]{40}$`)

// Index renders the two marketplace files of the main branch for a published
// distribution commit: both install the plugin folders of exactly that commit from the
// public repository.
func Index(commit string, m Manifest) (claude, codex []byte, err error) {
	if !shaRE.MatchString(commit) {
		return nil, nil, fmt.Errorf("distribution commit must be 40 lowercase hex characters, got %q", commit)
	}
	if !versionRE.MatchString(m.Version) {
		return nil, nil, fmt.Errorf("version %q is not a release version", m.Version)
	}
	claude, err = renderClaudeMarketplace(gitSubdir{Source: "git-subdir", URL: Repository, Path: ClaudeDir, Ref: m.Tag(), SHA: commit}, m.Version)
	if err != nil {
		return nil, nil, err
	}
	codex, err = codexMarketplace(codexSource{Source: "url", URL: Repository, Path: "./" + CodexDir, SHA: commit})
	return claude, codex, err
}
