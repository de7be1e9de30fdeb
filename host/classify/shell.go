package classify

import (
	"regexp"
	"strings"
	"sync"

	"github.com/windows-dev-agent/wda/tools"
)

type shellRules struct {
	forbidden, approval, readOnly, reversible *regexp.Regexp
}

// rules compiles the shell patterns once, on the first shell classification, so that a
// hook process that classifies an MCP call never pays for them.
var rules = sync.OnceValue(func() *shellRules {
	return &shellRules{
		forbidden: regexp.MustCompile(`(?is)` +
			`\bformat\s+[a-z]:` +
			`|\bdiskpart\b` +
			`|\bbcdedit\b` +
			`|\bcipher\s+/w:` +
			`|\bremove-item\b.*(?:hklm:|c:\\windows\\system32)`),
		approval: regexp.MustCompile(`(?is)` +
			`\b(?:winget|choco|scoop)\s+(?:install|upgrade|uninstall)\b` +
			`|\b(?:pip|uv|npm|pnpm|yarn|cargo)\s+(?:install|add|remove|uninstall|update|upgrade)\b` +
			`|\bgit\s+(?:push|commit|merge|rebase|reset|clean)\b` +
			`|\bgh\s+(?:pr\s+create|pr\s+merge|release\s+create)\b` +
			`|\breg\s+(?:add|delete)\b` +
			`|\b(?:set|new)-item(?:property)?\b` +
			`|\bremove-item\b` +
			`|\b(?:enable|disable)-windowsoptionalfeature\b` +
			`|\b(?:invoke-expression|start-process)\b` +
			`|\b(?:rm|del|erase|rmdir)\b`),
		readOnly: regexp.MustCompile(`(?i)^\s*(?:` +
			`git\s+(?:status|log|diff|show)\b` +
			`|get-\w+` +
			`|test-path\b` +
			`|resolve-path\b` +
			`|where(?:\.exe)?\b` +
			`|(?:python|py|node|npm|git|gh|dotnet|cargo|rustc|go|java|winget|choco|scoop)\s+--?version\b)`),
		reversible: regexp.MustCompile(`(?i)^\s*(?:` +
			`(?:pytest|ruff|pylint|eslint)\b` +
			`|dprint\s+check\b` +
			`|(?:cargo|go|dotnet)\s+test\b` +
			`|dotnet\s+build\b)`),
	}
})

// Shell classifies one Bash or PowerShell command line (hosts.md §2.1).
func Shell(cmd string) tools.Class {
	r := rules()
	switch {
	case r.forbidden.MatchString(cmd):
		return tools.Forbidden
	case r.approval.MatchString(cmd):
		return tools.ApprovalRequired
	case Dynamic(cmd):
		return tools.ApprovalRequired
	case r.readOnly.MatchString(cmd):
		return tools.ReadOnly
	case r.reversible.MatchString(cmd):
		return tools.Reversible
	}
	return tools.ApprovalRequired
}

// Dynamic reports whether cmd contains compound, redirecting or substituting shell
// syntax: ; CR LF && || | > < $( @( a backtick, or a lone &. (&& and || are covered by
// & and |.) Such a command can do anything after its first word, so no prefix rule may
// lower its class.
func Dynamic(cmd string) bool {
	return strings.ContainsAny(cmd, ";\r\n|&<>`") || strings.Contains(cmd, "$(") || strings.Contains(cmd, "@(")
}
