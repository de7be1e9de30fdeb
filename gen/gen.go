package gen

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/skills"
	"github.com/windows-dev-agent/wda/tools"
)

// Payload roots under dist/. Each host gets its own root so neither can load the
// other's hooks file.
const (
	ClaudeRoot = "claude"
	CodexRoot  = "codex"
)

// Roots are every payload root under dist/ that Render owns (the others are in
// agentplugin.go, mcpb.go, registry.go, gemini.go and policy.go).
var Roots = []string{ClaudeRoot, CodexRoot, AgentPluginRoot, MCPBRoot, RegistryRoot, GeminiRoot, PolicyRoot}

// Project metadata shared by both manifests.
const (
	displayName = "Windows Dev Agent"
	homepage    = "https://github.com/windows-dev-agent/wda"
	author      = "Windows Dev Agent contributors"
	license     = "MIT"
)

// IconPath is the plugin icon inside each payload: a square PNG (512 px), as Claude's
// validator asks (512 to 2048 px, PNG or JPEG) and Codex's interface shows.
const IconPath = "assets/icon.png"

// BrandColor is the icon's background, Codex's interface brandColor.
const BrandColor = "#0F766E"

// icon is drawn for this project (gen/assets/icon.png): a prompt chevron and cursor
// on a teal rounded square.
//
//go:embed assets/icon.png
var icon []byte

// CodexServerName is the Codex server key: Codex tool names are mcp__<key>__<tool>, and
// the hyphenated name would not survive its naming rules.
var CodexServerName = strings.ReplaceAll(wda.ServerName, "-", "_")

// Render returns every generated file, keyed by its slash path under dist/.
func Render(reg *tools.Registry) (map[string][]byte, error) {
	files := map[string][]byte{}
	all, err := skills.All()
	if err != nil {
		return nil, err
	}
	for _, s := range all {
		files[path.Join(ClaudeRoot, "skills", s.Name, "SKILL.md")] = s.Body
		files[path.Join(CodexRoot, "skills", s.Name, "SKILL.md")] = s.Body
	}
	for _, step := range []func(*tools.Registry, []skills.Skill, map[string][]byte) error{renderClaude, renderCodex, renderDocs,
		renderAgentPlugin, renderMCPB, renderRegistry, renderGemini, renderPolicy} {
		if err := step(reg, all, files); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// MarshalJSON renders JSON the way every generated payload file is written: two-space
// indentation, no HTML escaping, a trailing newline, keys in struct field order. The
// release writes its marketplaces and manifests with it too.
func MarshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Gated lists, in registry order, the tools for which a host gate can ever decide
// something: those whose most restricted call is neither read-only nor reversible, as
// each tool declares it.
func Gated(reg *tools.Registry) []string {
	var out []string
	for _, t := range reg.Tools() {
		if t.MaxClass().Rank() > tools.Reversible.Rank() {
			out = append(out, t.Name())
		}
	}
	return out
}

// AlwaysReadOnly lists tools that are read-only for every argument combination.
func AlwaysReadOnly(reg *tools.Registry) []string {
	var out []string
	for _, t := range reg.Tools() {
		if t.MaxClass() == tools.ReadOnly {
			out = append(out, t.Name())
		}
	}
	return out
}

// toolNames lists every tool's name, in the registry's order.
func toolNames(reg *tools.Registry) []string {
	var out []string
	for _, t := range reg.Tools() {
		out = append(out, t.Name())
	}
	return out
}

// ProjectScoped lists tools that take a project directory argument.
func ProjectScoped(reg *tools.Registry) []string {
	var out []string
	for _, t := range reg.Tools() {
		if t.ProjectArg() != "" {
			out = append(out, t.Name())
		}
	}
	return out
}

// alternation renders names as a regexp alternation, checking each is a plain name.
func alternation(names []string) string {
	for _, n := range names {
		if regexp.QuoteMeta(n) != n {
			panic(fmt.Sprintf("gen: tool name %q needs escaping in a matcher", n))
		}
	}
	return strings.Join(names, "|")
}

func without(names []string, drop ...string) []string {
	return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return slices.Contains(drop, n) })
}
