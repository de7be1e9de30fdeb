package classify

import (
	"regexp"
	"sync"
	"testing"

	"github.com/windows-dev-agent/wda/tools"
)

// The shell classifier as it was before the hand-written matcher: four regular
// expressions and the Dynamic check. It is kept only as the oracle of
// FuzzShellDifferential: the new classifier may only tighten it (docs/safety/shell-classifier.md).
var oracleRules = sync.OnceValue(oracleRules0)

func oracleRules0() [4]*regexp.Regexp {
	return [4]*regexp.Regexp{
		regexp.MustCompile(`(?is)` +
			`\bformat\s+[a-z]:` +
			`|\bdiskpart\b` +
			`|\bbcdedit\b` +
			`|\bcipher\s+/w:` +
			`|\bremove-item\b.*(?:hklm:|c:\\windows\\system32)`),
		regexp.MustCompile(`(?is)` +
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
		regexp.MustCompile(`(?i)^\s*(?:` +
			`git\s+(?:status|log|diff|show)\b` +
			`|get-\w+` +
			`|test-path\b` +
			`|resolve-path\b` +
			`|where(?:\.exe)?\b` +
			`|(?:python|py|node|npm|git|gh|dotnet|cargo|rustc|go|java|winget|choco|scoop)\s+--?version\b)`),
		regexp.MustCompile(`(?i)^\s*(?:` +
			`(?:pytest|ruff|pylint|eslint)\b` +
			`|dprint\s+check\b` +
			`|(?:cargo|go|dotnet)\s+test\b` +
			`|dotnet\s+build\b)`),
	}
}

// oracleShell is the old Shell, first match wins.
func oracleShell(cmd string) tools.Class {
	r := oracleRules()
	switch {
	case r[0].MatchString(cmd):
		return tools.Forbidden
	case r[1].MatchString(cmd):
		return tools.ApprovalRequired
	case Dynamic(cmd):
		return tools.ApprovalRequired
	case r[2].MatchString(cmd):
		return tools.ReadOnly
	case r[3].MatchString(cmd):
		return tools.Reversible
	}
	return tools.ApprovalRequired
}

// rank orders the classes for the differential: checkpoint counts like approval-required.
func rank(c tools.Class) int {
	switch c {
	case tools.ReadOnly:
		return 0
	case tools.Reversible:
		return 1
	case tools.ApprovalRequired, tools.Checkpoint:
		return 2
	case tools.Forbidden:
		return 3
	}
	return -1
}

// BenchmarkOracleCompile is what every hook process that classified a shell command
// paid before the hand-written matcher: compiling the four expressions.
func BenchmarkOracleCompile(b *testing.B) {
	for b.Loop() {
		oracleRules0()
	}
}
