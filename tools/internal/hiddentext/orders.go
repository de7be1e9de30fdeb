package hiddentext

import (
	"regexp"
	"slices"
	"strings"
)

// The comment rule (docs/tools/ecosystem_scan.md, "Hidden text"): an HTML comment is
// flagged when its text, lower-cased with white space collapsed, matches one of these.
// Each pattern needs an addressee or an unambiguous order, so a licence header, a TODO
// or a linter switch (markdownlint-disable, prettier-ignore) is not flagged.
var (
	// addressee names the model or agent; a bare "model" is left out (data models).
	addressee = `(?:ai|assistant|agent|llm|claude|codex|copilot|gemini|chatgpt|gpt(?:-[0-9][a-z0-9.-]*)?|ai model|language model)s?`
	det       = `(?:(?:the|any|all|every|an?|dear)\s+)?`
	// Each pattern has the words one of which it cannot match without; a comment with
	// none of them skips the expression (most comments, and the cost is in the regexps).
	orderPats = []struct {
		needs  []string
		re     *regexp.Regexp
		sev    string
		reason string
	}{
		{[]string{"ignore", "disregard", "forget", "override", "bypass"}, regexp.MustCompile(`\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|these|those|of)\s+)*(?:previous|prior|above|earlier|preceding|system|original|other|user'?s?)\s+(?:instructions?|prompts?|rules?|messages?|directions?|guidelines?|context)\b`),
			SeverityHigh, "tells the agent to ignore its instructions"},
		{[]string{"user"}, regexp.MustCompile(`\b(?:(?:do\s+not|don'?t|never)\s+(?:tell|inform|mention|reveal|show|disclose|notify|alert|let)\s+(?:(?:this|it|anything|that)\s+)?(?:to\s+)?the\s+user|without\s+(?:telling|informing|asking|notifying|alerting|showing)\s+the\s+user|(?:hide|conceal)\s+(?:this|it|them|that)\s+from\s+the\s+user)\b`),
			SeverityHigh, "tells the agent to hide something from the user"},
		{[]string{"exfiltrat", "send", "upload", "post", "forward", "leak", "copy"}, regexp.MustCompile(`\bexfiltrat|\b(?:send|upload|post|forward|leak|copy)\s+(?:(?:the|all|any|your|their|my|its)\s+)*(?:secrets?|credentials?|tokens?|passwords?|api\s+keys?|private\s+keys?|ssh\s+keys?|env(?:ironment)?\s+variables?|\.env|cookies?)\b`),
			SeverityHigh, "asks for secrets to be sent somewhere"},
		{[]string{"|"}, regexp.MustCompile(`\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b.*\|\s*(?:sudo\s+)?(?:sh|bash|zsh|iex|invoke-expression|powershell|pwsh|python3?)\b`),
			SeverityHigh, "pipes a download into a shell"},
		{[]string{"ai", "assistant", "agent", "llm", "claude", "codex", "copilot", "gemini", "gpt", "model"}, regexp.MustCompile(`^` + det + addressee + `\s*[:,]|\b(?:dear|hey|hello|hi|attention|note\s+(?:to|for)|instructions?\s+(?:to|for)|message\s+(?:to|for)|reminder\s+(?:to|for))\s+` + det + addressee + `\b|\byou\s+are\s+(?:now\s+)?(?:an?|the)\s+(?:[a-z-]+\s+)?` + addressee + `\b|\b` + det + addressee + `\s+(?:must|should|shall|will|needs?\s+to|has\s+to|have\s+to|is\s+to|are\s+to)\b`),
			SeverityMedium, "addresses the agent"},
	}
)

// orders says whether a comment's text gives the agent orders, with the strongest
// matching reason; "" when it does not.
func orders(text string) (sev, reason string) {
	// Invisible characters are dropped first, so one cannot split a word to slip past.
	t := strings.Map(func(r rune) rune {
		if isTag(r) || isBidi(r) || isZeroWidth(r) || isSelector(r) {
			return -1
		}
		return r
	}, strings.ToLower(text))
	t = strings.Join(strings.Fields(t), " ")
	for _, p := range orderPats {
		if !slices.ContainsFunc(p.needs, func(w string) bool { return strings.Contains(t, w) }) {
			continue
		}
		if p.re.MatchString(t) {
			return p.sev, p.reason
		}
	}
	return "", ""
}
