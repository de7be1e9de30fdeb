package gen

import (
	"regexp"
	"strings"

	"github.com/windows-dev-agent/wda/host/classify"
)

// GeminiShellTool is Gemini CLI's shell tool, which its policy engine can match.
const GeminiShellTool = "run_shell_command"

// Gemini runs no hook of this extension (docs/hosts/gemini.md), so the shell classifier
// (host/classify) never sees its shell commands. The policy denies the plain forms of the
// classifier's forbidden rules instead: each pattern is tested against the call's
// "command" pair as Gemini serialises it (a JSON string), anywhere in it, without
// regard to case. These are only the undisguised spellings: quotes inside a word,
// escapes, look-alike letters and encoded commands, which the classifier undoes, get
// through here; a test keeps every denial a command the classifier forbids.

// geminiShellRules are the deny rules for Gemini's shell tool.
func geminiShellRules() []geminiRule {
	in := `\x00"command":"[^\x00]*`
	verb := words(classify.RemovalVerbs()...)
	sys := fold(`c:\\windows\\system32`)
	// No group carries a quantifier: Gemini refuses such a pattern as a possible ReDoS
	// (isSafeRegExp in its policy loader), so optional parts are empty alternatives.
	format := `\b` + fold("format") + `(?:|\.` + fold("com") + `|\.` + fold("exe") + `|\.` + fold("bat") + `)`
	patterns := []string{
		in + words("diskpart"),
		in + words("bcdedit"),
		in + words("format-volume", "clear-disk", "remove-partition"),
		// format[.com|.exe|.bat] and a drive, or its switches and then a drive.
		in + format + `\s+[a-zA-Z]:`,
		in + format + `\s+[/-][^\x00]*\s[a-zA-Z]:`,
		// cipher with a /w switch.
		in + `\b` + fold("cipher") + `(?:|\.` + fold("exe") + `)\b[^\x00]*\s[/-][wW](?:[:\s"]|\\)`,
		// A removal, move or clear and a protected hive, in either order.
		in + verb + `[^\x00]*` + words(classify.ProtectedHives()...),
		in + words(classify.ProtectedHives()...) + `[^\x00]*` + verb,
		// The same with the system directory named as a path.
		in + verb + `[^\x00]*` + sys,
		in + sys + `[^\x00]*` + verb,
	}
	out := make([]geminiRule, len(patterns))
	for i, p := range patterns {
		out[i] = geminiRule{tool: GeminiShellTool, decision: "deny", argsPattern: p}
	}
	return out
}

// words matches any of ws as a whole word, without regard to case.
func words(ws ...string) string {
	alts := make([]string, len(ws))
	for i, w := range ws {
		alts[i] = fold(w)
	}
	return `\b(?:` + strings.Join(alts, "|") + `)\b`
}

// fold is s as a pattern matching it without regard to ASCII case (the policy engine's
// patterns take no flags). s is literal text, as Gemini's JSON shows it.
func fold(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z':
			b.WriteString("[" + string(r) + string(r-'a'+'A') + "]")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	return b.String()
}
